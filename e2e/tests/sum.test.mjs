// The Sum chapter in real Chromium with real worker threads: presets, runs, traces, sweep, stop,
// clamping of bad presets, pool turnover, and a page that stays usable during a long run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertWorkersUsed, clickAndWait, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

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

async function openSum(query) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum${query}`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  return { page, panel };
}

/** Numbers in table cells are formatted for the locale (en: 1,234.5). */
const number = (text) => Number(text.replace(/[^0-9.\-]/g, ''));

async function workersInTimeline(panel) {
  const rows = panel.getByTestId('sum-timeline').locator('table.timeline-workers tbody tr');
  return rows.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker)));
}

test('a preset URL sets every control', async () => {
  const { page, panel } = await openSum('?workers=3&tasks=5&n=2000000&reps=2');
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), '3');
  assert.equal(await panel.getByLabel('Tasks', { exact: true }).inputValue(), '5');
  assert.equal(await panel.getByLabel('Numbers', { exact: true }).inputValue(), '2000000');
  assert.equal(await panel.getByLabel('Repetitions', { exact: true }).inputValue(), '2');
  assert.equal(await panel.getByTestId('preset-notes').count(), 0, 'valid presets need no note');
  // Nothing runs without autorun.
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('invalid presets are clamped with a visible note, never a crash', async () => {
  const { page, panel } = await openSum('?workers=999&tasks=abc&n=-5&reps=0');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const maxWorkers = Math.min(Math.max(16, 2 * cores), 128);
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), String(maxWorkers));
  assert.equal(await panel.getByLabel('Tasks', { exact: true }).inputValue(), '8', 'not a number: the default');
  assert.equal(await panel.getByLabel('Numbers', { exact: true }).inputValue(), '100000', 'below the minimum: the minimum');
  assert.equal(await panel.getByLabel('Repetitions', { exact: true }).inputValue(), '1');
  const notes = panel.getByTestId('preset-notes').locator('li');
  assert.equal(await notes.count(), 4);
  assert.match(await notes.nth(0).innerText(), /workers.*999.*largest/);
  assert.match(await notes.nth(1).innerText(), /tasks.*abc.*not a number/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a run fills one row per variant, both correct, and says which machine measured them', async () => {
  const { page, panel } = await openSum('?workers=2&tasks=4&n=1000000&reps=3&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.equal(await rows.count(), 2);
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.variant)), ['sequential', 'tasks']);
  for (const row of await rows.all()) {
    const cell = (column) => row.locator(`td[data-col="${column}"]`);
    const [workers, tasks, result] = await Promise.all(['workers', 'tasks', 'check'].map((c) => cell(c).innerText()));
    const median = number(await cell('median').locator('.value').innerText());
    // Under the median, the fastest and the slowest repetition.
    const [min, max] = (await cell('median').locator('.spread').innerText()).split('–').map(number);
    assert.ok(min <= median && median <= max, `min ≤ median ≤ max: ${min}, ${median}, ${max}`);
    assert.ok(median > 0, 'a real time was measured');
    assert.ok(number(await cell('speedup').locator('.value').innerText()) > 0);
    assert.match(result, /correct/);
    assert.ok(['1', '2'].includes(workers) && ['1', '4'].includes(tasks));
    assert.equal((await row.getAttribute('data-samples')).split(' ').length, 3, 'its three repetitions');
  }
  assert.match(await panel.getByTestId('machine-line').innerText(), /logical processors.*isolated: yes/);
  assert.equal(await panel.getByTestId('published').locator('tbody tr').count(), 4);
  // The URL keeps the settings of the run, so it can be shared.
  assert.match(page.url(), /workers=2&tasks=4&n=1000000&reps=3/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the trace of a run names at most min(workers, tasks) workers of its pool, each once, and every task', async () => {
  // Tasks of ~10M numbers each: long enough that another worker wakes up and takes one.
  for (const [workers, tasks] of [[1, 4], [2, 2], [4, 2]]) {
    const { page, panel } = await openSum(`?workers=${workers}&tasks=${tasks}&n=20000000&reps=2&autorun=1`);
    assert.equal(await waitForOutcome(panel), 'finished');
    assertWorkersUsed(await workersInTimeline(panel), workers, tasks);
    const taskRows = panel.getByTestId('sum-timeline').locator('table.timeline-tasks tbody tr');
    assert.equal(await taskRows.count(), tasks, 'one trace entry per task');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

/** The results table's rows: variant, workers, median ms, whether it carries a caveat, and its note. */
async function resultRows(panel) {
  return panel.locator('table.results tbody tr[data-variant]').evaluateAll((trs) => trs.map((tr) => {
    // A row's notes sit in the row under it.
    const notes = tr.nextElementSibling?.classList.contains('row-note') ? tr.nextElementSibling.innerText : '';
    return {
      variant: tr.dataset.variant,
      workers: Number(tr.dataset.workers),
      median: Number(tr.querySelector('td[data-col="median"] .value').innerText.replace(/[^0-9.]/g, '')),
      uncertain: tr.classList.contains('uncertain'),
      note: notes,
    };
  }));
}

/**
 * What a first look must never do: show 2 workers no faster than the loop without a word. The check
 * is the direction only: the 2-worker median is below the loop's, or the row says why it may not be
 * trusted (a busy or noisy machine, a worker that did not take part). How *much* faster is a speed
 * figure, and those live in `cargo xtask bench` (its "First runs" table: a fresh page against a warm
 * one): this sum is bound by memory, and on a shared 2-core machine two workers gave anywhere from
 * 1.2x to 1.9x, so a margin here (it was 0.8 of the loop) failed on noise (1.85 ms against 2.24 ms).
 */
function assertFasterOrExplained(rows, label) {
  const loop = rows.find((r) => r.variant === 'sequential');
  const two = rows.find((r) => r.variant === 'tasks' && r.workers === 2);
  assert.ok(loop && two, `${label}: rows ${JSON.stringify(rows)}`);
  console.log(`# ${label}: 2 workers ${two.median} ms against the loop's ${loop.median} ms${two.uncertain ? ` (${two.note})` : ''}`);
  assert.ok(two.median < loop.median || two.uncertain,
    `${label}: 2 workers took ${two.median} ms against the loop's ${loop.median} ms, and the row says nothing`);
}

test("a fresh page's first autorun shows 2 workers beating the loop, or says why not", async () => {
  const { page, panel } = await openSum('?workers=2&tasks=8&n=10000000&reps=5&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  assertFasterOrExplained(await resultRows(panel), 'first autorun');
  // What getting ready cost is shown apart from the measurement.
  assert.match(await panel.getByTestId('startup-line').innerText(), /^Not timed, before the repetitions: starting the workers took [\d.,]+\sms; .*warming up/);
  // The reader, who has not scrolled, is shown the verdict as it arrives.
  const verdict = await panel.getByTestId('results-found').boundingBox();
  const height = page.viewportSize().height;
  assert.ok(verdict && verdict.y >= 0 && verdict.y + verdict.height <= height, `verdict at ${JSON.stringify(verdict)} of ${height} px`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a fresh page's first sweep shows 2 workers beating the loop, or says why not, with a row per point", async () => {
  const { page, panel } = await openSum('?tasks=8&n=10000000&reps=5');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const rows = await resultRows(panel);
  assertFasterOrExplained(rows, 'first sweep');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const maxWorkers = Math.min(Math.max(16, 2 * cores), 128);
  assert.deepEqual(rows.map((r) => r.workers), [1, ...[1, 2, 4, 8, 16, 32, 64, 128].filter((k) => k < maxWorkers), maxWorkers]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a second run replaces the timeline and its tables, nothing stale is left', async () => {
  const { page, panel } = await openSum('?workers=2&tasks=2&n=20000000&reps=1');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  // Scheduling decides whether both workers take a task (a worker may not wake in time): the lanes
  // are of the 2-worker pool, whichever took part.
  assertWorkersUsed(await workersInTimeline(panel), 2, 2, { longTasks: false });
  const timeline = panel.getByTestId('sum-timeline');
  assert.equal(await timeline.getAttribute('data-what'), 'Run 1: Concurrent: 2 tasks on 2 workers');
  await panel.getByLabel('Workers', { exact: true }).fill('1');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.equal(await timeline.getAttribute('data-what'), 'Run 2: Concurrent: 2 tasks on 1 worker');
  assert.deepEqual(await workersInTimeline(panel), [0]);
  const cells = panel.getByTestId('sum-timeline').locator('table.timeline-workers tbody tr td');
  assert.equal(number(await cells.first().innerText()), 2, 'both tasks ran on the one worker');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a sweep draws speedup against 1, 2, 4, … workers with its data table', async () => {
  const { page, panel } = await openSum('?tasks=4&n=200000&reps=2');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const sweep = panel.getByTestId('sweep');
  const counts = (await sweep.locator('table.chart-data tbody th').allTextContents()).map((c) => c.trim());
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const maxWorkers = Math.min(Math.max(16, 2 * cores), 128);
  const expected = [];
  for (let k = 1; k <= maxWorkers; k *= 2) expected.push(k);
  if (expected.at(-1) !== maxWorkers) expected.push(maxWorkers);
  assert.deepEqual(counts.map(Number), expected);
  const canvas = sweep.locator('canvas');
  assert.ok((await canvas.getAttribute('aria-label')).includes('workers'), 'the chart has a text alternative');
  // The canvas really has ink on it.
  const inked = await canvas.evaluate((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
    return painted;
  });
  assert.ok(inked > 1000, `chart pixels painted: ${inked}`);
  // The articles' four published speedups are drawn on the reader's chart, each named by its source.
  const published = await sweep.getByTestId('published-points').locator('li').allInnerTexts();
  assert.equal(published.length, 4);
  for (const item of published) assert.match(item, /(Go scheduling series|Concurrency \(Chinese version\)).*GOMAXPROCS \d+.*\d\.\d\d×/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Stop ends a long sweep quickly, keeps the rounds measured before it, and the page scrolls meanwhile', async () => {
  const { page, panel } = await openSum('?tasks=8&n=50000000&reps=50');
  await panel.getByRole('button', { name: 'Sweep workers', exact: true }).click();
  // The UI thread is free while every worker is busy: the page scrolls.
  const progress = panel.locator('.progress-text', { hasText: 'in turns' });
  await progress.waitFor({ timeout: 120_000 });
  const before = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 600);
  await page.waitForFunction((y) => window.scrollY > y, before, { timeout: 5_000 });
  // The sweep's jobs take turns, a repetition of each per round: once more repetitions are done
  // than there are jobs, every point has at least one.
  const [, jobs] = (await progress.innerText()).match(/Timing (\d+) jobs in turns/).map(Number);
  await page.waitForFunction(
    (n) => Number(document.querySelector('section[data-experiment="sum"] .progress-text')?.innerText.match(/: (\d+) of/)?.[1]) > n,
    jobs,
    { timeout: 120_000, polling: 100 },
  );
  const started = Date.now();
  await panel.getByRole('button', { name: 'Stop' }).click();
  assert.equal(await waitForOutcome(panel, 10_000), 'stopped');
  const stoppedAfterMs = Date.now() - started;
  console.log(`# stop took ${stoppedAfterMs} ms (click to visible "stopped")`);
  // Generous: this machine is shared and noisy; the engine itself stops within one slice of work.
  assert.ok(stoppedAfterMs < 3_000, `stop took ${stoppedAfterMs} ms`);
  const rows = await resultRows(panel);
  const measured = rows.map((r) => `${r.variant} ${r.workers}`);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const maxWorkers = Math.min(Math.max(16, 2 * cores), 128);
  const points = [1, 2, 4, 8, 16, 32, 64, 128].filter((k) => k < maxWorkers).concat(maxWorkers);
  // Every point took its turns; the rounds completed before the stop are kept, the one it cut short
  // is not, and nothing is invented: each row holds the same number of repetitions, fewer than asked.
  assert.deepEqual(measured, ['sequential 1', ...points.map((k) => `tasks ${k}`)], measured.join(', '));
  const counts = await panel.locator('table.results tr[data-variant]').evaluateAll((trs) => trs.map((tr) => tr.dataset.samples.split(' ').length));
  assert.equal(new Set(counts).size, 1, `complete rounds only: ${counts}`);
  assert.ok(counts[0] >= 1 && counts[0] < 50, `${counts[0]} of 50 repetitions`);
  assert.equal(await panel.getByRole('button', { name: 'Run', exact: true }).isEnabled(), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('changing the worker count 50 times leaves no more workers alive than the largest pool', async () => {
  const { page, panel } = await openSum('?tasks=8&n=100000&reps=1');
  const workers = panel.getByLabel('Workers', { exact: true });
  for (let round = 0; round < 50; round++) {
    await workers.fill(String(1 + (round % 8)));
    assert.equal(await clickAndWait(panel, 'Run'), 'finished', `round ${round}`);
  }
  // Exited workers close asynchronously, and the browser reports a closed worker late on a busy
  // machine (seen: one still listed after 5 s): allow them up to 20 s. A leak never closes at all.
  const largestPool = 8;
  const coordinator = 1;
  let alive = Infinity;
  for (let i = 0; i < 200 && alive > largestPool + coordinator; i++) {
    await page.waitForTimeout(100);
    alive = page.workers().length;
  }
  assert.ok(alive <= largestPool + coordinator, `${alive} workers alive`);
  // The engine's own count, taken as the last run ended. A pool waits a bounded while (300 ms,
  // engine::web::workers::PARK_WAIT) for the workers of the pool before it to park, then starts new
  // ones: on a busy machine one parked late and the count read 9 (a full run, 2026-12-05). A leak
  // piles up instead: one worker or more for each of these 50 runs.
  // (The line sits in the closed diagnostics fold: its text is read, not its rendering.)
  const line = await panel.getByTestId('engine-workers').textContent();
  const engineCount = Number(line.match(/alive now: (\d+)/)[1]);
  assert.ok(engineCount <= 2 * largestPool, line);
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 100);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the controls are keyboard operable', async () => {
  const { page, panel } = await openSum('?workers=2');
  const workers = panel.getByLabel('Workers', { exact: true });
  await workers.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await workers.inputValue(), '3');
  const numbers = panel.getByLabel('Numbers', { exact: true });
  await numbers.fill('1e6');
  await numbers.press('Tab');
  assert.equal(await numbers.inputValue(), '1000000', '1e6 is read as a number');
  await numbers.fill('999999999999');
  await numbers.press('Tab');
  assert.equal(await numbers.inputValue(), '50000000', 'typed values are clamped');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
