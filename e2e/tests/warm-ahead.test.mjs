// Pool workers started ahead of a run (Request::Warm): pointing at or focusing a panel's Run button
// starts the engine and the pool of its Workers knob before the click, only where the chapter lets
// the engine start before a run, and the workers warmed that way are the run's, not extra ones.
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

const poolWorkers = (page) => page.workers().filter((w) => new URL(w.url()).pathname.endsWith('/pool-worker.js')).length;
const engines = (page) => page.workers().filter((w) => new URL(w.url()).pathname.endsWith('/coordinator.js')).length;

/** Poll `count(page)` every 100 ms for up to `ms` until `done(count)`; the last count. */
async function waitForCount(page, count, done, ms) {
  let seen = count(page);
  for (let waited = 0; waited < ms && !done(seen); waited += 100) {
    await page.waitForTimeout(100);
    seen = count(page);
  }
  return seen;
}

async function openSum() {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  // The page settles: nothing asked for a run, so no pool worker may start.
  await page.waitForTimeout(1500);
  assert.equal(poolWorkers(page), 0, 'no pool worker before the reader points at Run');
  return { page, panel, run: panel.getByRole('button', { name: 'Run', exact: true }) };
}

test('pointing at Run starts the pool of the Workers knob before the click, and the run takes those workers', async () => {
  const { page, panel, run } = await openSum();
  await run.hover();
  const warmed = await waitForCount(page, poolWorkers, (n) => n >= 1, 20_000);
  assert.ok(warmed >= 1, `${warmed} pool workers 20 s after pointing at Run, before any click`);
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  for (const text of await panel.locator('table.results tbody tr[data-variant] td.check').allInnerTexts()) {
    assert.match(text, /correct/);
  }
  // A pool of two took the warmed workers instead of starting two more; spare ones end. A closed
  // worker can be reported late on a busy machine, so allow 20 s.
  const alive = await waitForCount(page, poolWorkers, (n) => n <= 2, 20_000);
  assert.ok(alive <= 2, `${alive} pool workers alive after a run on two`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('focusing Run from the keyboard warms the pool the same way', async () => {
  const { page, run } = await openSum();
  await run.focus();
  const warmed = await waitForCount(page, poolWorkers, (n) => n >= 1, 20_000);
  assert.ok(warmed >= 1, `${warmed} pool workers 20 s after focusing Run`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('where the chapter weighs the page\'s own memory, pointing at Run starts no engine', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/task-costs`);
  const panel = page.locator('section[data-experiment="task-switch"]');
  await panel.waitFor();
  const run = panel.getByRole('button', { name: 'Measure switches' });
  await run.hover();
  await run.focus();
  // Long enough for a warmed engine to show up on a busy machine (it took under 2 s above).
  await page.waitForTimeout(4000);
  assert.equal(engines(page), 0, 'no engine started before a run on the task-cost chapter');
  assert.equal(poolWorkers(page), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
