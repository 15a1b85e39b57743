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
