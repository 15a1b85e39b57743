// The Hindi article's chart (issue 16): goroutines' overhead against how many goroutines a run
// starts. "Sweep task counts" from a small preset draws one line per task size with a point per
// task count, its data table lists the same points, and every measured job is a sweep row of the
// results table. No timing is asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

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

const SIZES = [1, 10, 100, 1000, 5000];

test('the task-count sweep draws one line per task size with a point per count', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/task-costs?tasks=1000&workers=2&reps=1&upto=2000`);
  const panel = page.locator('section[data-experiment="task-granularity"]');
  await panel.waitFor();
  const field = panel.getByLabel('Largest task count (sweep)');
  assert.equal(await field.inputValue(), '2000', 'the preset sets the sweep’s largest count');
  assert.equal(await clickAndWait(panel, 'Sweep task counts', 240_000), 'finished');

  const chart = panel.getByTestId('count-chart');
  const legend = (await chart.locator('ul.legend li').allTextContents()).map((t) => t.trim());
  assert.deepEqual(legend, SIZES.map((n) => `${n.toLocaleString('en')} sqrt per task`));
  const points = await chart.locator('table.chart-data tbody tr')
    .evaluateAll((trs) => trs.map((tr) => ({ series: tr.dataset.series, x: Number(tr.dataset.x) })));
  const counts = [1000, 2000];
  assert.equal(points.length, SIZES.length * counts.length, 'a point per size and count');
  for (const name of legend) {
    assert.deepEqual(points.filter((p) => p.series === name).map((p) => p.x), counts, name);
  }
  assert.equal((await chart.locator('table.chart-data thead th').last().textContent()).trim(), 'time ÷ time of the loop');

  // Every job is a sweep row: a loop and goroutines on one worker per size and count.
  const rows = await panel.locator('table.results tbody tr[data-variant]').evaluateAll((trs) => trs.map((tr) => ({
    sweep: tr.querySelector('[data-testid="row-run"]').dataset.sweep === 'true',
    variant: tr.dataset.variant,
    cells: [...tr.cells].map((c) => c.textContent.trim()),
    workers: tr.querySelector('td[data-col="workers"]').textContent.trim(),
    tasks: tr.querySelector('td[data-col="tasks"]').textContent.trim(),
  })));
  assert.equal(rows.length, 2 * points.length);
  assert.ok(rows.every((r) => r.sweep), 'every row is marked as a sweep');
  assert.equal(rows.filter((r) => r.cells[1].startsWith('Goroutines')).length, points.length);
  assert.ok(rows.every((r) => r.workers === '1'), 'everything ran on one worker');
  assert.deepEqual([...new Set(rows.map((r) => r.tasks))], ['1,000', '2,000'], 'task counts grouped as the locale writes them');
  for (const text of await panel.locator('table.results td.check').allInnerTexts()) assert.match(text, /correct/);

  const caption = await chart.locator('figcaption').innerText();
  assert.match(caption, /Published \(Go: goroutine performance \(Hindi translation\)\)/);
  assert.match(caption, /about 20% and 2%/);
  assert.match(caption, /Your loss at 2,000 tasks: 10 sqrt per task: .+; 100 sqrt per task: .+\./);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
