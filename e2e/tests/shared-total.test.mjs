// The Sum chapter's second experiment, one shared total (issue 35, item 6): the loop, then k tasks
// adding into private sums, one shared atomic counter, and counters side by side in one cache line.
// Every version must reach the loop's total; the sweep draws one line per way of adding; a page
// without shared memory says why it cannot run. No timing is asserted: which way is slower is the
// reader's to see, and a busy machine must not fail the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

let browser;
let isolated;
let plain;
before(async () => {
  isolated = await serve('isolated');
  plain = await serve('none');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await isolated?.close();
  await plain?.close();
});

const KINDS = ['sequential', 'private', 'one-shared', 'side-by-side'];

/** The results rows: kind, workers, whether the total was right, the speedup shown. */
async function rows(panel) {
  return panel.locator('table.results tbody tr[data-variant]').evaluateAll((trs) => trs.map((tr) => ({
    kind: tr.dataset.variant,
    workers: tr.querySelector('td[data-col="workers"]').textContent.trim(),
    check: tr.querySelector('td.check').textContent.trim(),
    sweep: tr.querySelector('[data-testid="row-run"]').dataset.sweep === 'true',
  })));
}

test('a run adds the same numbers four ways, every total right, and traces the tasks', async () => {
  const page = await newPage(browser);
  await page.goto(`${isolated.url}/chapters/sum?workers=2&n=200000&reps=1`);
  const panel = page.locator('section[data-experiment="shared-total"]');
  await panel.waitFor();
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), '2', 'the preset sets the workers');
  assert.equal(await clickAndWait(panel, 'Measure the three totals'), 'finished');
  const measured = await rows(panel);
  assert.deepEqual(measured.map((r) => r.kind), KINDS, 'the loop, then the three ways of adding');
  assert.deepEqual(measured.map((r) => r.workers), ['1', '2', '2', '2']);
  for (const row of measured) assert.match(row.check, /correct/, `${row.kind}: ${row.check}`);
  // The address repeats the settings; the timeline shows a traced run of the tasks.
  assert.match(page.url(), /workers=2&n=200000&reps=1/);
  const timeline = panel.getByTestId('shared-total-timeline');
  await timeline.waitFor();
  assert.ok((await timeline.locator('table tbody tr').count()) >= 1, 'the timeline lists its tasks');
  // The code beside the result holds the kernel's counters and the Go version.
  const code = await panel.locator('details.code-view').textContent();
  assert.match(code, /add_each_into/);
  assert.match(code, /atomic\.Int64/);
  await page.context().close();
});

test('a sweep draws one line per way of adding, a point per worker count', async () => {
  const page = await newPage(browser);
  await page.goto(`${isolated.url}/chapters/sum?workers=2&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="shared-total"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const chart = panel.getByTestId('shared-total-sweep');
  // The data table sits in a folded <details>: attached, not visible.
  await chart.locator('table.chart-data tbody tr').first().waitFor({ state: 'attached' });
  const legend = (await chart.locator('ul.legend li').allTextContents()).map((t) => t.trim());
  assert.deepEqual(legend, ['Private sums', 'One shared counter', 'Counters side by side']);
  const points = await chart.locator('table.chart-data tbody tr')
    .evaluateAll((trs) => trs.map((tr) => ({ series: tr.dataset.series, x: Number(tr.dataset.x) })));
  const counts = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  assert.equal(counts[0], 1, 'the sweep starts at one worker');
  for (const name of legend) {
    assert.deepEqual(points.filter((p) => p.series === name).map((p) => p.x), counts, name);
  }
  const measured = await rows(panel);
  assert.ok(measured.every((r) => r.sweep), 'every row is a sweep row');
  assert.equal(measured.length, 1 + 3 * counts.length, 'the loop and three jobs per worker count');
  for (const row of measured) assert.match(row.check, /correct/, `${row.kind}: ${row.check}`);
  await page.context().close();
});

test('without shared memory the panel says why it cannot run, and the Sum panel still runs', async () => {
  const page = await newPage(browser);
  await page.goto(`${plain.url}/chapters/sum?workers=2&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="shared-total"]');
  await panel.waitFor();
  const notice = panel.getByTestId('shared-total-needs-threads');
  await notice.waitFor();
  assert.match(await notice.innerText(), /share/);
  assert.equal(await panel.getByRole('button', { name: 'Measure the three totals' }).count(), 0, 'no Run button');
  assert.equal(await clickAndWait(page.locator('section[data-experiment="sum"]'), 'Run'), 'finished');
  await page.context().close();
});
