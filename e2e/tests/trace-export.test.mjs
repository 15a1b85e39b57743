// A traced run downloads as Chrome trace-event JSON (issue 16): the file Perfetto's UI and
// chrome://tracing open, with a named process, one named thread track per worker and one complete
// event per bar of the timeline. Counts are read from the page's own timeline tables.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, newPage, serve, waitForOutcome, clickAndWait } from '../lib.mjs';

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

/** Press the timeline's download button and parse the file it offers. */
async function downloadTrace(page, timeline) {
  const button = timeline.getByRole('button', { name: 'Download trace (Perfetto / chrome://tracing)' });
  assert.ok(await button.getAttribute('aria-describedby'), 'the button is described by its help line');
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  assert.match(download.suggestedFilename(), /-trace\.json$/);
  return JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
}

/** What the timeline's per-worker table lists: its lanes and the bars (slices) in them. */
async function timelineTable(timeline) {
  return timeline.locator('table.timeline-workers tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({ worker: Number(tr.dataset.worker), slices: Number(tr.dataset.slices) })));
}

/** Check the file's structure against the page's table; `workers` is the run's pool size. */
function checkTrace(trace, rows, workers, experiment) {
  assert.ok(Array.isArray(trace.traceEvents), 'traceEvents is an array');
  assert.equal(trace.displayTimeUnit, 'ms');
  const events = trace.traceEvents;
  const process = events.find((e) => e.ph === 'M' && e.name === 'process_name');
  assert.ok(process, 'the process is named');
  assert.match(process.args.name, new RegExp(`^Concurrency Lab: ${experiment} — .+`));
  const threads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const named = new Map(threads.map((e) => [e.tid, e.args.name]));
  assert.equal(named.size, threads.length, 'one name per thread');
  assert.ok(threads.length >= 1 && threads.length <= workers, `${threads.length} tracks for ${workers} workers`);
  for (const name of named.values()) assert.match(name, /^worker \d+$/);
  const complete = events.filter((e) => e.ph === 'X');
  for (const e of complete) {
    assert.equal(typeof e.name, 'string');
    assert.match(e.name, /^task \d+$/);
    for (const field of ['ts', 'dur', 'pid', 'tid']) assert.equal(typeof e[field], 'number', `${field} of ${JSON.stringify(e)}`);
    assert.ok(e.ts >= 0 && e.dur >= 0, JSON.stringify(e));
    assert.ok(named.has(e.tid), `thread ${e.tid} has a thread_name event`);
    assert.equal(typeof e.args.task, 'number');
  }
  const starts = complete.map((e) => e.ts);
  assert.deepEqual(starts, [...starts].sort((a, b) => a - b), 'complete events in time order');
  const slices = rows.reduce((total, row) => total + row.slices, 0);
  assert.equal(complete.length, slices, 'one complete event per bar the timeline table lists');
  // Each worker's events are on its own track: as many per track as the table's row says.
  for (const row of rows) {
    const tid = [...named].find(([, name]) => name === `worker ${row.worker}`)?.[0];
    assert.equal(complete.filter((e) => e.tid === tid).length, row.slices, `worker ${row.worker}`);
  }
}

test('a sum run downloads as a trace with one track per worker and one event per task', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?tasks=6&workers=2&n=200000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const timeline = panel.getByTestId('sum-timeline');
  const trace = await downloadTrace(page, timeline);
  const rows = await timelineTable(timeline);
  checkTrace(trace, rows, 2, 'sum');
  assert.equal(trace.traceEvents.filter((e) => e.ph === 'X').length, 6, 'the six tasks of the preset');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a run whose tasks park downloads its slices, and its parked intervals as async spans', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/go-scheduler?scenario=io-mix&workers=2&tasks=6&autorun=1`);
  const panel = page.locator('section[data-experiment="go-scheduler"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const timeline = panel.getByTestId('go-timeline');
  const trace = await downloadTrace(page, timeline);
  const rows = await timelineTable(timeline);
  checkTrace(trace, rows, 2, 'go-scheduler');
  const begins = trace.traceEvents.filter((e) => e.ph === 'b');
  const ends = trace.traceEvents.filter((e) => e.ph === 'e');
  assert.equal(begins.length, ends.length, 'every parked interval begins and ends');
  assert.ok(begins.length > 0, 'the IO mix parks tasks');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
