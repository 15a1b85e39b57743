// The document search chapter in real Chromium: goroutines that park beat threads that block,
// the goroutine timeline shows parked time, presets and the tasks sweep work.
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

const number = (text) => Number(text.replace(/[^0-9.\-]/g, ''));

async function open(query) {
  return openPanel(browser, `${server.url}/chapters/document-search${query}`, 'document-search');
}

async function medianOf(panel, variant) {
  return number(await panel.locator(`table.results tbody tr[data-variant="${variant}"] td[data-col="median"] .value`).innerText());
}

test('goroutines on one worker beat threads on one worker by far on 1 ms reads', async () => {
  const { page, panel } = await open('?workers=1&tasks=8&docs=200&latency=1&reps=2&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.variant)), ['sequential', 'tasks', 'goroutines']);
  // Every variant found the same number of items, and it is the right one.
  const results = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.result));
  assert.equal(new Set(results).size, 1, `results ${results}`);
  assert.ok(Number(results[0]) > 0);
  for (const text of await rows.locator('td.check').allInnerTexts()) assert.match(text, /correct/);
  // Sleep-dominated (200 reads of 1 ms): the direction is robust on a noisy machine.
  const threads = await medianOf(panel, 'tasks');
  const goroutines = await medianOf(panel, 'goroutines');
  console.log(`# threads 1x8: ${threads} ms, goroutines 1x8: ${goroutines} ms (${(threads / goroutines).toFixed(1)}x)`);
  assert.ok(goroutines * 3 <= threads, `goroutines ${goroutines} ms vs threads ${threads} ms`);
  assert.ok((await medianOf(panel, 'sequential')) >= 200, '200 reads of 1 ms take at least 200 ms one by one');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the goroutine timeline shows parked time; the thread timeline shows one bar per task', async () => {
  const { page, panel } = await open('?workers=1&tasks=4&docs=100&latency=2&reps=1&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const goroutines = panel.getByTestId('docs-timeline-goroutines');
  const header = await goroutines.locator('table.timeline-workers thead th').allInnerTexts();
  assert.ok(header.some((h) => h.startsWith('Parked')), `columns ${header}`);
  const parkedMs = number(await goroutines.locator('table.timeline-workers tbody tr td').last().innerText());
  assert.ok(parkedMs > 50, `tasks spent ${parkedMs} ms parked`);
  // Four goroutines ran on the one worker, in many short slices (one per document they read).
  const cells = goroutines.locator('table.timeline-workers tbody tr td');
  assert.equal(number(await cells.nth(0).innerText()), 4);
  const slices = number(await cells.nth(1).innerText());
  assert.ok(slices >= 100, `${slices} run slices`);
  const threads = panel.getByTestId('docs-timeline-threads');
  assert.equal(number(await threads.locator('table.timeline-workers tbody tr td').first().innerText()), 4);
  assert.equal((await threads.locator('table.timeline-workers thead th').allInnerTexts()).some((h) => h.startsWith('Parked')), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('presets set the controls and bad values are clamped with a note', async () => {
  const { page, panel } = await open('?workers=2&tasks=16&docs=500&latency=99&reps=2');
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), '2');
  assert.equal(await panel.getByLabel('Tasks', { exact: true }).inputValue(), '16');
  assert.equal(await panel.getByLabel('Documents', { exact: true }).inputValue(), '500');
  assert.equal(await panel.getByLabel('Read latency (ms)', { exact: true }).inputValue(), '10');
  assert.match(await panel.getByTestId('preset-notes').innerText(), /latency.*99.*largest/);
  assert.equal(await panel.getByTestId('published').locator('tbody tr').count(), 4);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('settings that take over half a minute say how long before Run, and the note follows the settings', async () => {
  // The preset: 10,000 reads of 10 ms, 20 samples each of the loop, one thread and 64
  // goroutines. The waits alone: 20 × (100 s + 100 s + 100 s / 64).
  const { page, panel } = await open('?workers=1&tasks=64&docs=10000&latency=10&reps=20');
  const note = panel.getByTestId('long-run');
  await note.waitFor();
  const leastMs = 20 * (10_000 * 10 + 10_000 * 10 + (10_000 * 10) / 64);
  assert.equal(Number(await note.getAttribute('data-at-least-ms')), Math.round(leastMs));
  assert.match(await note.innerText(), new RegExp(`at least ${Math.ceil(leastMs / 60_000)} minutes.*Stop ends it`));
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 0, 'nothing started');
  // The sweep says its own: one sample per point, but the loop and every thread point wait the
  // whole 100 s on one worker.
  const sweepNote = panel.getByTestId('long-sweep');
  assert.ok(Number(await sweepNote.getAttribute('data-at-least-ms')) >= 2 * 10_000 * 10, 'the loop and one thread point at least');
  assert.match(await sweepNote.innerText(), /A sweep with these settings takes at least \d+ minutes.*Stop ends it/);
  // 100 documents: 20 × (1 s + 1 s + the goroutines' 16 ms, which a sample's 100 ms floor
  // lengthens), still over half a minute, said in seconds.
  const documents = panel.getByLabel('Documents', { exact: true });
  await documents.fill('100');
  await documents.press('Tab');
  const fewerMs = 20 * (100 * 10 * 2 + Math.max((100 * 10) / 64, 100));
  await page.waitForFunction((ms) => document.querySelector('[data-testid="long-run"]')?.dataset.atLeastMs === String(ms), Math.round(fewerMs));
  assert.match(await note.innerText(), new RegExp(`at least ${Math.ceil(fewerMs / 1000)} seconds`));
  // One repetition: about 2 s, and the note goes.
  const repetitions = panel.getByLabel('Repetitions', { exact: true });
  await repetitions.focus();
  await repetitions.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-testid="long-run"]') === null);
  // The chapter's own defaults never show it.
  const fresh = await open('');
  await fresh.panel.getByRole('button', { name: 'Run', exact: true }).waitFor();
  assert.equal(await fresh.panel.getByTestId('long-run').count(), 0);
  assert.equal(await fresh.panel.getByTestId('long-sweep').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await fresh.page.context().close();
});

test('a tasks sweep draws threads and goroutines side by side', async () => {
  const { page, panel } = await open('?workers=1&docs=100&latency=1');
  assert.equal(await clickAndWait(panel, 'Sweep tasks'), 'finished');
  const rows = panel.getByTestId('docs-sweep').locator('table.chart-data tbody tr');
  const series = await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.series, Number(tr.dataset.x)]));
  const xs = [1, 2, 4, 8, 16, 32, 64];
  assert.deepEqual(series.filter(([s]) => s.startsWith('Threads')).map(([, x]) => x), xs);
  assert.deepEqual(series.filter(([s]) => s.startsWith('Goroutines')).map(([, x]) => x), xs);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
