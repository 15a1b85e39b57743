// The CPU-bound versus IO-bound chapter: the workload switch, presets, and one sweep line per kind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, openPanel, serve, waitForOutcome } from '../lib.mjs';

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

async function open(query) {
  return openPanel(browser, `${server.url}/chapters/cpu-vs-io${query}`, 'cpu-vs-io');
}

test('a preset picks the workload kind and runs it', async () => {
  const { page, panel } = await open('?kind=cpu&workers=2&tasks=8&reps=2&autorun=1');
  assert.equal(await panel.getByRole('radio', { name: 'CPU-bound' }).isChecked(), true);
  assert.equal(await waitForOutcome(panel), 'finished');
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.variant)), ['sequential', 'goroutines']);
  for (const text of await rows.locator('td.check').allInnerTexts()) assert.match(text, /correct/);
  // Documents already in memory: the tasks have nothing to wait for, and the row says so.
  const goroutines = await rows.nth(1).innerText();
  assert.match(goroutines, /nothing to wait for/);
  assert.doesNotMatch(goroutines, /park|block/);
  assert.match(page.url(), /kind=cpu/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('sweeping both kinds draws one line per kind, and an unknown kind is noted', async () => {
  const { page, panel } = await open('?kind=gpu&workers=1&reps=1');
  assert.match(await panel.getByTestId('preset-notes').innerText(), /kind.*gpu.*not one of the choices/);
  assert.equal(await panel.getByRole('radio', { name: 'IO-bound' }).isChecked(), true, 'the default kind');
  assert.equal(await clickAndWait(panel, 'Sweep tasks'), 'finished');
  await panel.getByRole('radio', { name: 'CPU-bound' }).check();
  assert.equal(await clickAndWait(panel, 'Sweep tasks'), 'finished');
  const series = await panel.getByTestId('cpu-io-sweep').locator('table.chart-data tbody tr')
    .evaluateAll((trs) => trs.map((tr) => tr.dataset.series));
  assert.equal(series.filter((s) => s === 'IO-bound').length, 7);
  assert.equal(series.filter((s) => s === 'CPU-bound').length, 7);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
