// Chapter 1, "Concurrency is not parallelism": the same tasks on one worker and on many,
// drawn as two timelines whose lanes prove how many workers ran.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertWorkersUsed, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

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

async function lanes(timeline) {
  return timeline.locator('table.timeline-workers tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker)));
}

test('tasks on one worker take turns; on four workers they go to lanes of the pool', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/concurrency-vs-parallelism?workers=4&tasks=8&autorun=1`);
  const panel = page.locator('section[data-experiment="demo"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const one = panel.getByTestId('demo-timeline-one');
  const many = panel.getByTestId('demo-timeline-many');
  assert.deepEqual(await lanes(one), [0]);
  // Eight tasks of about 20 ms: usually several of the four workers take some (a busy machine can
  // let one take all; see assertWorkersUsed).
  assertWorkersUsed(await lanes(many), 4, 8);
  // On one worker, no two tasks overlap in time.
  const spans = await one.locator('table.timeline-tasks tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td.num')].map((td) => Number(td.innerText.replace(/,/g, '')))));
  assert.equal(spans.length, 8);
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1] - 0.01, `overlap at ${i}`);
  // Both timelines are drawn, with a text alternative.
  for (const timeline of [one, many]) {
    const label = await timeline.locator('canvas').getAttribute('aria-label');
    assert.match(label, /8 tasks ran on \d of \d workers?/);
  }
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.equal(await rows.count(), 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('without cross-origin isolation the tasks still spread over four lanes, on message-passing workers', async () => {
  const plain = await serve('none');
  const page = await newPage(browser);
  await page.goto(`${plain.url}/chapters/concurrency-vs-parallelism?workers=4&tasks=8&autorun=1`);
  const panel = page.locator('section[data-experiment="demo"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.match(await page.getByTestId('single-worker-banner').innerText(), /share no memory/);
  assert.deepEqual(await lanes(panel.getByTestId('demo-timeline-one')), [0]);
  assert.deepEqual(await lanes(panel.getByTestId('demo-timeline-many')), [0, 1, 2, 3]);
  for (const text of await panel.locator('table.results tbody tr[data-variant] td.check').allInnerTexts()) {
    assert.match(text, /correct/);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await plain.close();
});
