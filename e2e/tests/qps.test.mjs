// The high-concurrency lab: under 10 ms blocking waits, the goroutine server answers far more
// requests per second than a thread pool of the same size; every request is answered once, and
// the in-flight chart and Little's law check are shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, serve, waitForOutcome } from '../lib.mjs';

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

test('at 10 ms waits the goroutine server does at least 3x the QPS of a 2-thread pool', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/high-concurrency?requests=200&c=20&wait=10&work=50&threads=2&workers=2&autorun=1`);
  const panel = page.locator('section[data-experiment="qps"]');
  assert.equal(await waitForOutcome(panel, 60_000), 'finished');
  const rows = panel.getByTestId('qps-results').locator('tbody tr');
  const measured = await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.variant, Number(tr.dataset.qps)]));
  console.log(`# QPS: ${JSON.stringify(measured)}`);
  assert.deepEqual(measured.map(([v]) => v), ['thread-pool', 'goroutines']);
  const [[, pool], [, goroutines]] = measured;
  // Sleep-dominated: 2 blocked threads answer ~200/s, 20 parked requests ~2,000/s.
  assert.ok(goroutines >= 3 * pool, `goroutines ${goroutines} vs thread pool ${pool}`);
  for (const text of await rows.locator('td.check').allInnerTexts()) assert.match(text, /^200 correct/);
  assert.match(await panel.getByTestId('qps-ratio').innerText(), /times as many requests/);
  assert.ok((await panel.getByTestId('in-flight').locator('table.chart-data tbody tr').count()) > 10);
  assert.equal(await panel.getByTestId('published').locator('tbody tr').count(), 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('without shared memory the lab explains that it needs threads', async () => {
  const plain = await serve('none');
  const page = await newPage(browser);
  await page.goto(`${plain.url}/chapters/high-concurrency`);
  await page.getByTestId('qps-needs-threads').waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await plain.close();
});
