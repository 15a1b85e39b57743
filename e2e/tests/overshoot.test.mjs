// The reader's own sleep overshoot: after a document search with 1 ms reads, one sentence under the
// results says how long the loop's reads asked for and how long they waited. A sleep never ends
// early, so the mean waited is at least what was asked (but for clock rounding); the numbers agree
// with the run's own table and settings. Nothing here asserts how large the overshoot is.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPanel, serve, waitForOutcome } from '../lib.mjs';

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

const number = (text) => Number(text.replace(/[^0-9.\-]/g, ''));
/** Clock rounding allowed between a wait asked for and the wait measured (ms). */
const ROUNDING_MS = 0.05;

async function open(query) {
  return openPanel(browser, `${server.url}/chapters/document-search${query}`, 'document-search');
}

test('after 1 ms reads the panel says how long they really waited, consistently with its table', async () => {
  const { page, panel } = await open('?workers=1&tasks=4&docs=200&latency=1&reps=2&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const line = panel.getByTestId('docs-overshoot');
  await line.waitFor();
  const data = await line.evaluate((p) => ({
    reads: Number(p.dataset.reads),
    asked: Number(p.dataset.askedMs),
    mean: Number(p.dataset.meanMs),
    longest: Number(p.dataset.longestMs),
    text: p.textContent,
  }));
  console.log(`# ${data.text}`);
  // Every read of the loop's median repetition, each asking for the run's latency.
  assert.equal(data.reads, 200);
  assert.equal(data.asked, 1);
  assert.ok(data.mean >= data.asked - ROUNDING_MS, `mean waited ${data.mean} ms for ${data.asked} ms asked`);
  assert.ok(data.longest >= data.mean, `longest ${data.longest} ms, mean ${data.mean} ms`);

  // The sentence shows those numbers, and what 1,000 reads take at that pace.
  const shown = [...data.text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => number(m[0]));
  const [reads, asked, mean, longest, thousand, loopSeconds] = shown;
  assert.equal(shown.length, 6, `numbers in "${data.text}"`);
  assert.equal(reads, 200);
  assert.equal(asked, 1);
  assert.ok(Math.abs(mean - data.mean) <= 0.005 + 1e-9, `${mean} shows ${data.mean}`);
  assert.ok(Math.abs(longest - data.longest) <= Math.max(0.005, data.longest * 0.01), `${longest} shows ${data.longest}`);
  assert.equal(thousand, 1000);
  assert.ok(Math.abs(loopSeconds - data.mean) <= 0.005 + 1e-9, `1,000 reads of ${data.mean} ms take ${loopSeconds} s`);
  assert.ok(loopSeconds >= 1 - ROUNDING_MS, `1,000 reads of 1 ms take ${loopSeconds} s, at least a second`);

  // The loop's median time in the table holds all its waits one after another.
  const sequentialMs = number(await panel.locator('table.results tbody tr[data-variant="sequential"] td[data-col="median"] .value').innerText());
  assert.ok(sequentialMs + 1 >= data.reads * data.mean, `loop ${sequentialMs} ms, its waits ${data.reads * data.mean} ms`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('reads that do not wait time nothing and say nothing', async () => {
  const { page, panel } = await open('?workers=1&tasks=4&docs=100&latency=0&reps=1&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.equal(await panel.getByTestId('docs-overshoot').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
