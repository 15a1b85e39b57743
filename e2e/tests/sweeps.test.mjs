// Sweeps are results, and timelines say what they show (issue 19): in every chapter with a sweep,
// each point is a row of "Your results" marked as a sweep, and of the CSV and JSON downloads; the
// "Timeline of" picker chooses which measured job the timeline shows and its heading names it;
// timelines meant to be compared share one time axis; bars that are slices are counted as such.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { clickAndWait, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

let browser;
let server;
before(async () => {
  server = await serve('isolated');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(chapter, experiment, query) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/${chapter}${query}`);
  const panel = page.locator(`section[data-experiment="${experiment}"]`);
  await panel.waitFor();
  return { page, panel };
}

/** The rows of the results table: whether each is a sweep's, its variant, workers and tasks. */
function tableRows(panel) {
  return panel.locator('table.results tbody tr[data-variant]').evaluateAll((trs) => trs.map((tr) => {
    const cell = (column) => tr.querySelector(`td[data-col="${column}"]`).innerText;
    return {
      sweep: tr.querySelector('[data-testid="row-run"]').dataset.sweep === 'true',
      run: cell('run'),
      variant: tr.querySelector('th').innerText,
      workers: Number(cell('workers')),
      tasks: Number(cell('tasks').replace(/,/g, '')),
    };
  }));
}

/** Click a download button of `panel` and return the downloaded file's text. */
async function downloaded(page, panel, name) {
  // The downloads sit in the panel's "Share and export" menu.
  const menu = panel.getByRole('button', { name: 'Share and export' });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name, exact: true }).click(),
  ]);
  return fs.readFileSync(await download.path(), 'utf8');
}

/** Naive CSV reading: enough for these files, whose fields have no commas but the quoted URL's. */
function csvRecords(text) {
  const [header, ...lines] = text.trim().split('\n');
  const names = header.split(',');
  return lines.map((line) => {
    const fields = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((f) => f.replace(/,$/, ''));
    return Object.fromEntries(names.map((name, i) => [name, fields[i]]));
  });
}

const SWEEPS = [
  { chapter: 'sum', experiment: 'sum', query: '?tasks=4&n=200000&reps=1', button: 'Sweep workers', chart: 'sweep' },
  { chapter: 'cpu-vs-io', experiment: 'cpu-vs-io', query: '?kind=cpu&workers=2&reps=1', button: 'Sweep tasks', chart: 'cpu-io-sweep' },
  { chapter: 'document-search', experiment: 'document-search', query: '?workers=2&docs=60&latency=0&reps=1', button: 'Sweep tasks', chart: 'docs-sweep' },
  { chapter: 'bubble-sort', experiment: 'bubble-sort', query: '?tasks=4&n=1500&reps=1', button: 'Sweep workers', chart: 'sort-time' },
  { chapter: 'task-costs', experiment: 'task-granularity', query: '?tasks=1000&workers=2&reps=1', button: 'Measure every task size', chart: 'granularity-chart', baselines: 5 },
];

for (const { chapter, experiment, query, button, chart, baselines = 1 } of SWEEPS) {
  test(`${experiment}: a sweep's points are rows of the results table and of the CSV and JSON downloads`, async () => {
    const { page, panel } = await open(chapter, experiment, query);
    assert.equal(await clickAndWait(panel, button), 'finished');
    const rows = await tableRows(panel);
    // One row per chart point, plus the loop(s) the points are compared with.
    const points = await panel.getByTestId(chart).locator('table.chart-data tbody tr').count();
    assert.ok(points > 1, `${points} points`);
    assert.equal(rows.length, points + baselines, `rows ${JSON.stringify(rows)}`);
    assert.ok(rows.every((r) => r.sweep && /sweep/.test(r.run)), `every row says it is the sweep's: ${JSON.stringify(rows)}`);
    assert.equal(await panel.getByText('No results yet').count(), 0);

    const csv = csvRecords(await downloaded(page, panel, 'Download CSV'));
    assert.equal(csv.length, rows.length);
    assert.deepEqual(csv.map((r) => [r.sweep, Number(r.workers), Number(r.tasks)]), rows.map((r) => ['true', r.workers, r.tasks]));
    assert.ok(csv.every((r) => r.experiment === experiment && r.run === '1'));
    const json = JSON.parse(await downloaded(page, panel, 'Download JSON'));
    assert.equal(json.results.length, rows.length);
    assert.ok(json.results.every((r) => r.sweep === true && r.run === 1));

    // A plain run afterwards is a group of its own, not a sweep.
    if (experiment !== 'task-granularity') {
      assert.equal(await clickAndWait(panel, 'Run'), 'finished');
      const after = await tableRows(panel);
      const added = after.slice(rows.length);
      assert.ok(added.length > 0 && added.every((r) => !r.sweep && r.run === '2'), `run rows ${JSON.stringify(added)}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('hashing: running on 1, 4 and 16 workers adds a row per worker count, downloads included', async () => {
  const { page, panel } = await open('hashing', 'hashing', '?mb=1&hashes=2&reps=1');
  assert.equal(await clickAndWait(panel, 'Run on 1, 4 and 16 workers'), 'finished');
  const rows = await tableRows(panel);
  assert.deepEqual(rows.filter((r) => r.variant !== rows[0].variant).map((r) => r.workers), [1, 4, 16]);
  const csv = csvRecords(await downloaded(page, panel, 'Download CSV'));
  assert.deepEqual(csv.map((r) => Number(r.workers)), rows.map((r) => r.workers));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** The heading of a timeline, as its data attribute and its caption give it. */
async function heading(timeline) {
  const what = await timeline.getAttribute('data-what');
  const caption = await timeline.getByTestId('timeline-heading').innerText();
  assert.ok(caption.startsWith(what), `caption "${caption}" names "${what}"`);
  return what;
}

test('the timeline picker switches which job the timeline shows, and its heading says which', async () => {
  const { page, panel } = await open('sum', 'sum', '?workers=2&tasks=4&n=200000&reps=1');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const timeline = panel.getByTestId('sum-timeline');
  assert.equal(await heading(timeline), 'Run 1: Concurrent: 4 tasks on 2 workers');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const picker = panel.getByLabel('Timeline of', { exact: true });
  // The newest job is shown, and the heading says it is a sweep point, not what the sliders say.
  const options = await picker.locator('option').allInnerTexts();
  assert.equal(options[0], 'Run 1: Concurrent: 4 tasks on 2 workers');
  assert.ok(options.length >= 3 && options.slice(1).every((o) => o.startsWith('Sweep 2: ')), `options ${options}`);
  assert.equal(await heading(timeline), options.at(-1));
  // Back to the run: the heading, the lanes and the tables follow.
  await picker.selectOption({ label: 'Run 1: Concurrent: 4 tasks on 2 workers' });
  assert.equal(await heading(timeline), 'Run 1: Concurrent: 4 tasks on 2 workers');
  const lanes = await timeline.locator('table.timeline-workers tbody tr').count();
  assert.ok(lanes >= 1 && lanes <= 2, `${lanes} lanes for 2 workers`);
  await picker.selectOption({ label: 'Sweep 2: Concurrent: 4 tasks on 1 worker' });
  assert.equal(await heading(timeline), 'Sweep 2: Concurrent: 4 tasks on 1 worker');
  assert.deepEqual(await timeline.locator('table.timeline-workers tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.worker)), ['0']);
  // By keyboard too.
  await picker.focus();
  await page.keyboard.press('ArrowUp');
  assert.equal(await heading(timeline), 'Run 1: Concurrent: 4 tasks on 2 workers');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

async function axisMax(timeline) {
  return Number(await timeline.getAttribute('data-axis-max-ms'));
}

test('chapter 1: the one-worker and k-worker timelines share one time axis', async () => {
  const { page, panel } = await open('concurrency-vs-parallelism', 'demo', '?workers=2&tasks=4&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const one = panel.getByTestId('demo-timeline-one');
  const many = panel.getByTestId('demo-timeline-many');
  const [a, b] = [await axisMax(one), await axisMax(many)];
  assert.ok(a > 0 && a === b, `axis maxima ${a} and ${b}`);
  // The axis reaches the later of the two runs' ends.
  const lastEnd = async (timeline) => Math.max(...(await timeline.locator('table.timeline-workers tbody tr td:nth-of-type(4)')
    .allInnerTexts()).map((t) => Number(t.replace(/[^0-9.]/g, ''))));
  // (The table rounds its times for display: allow for that.)
  const latest = Math.max(await lastEnd(one), await lastEnd(many));
  assert.ok(Math.abs(a - latest) <= Math.max(0.05, 0.01 * latest) || a > latest, `axis ${a} ms, latest end ${latest} ms`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('document search: the threads and goroutines timelines share one time axis, and say what their bars are', async () => {
  const { page, panel } = await open('document-search', 'document-search', '?workers=1&tasks=4&docs=60&latency=1&reps=1&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const threads = panel.getByTestId('docs-timeline-threads');
  const goroutines = panel.getByTestId('docs-timeline-goroutines');
  const [a, b] = [await axisMax(threads), await axisMax(goroutines)];
  assert.ok(a > 0 && a === b, `axis maxima ${a} and ${b}`);
  assert.match(await threads.getByTestId('timeline-heading').innerText(), /shared queue/);
  // Goroutines park and resume: bars are slices, and each task is counted once where it started.
  assert.match(await goroutines.getByTestId('timeline-heading').innerText(), /each bar is a slice of a task/);
  const started = await goroutines.locator('table.timeline-workers tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.tasksStarted)));
  assert.equal(started.reduce((x, y) => x + y, 0), 4);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('hashing: the timeline counts hashes as tasks and their slices as bars', async () => {
  // 9 MB read in 4 MB slices: 3 slices, so 3 hashes are drawn as 9 bars.
  const { page, panel } = await open('hashing', 'hashing', '?mb=9&hashes=3&workers=2&reps=1&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const timeline = panel.getByTestId('hash-timeline');
  const rows = await timeline.locator('table.timeline-workers tbody tr').evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.tasksStarted), Number(tr.dataset.slices)]));
  assert.equal(rows.reduce((sum, [started]) => sum + started, 0), 3, `rows ${JSON.stringify(rows)}`);
  assert.equal(rows.reduce((sum, [, slices]) => sum + slices, 0), 9, `rows ${JSON.stringify(rows)}`);
  assert.match(await timeline.locator('.timeline-summary').innerText(), /^3 tasks ran as 9 bars/);
  assert.match(await timeline.getByTestId('timeline-heading').innerText(), /a task is one hash/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
