// The short soak (issue 13), run by `cargo xtask test`: 32 consecutive runs in one page, a chapter
// and a worker count per run (every engine chapter, k = 1, 2, 4, 8, 16), through the same module and
// the same tolerances as `cargo xtask soak` (300 runs; e2e/soak.mjs explains the bounds).
// Fails if after any run more workers are alive than the engine's pools + its coordinator; if the
// engine's wasm memory or heap, the page's JS heap or the UI's wasm memory grew past its tolerance
// between the quarter after warm-up (runs 9-16) and the last quarter (runs 25-32); or if 30 s after
// leaving the chapter more than the coordinator is alive. About 1.5 minutes on two cores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from '../soak.mjs';

test('32 runs over every engine chapter and k = 1…16 in one page: no extra worker, flat memory, workers released', { timeout: 300_000 }, async () => {
  const summary = await soak({
    runs: 32,
    // One run per visit: every chapter comes back in each quarter of 8 runs.
    runsPerVisit: 1,
    log: (line) => console.log(line),
  });
  assert.equal(summary.finished, 32);
  assert.ok(summary.releasedMs !== null && summary.releasedMs <= 30_000);
});

// The quarters' comparison alone, on made-up records (no browser): a few more workers kept late in
// the soak (a busy machine, workers that parked too late to be reused) are not a leak, while the
// same growth with the same workers kept is.
const MiB = 2 ** 20;
function records({ runs, quarter, perWorker, live, leakPerRun = 0 }) {
  // The wasm memory grows in 64 KiB pages as the heap needs them, and never shrinks.
  let memoryBytes = 0;
  return Array.from({ length: runs }, (_, run) => {
    const kept = live(run);
    const heapBytes = 0.4 * MiB + perWorker * kept + leakPerRun * run;
    memoryBytes = Math.max(memoryBytes, Math.ceil((heapBytes + 1.5 * MiB) / 65536) * 65536);
    return { run, step: run % quarter, live: kept, heapBytes, memoryBytes, jsHeapBytes: 5e6, appMemoryBytes: 2.4 * MiB };
  });
}
const warmUp = (run) => [1, 2, 5, 16][run] ?? 16;

test('the soak compares heaps per worker kept: two more workers kept late pass', async () => {
  const { compareQuarters } = await import('../soak.mjs');
  const runs = 32;
  const quarter = 8;
  const more = records({ runs, quarter, perWorker: 2.1 * MiB, live: (run) => (run >= 20 ? 18 : warmUp(run)) });
  const result = compareQuarters(more, { runs, quarter });
  assert.deepEqual(result.violations, []);
  assert.ok(Math.abs(result.bytesPerKeptWorker - 2.1 * MiB) < 0.01 * MiB, `${result.bytesPerKeptWorker}`);
});

test('the soak compares heaps per worker kept: 4 MiB lost with the same workers kept fails', async () => {
  const { compareQuarters } = await import('../soak.mjs');
  const runs = 32;
  const quarter = 8;
  const leak = records({ runs, quarter, perWorker: 2.1 * MiB, live: warmUp, leakPerRun: 0.25 * MiB });
  const result = compareQuarters(leak, { runs, quarter });
  assert.ok(result.violations.some((v) => v.startsWith('heapBytes')), result.violations.join('\n'));
});
