// The soak of issue 13: many consecutive runs in ONE page (one engine), changing the chapter and the
// worker count k, checking after every run that no more workers are alive than the engine's kept
// pools plus its coordinator; at the end, that the engine's wasm memory, its live heap and the
// page's JS heap stayed flat after warm-up, and that after leaving the chapter only the coordinator
// is left within 30 s.
//
//   SITE_DIR=/abs/path/to/dist node soak.mjs [runs]      (default 300; `cargo xtask soak` runs this)
//   SOAK_RECORDS=/tmp/soak.json …                        (also writes every run's figures there)
//
// `e2e/tests/soak.test.mjs` runs a short version through `soak()`.
//
// How it goes. Chapters are reached only by clicking links in the page (the header's site name and
// then a chapter on the home page, or the header's chapter menu), never by `page.goto`, so the page
// and its engine live for the whole soak (checked at the end: a marker set on `window` at the start
// is still there, and the coordinator Worker is the one seen after the first run). On arriving, the
// panel's controls are set for a small, fast run (tiny sizes, one repetition); before each run the
// Workers control is set to that run's k. After each run (it must end "finished"):
//   - workers: every Web Worker the browser reports (`page.workers()`: the coordinator, pool workers,
//     message workers, anything else) must be at most `data-pool` + `data-parked` (the workers of the executors the engine keeps, and those parked for reuse: see web/workers.rs; never more than the most ever kept at once)
//     engine keeps, as the panel shows them after the run) + 1 coordinator, and the engine's own
//     count (`data-live`) at most `data-pool`. Workers of a pool just replaced end asynchronously
//     (their `close` reaches Playwright a little later), so the browser's count may take up to
//     SETTLE_LIMIT_MS to come down; the first count taken is reported as well, and so is the peak
//     of workers alive at any moment of the soak (from worker start/close events), runs included.
//   - figures: the panel's `data-heap-bytes` (engine heap allocated and not freed) and
//     `data-memory-bytes` (the engine's wasm memory); the page's JS heap after a forced GC (CDP
//     `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`: V8's used heap plus Blink's, where
//     the DOM lives); and the UI's own wasm memory (the app module's, from Trunk's start event).
//
// The schedule repeats every quarter: run i does step (i mod q) of a fixed list of q = floor(runs/4)
// steps. The quarter after warm-up (runs q..2q-1) and the last quarter (the last q runs) thus do
// exactly the same chapters with the same k, so their averages compare like with like (the engine's
// heap after a run depends mostly on the pools it keeps: each pool worker's stack and TLS, ~2 MiB,
// live in the shared memory). The report also gives the growth per run, from the same step in both
// quarters.
//
// Tolerances: growth of the last quarter's average over the quarter-after-warm-up's (TOLERANCES), the
// same for the short test and the full soak:
//   - engine wasm memory: +4 MiB, plus ~2 MiB per worker kept beyond the most kept after warm-up. It never shrinks; once the first quarter has run every step, an
//     engine that frees what it allocates reuses that memory (fragmentation has cost one more 2 MiB
//     step in short soaks). A pool leaked per run needs >= 2 MiB of new memory per run.
//   - engine heap: +1 MiB, less ~2 MiB per worker kept (see compareQuarters: on a busy machine a
//     pool may start workers beside late-parking ones, and the engine then keeps those; CI once
//     kept 18 instead of 16, +4.2 MiB, which the plain comparison called a leak). (Not relative: parked workers keep their stacks, so the heap stays
//     ~68 MiB after warm-up, and 10% of that would hide the leak below.) With the same pool kept, a run leaves it
//     unchanged (+0.1 KiB a run over 20 runs of k = 16). A leaked pool worker is ~2 MiB (its stack and
//     TLS), so a pool per run breaks the bound within a run or two; so do small leaks that add up,
//     given enough runs: ~1.7 KiB per Web Worker started (what the engine lost before pool workers
//     were parked for reuse: the heap grew by that much per worker whenever k changed) is ~2.4 MiB
//     over the 150 runs between the two quarters of a 300-run soak (measured: +2.3 MiB, failing), and
//     only ~0.2 MiB over the 16 of the short test, which catches gross leaks only. With parking:
//     +0.1 MiB (445 B a run).
//   - JS heap (V8 + Blink, after a forced GC): +20% or +2 MB. Measured: +0.2 to +0.3 MB between the
//     two quarters (2 to 15 kB a run). A chapter's DOM kept after leaving it (~200 kB a visit, as
//     when a test holds an ElementHandle it never disposes) adds 3.7 MB in the short test already.
//   - UI wasm memory (the app module): +1 MiB. Measured: 2.4 to 2.6 MiB over 300 runs.
//   - leaving the chapter: only the coordinator within RELEASE_LIMIT_MS (30 s); the engine releases
//     its pools 15 s after the last run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launch, newPage, openFromChapterMenu, serve, runsEnded } from './lib.mjs';

const MiB = 2 ** 20;
const MB = 1e6;

/** Allowed growth, last quarter's average over the average of the quarter after warm-up. */
export const TOLERANCES = {
  memoryBytes: { absolute: 4 * MiB, relative: 0 },
  heapBytes: { absolute: 1 * MiB, relative: 0 },
  jsHeapBytes: { absolute: 2 * MB, relative: 0.2 },
  appMemoryBytes: { absolute: 1 * MiB, relative: 0 },
};

/** Leaving the chapter: at most the coordinator is alive within this long. */
export const RELEASE_LIMIT_MS = 30_000;
/** The most pool workers the engine parks for reuse (web/workers.rs, MAX_PARKED). */
const MAX_PARKED = 64;

/** How long the browser's worker count may take to come down to pool + coordinator after a run. */
const SETTLE_LIMIT_MS = 10_000;
/** How long the panel's engine figures may take to show the status it asks for after a run. */
const STATUS_LIMIT_MS = 10_000;
const RUN_TIMEOUT_MS = 120_000;

/**
 * The chapters visited: the experiment panel used, the button that starts a run, and the controls
 * set on arrival for a small, fast run (labels as the page shows them; a value, or 'check' for a
 * radio button). `minWorkers` where the panel cannot run on fewer.
 */
export const CHAPTERS = [
  { slug: 'sum', experiment: 'sum', button: 'Run', controls: { Numbers: 100_000, Tasks: 8, Repetitions: 1 } },
  { slug: 'bubble-sort', experiment: 'bubble-sort', button: 'Run', controls: { Numbers: 1_000, Tasks: 8, Repetitions: 1 } },
  { slug: 'cpu-vs-io', experiment: 'cpu-vs-io', button: 'Run', controls: { 'CPU-bound': 'check', Tasks: 8, Repetitions: 1 } },
  {
    slug: 'document-search',
    experiment: 'document-search',
    button: 'Run',
    controls: { Documents: 100, 'Read latency (ms)': 0, Tasks: 8, Repetitions: 1 },
  },
  {
    slug: 'hashing',
    experiment: 'hashing',
    button: 'Run',
    controls: { 'Generated data': 'check', 'Size (MB)': 1, Hashes: 4, Repetitions: 1 },
  },
  {
    slug: 'task-costs',
    experiment: 'task-granularity',
    button: 'Measure every task size',
    controls: { Tasks: 1_000, Repetitions: 1 },
    minWorkers: 2,
  },
  { slug: 'concurrency-vs-parallelism', experiment: 'demo', button: 'Run both', controls: { Tasks: 4 } },
];

/** Worker counts cycled through, run by run (each capped by what the panel's Workers control allows). */
export const WORKER_COUNTS = [1, 2, 4, 8, 16];
/** Consecutive runs in one chapter before moving on. */
export const RUNS_PER_VISIT = 2;

/**
 * The steps one quarter of the soak repeats: the chapters in turn, `runsPerVisit` runs each, k
 * cycling through `workerCounts` run by run.
 */
export function schedule(steps, { chapters = CHAPTERS, workerCounts = WORKER_COUNTS, runsPerVisit = RUNS_PER_VISIT } = {}) {
  return Array.from({ length: steps }, (_, step) => ({
    chapter: chapters[Math.floor(step / runsPerVisit) % chapters.length],
    k: workerCounts[step % workerCounts.length],
  }));
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Growth allowed over `base` by a tolerance. */
export function allowedGrowth(base, { absolute, relative }) {
  return Math.max(absolute, relative * base);
}

/** Workers the browser reports, by kind. */
function countWorkers(page, fakeExtra = 0) {
  const counts = { total: fakeExtra, coordinator: 0, pool: 0, message: 0, other: fakeExtra };
  for (const worker of page.workers()) {
    const url = worker.url();
    counts.total++;
    if (url.endsWith('/coordinator.js')) counts.coordinator++;
    else if (url.endsWith('/pool-worker.js')) counts.pool++;
    else if (url.endsWith('/message-worker.js')) counts.message++;
    else counts.other++;
  }
  return counts;
}

const describeCounts = (c) => `${c.total} (${c.coordinator} coordinator, ${c.pool} pool, ${c.message} message, ${c.other} other)`;

/**
 * Run the soak: `runs` runs in one page. Returns a summary (figures and violations); throws an
 * AssertionError listing the broken bounds, after logging the summary line. `log` gets progress.
 * For tests: `tolerances` (merged over TOLERANCES), `workerCounts`, `runsPerVisit`, and
 * `fakeExtraWorkers` (counted as alive at every check, to see the worker checks fail).
 */
export async function soak({
  runs = 300,
  log = (line) => process.stderr.write(`soak: ${line}\n`),
  tolerances = {},
  workerCounts = WORKER_COUNTS,
  runsPerVisit = RUNS_PER_VISIT,
  fakeExtraWorkers = 0,
} = {}) {
  assert.ok(Number.isInteger(runs) && runs >= 8, `a soak needs at least 8 runs (4 quarters of 2), not ${runs}`);
  const bounds = { ...TOLERANCES, ...tolerances };
  const quarter = Math.floor(runs / 4);
  const steps = schedule(quarter, { workerCounts, runsPerVisit });
  const server = await serve('isolated');
  const browser = await launch();
  const started = Date.now();
  try {
    const page = await newPage(browser);
    // Workers alive at any moment, runs included (pool changes overlap old and new for a moment).
    let aliveNow = 0;
    let peakAlive = 0;
    page.on('worker', (worker) => {
      peakAlive = Math.max(peakAlive, ++aliveNow);
      worker.on('close', () => aliveNow--);
    });
    const cdp = await page.context().newCDPSession(page);
    const jsHeap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = await cdp.send('Runtime.getHeapUsage');
      return { v8: usage.usedSize, blink: usage.embedderHeapUsedSize ?? 0 };
    };
    // The UI's own wasm memory (the app module, on the page's thread), from Trunk's start event.
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', (event) => {
        window.__soakAppMemory = event.detail?.wasm?.memory;
      });
    });
    const appMemoryBytes = () => page.evaluate(() => window.__soakAppMemory?.buffer.byteLength ?? 0);

    await page.goto(`${server.url}/`);
    await page.locator('a.site-name').waitFor();
    // Set once: a reload anywhere in the soak would lose it.
    await page.evaluate(() => {
      window.__soakPage = 'still the same page';
    });

    const records = [];
    const violations = [];
    const fail = (message) => {
      violations.push(message);
      log(`VIOLATION: ${message}`);
    };
    let coordinator = null;
    let visits = 0;
    let current = null;
    let panel = null;
    let unchangedStatuses = 0;
    // The most workers the engine has kept at once so far (its pools), bounding the parked ones.
    let largestKept = 0;

    for (let i = 0; i < runs; i++) {
      const { chapter, k: wanted } = steps[i % quarter];
      const where = (k) => `run ${i} (${chapter.slug}, k=${k})`;
      if (chapter !== current) {
        panel = await goToChapter(page, chapter, visits++);
        current = chapter;
      }
      const runStarted = Date.now();
      const k = await setWorkers(panel, Math.max(wanted, chapter.minWorkers ?? 1));
      const before = await engineFigures(panel);
      const ended = await runsEnded(panel);
      await panel.getByRole('button', { name: chapter.button, exact: true }).click();
      const outcome = await waitForRunEnd(page, chapter, ended);
      const runMs = Date.now() - runStarted;
      if (outcome !== 'finished') {
        fail(`${where(k)} ended ${outcome}: ${await panel.getByTestId('outcome').innerText()}`);
        continue;
      }
      // The panel asks the engine for its status once the run has ended: wait until it shows.
      let figures = await engineFigures(panel);
      const statusDeadline = Date.now() + STATUS_LIMIT_MS;
      while ((figures.pool === undefined || figuresKey(figures) === figuresKey(before)) && Date.now() < statusDeadline) {
        await page.waitForTimeout(50);
        figures = await engineFigures(panel);
      }
      if (figures.pool === undefined) {
        fail(`${where(k)}: the panel showed no engine status within ${STATUS_LIMIT_MS / 1000} s`);
        continue;
      }
      // Identical figures twice in a row are possible (then the fresh status looks like the old one).
      if (figuresKey(figures) === figuresKey(before)) unchangedStatuses++;
      const pool = Number(figures.pool);
      const parked = Number(figures.parked ?? 0);
      const live = Number(figures.live);
      // Workers whose pool ended wait, parked, for the next pool to reuse them (a wasm thread that
      // ends leaks its thread-locals; see the engine's web/workers.rs): at most 64, and all of them
      // end 15 s after the last run (checked at the end).
      largestKept = Math.max(largestKept, pool + parked);
      const kept = pool + parked;
      if (parked > MAX_PARKED) fail(`${where(k)}: ${parked} parked workers, more than the ${MAX_PARKED} the engine keeps`);

      // Workers alive: at most the workers kept (pools and parked) + the coordinator, once replaced
      // workers have closed.
      const first = countWorkers(page, fakeExtraWorkers);
      let settled = first;
      const settleDeadline = Date.now() + SETTLE_LIMIT_MS;
      while (settled.total > kept + 1 && Date.now() < settleDeadline) {
        await page.waitForTimeout(100);
        settled = countWorkers(page, fakeExtraWorkers);
      }
      if (settled.total > kept + 1) {
        fail(`${where(k)}: ${describeCounts(settled)} workers alive ${SETTLE_LIMIT_MS / 1000} s after the run; the engine keeps ${pool} + ${parked} parked + 1 coordinator`);
      }
      if (live + fakeExtraWorkers > kept) fail(`${where(k)}: the engine counts ${live + fakeExtraWorkers} workers alive for ${pool} kept and ${parked} parked`);
      if (settled.coordinator !== 1) fail(`${where(k)}: ${settled.coordinator} coordinators alive`);
      const worker = page.workers().find((w) => w.url().endsWith('/coordinator.js'));
      coordinator ??= worker;
      if (worker !== coordinator) fail(`${where(k)}: the coordinator is not the one of the first run`);

      const heaps = await jsHeap();
      const record = {
        run: i,
        step: i % quarter,
        chapter: chapter.slug,
        k,
        runMs,
        live,
        pool,
        parked,
        heapBytes: Number(figures.heap),
        memoryBytes: Number(figures.memory),
        jsHeapBytes: heaps.v8 + heaps.blink,
        v8HeapBytes: heaps.v8,
        blinkHeapBytes: heaps.blink,
        appMemoryBytes: await appMemoryBytes(),
        workersFirst: first.total,
        workersSettled: settled.total,
      };
      records.push(record);
      if (i % 10 === 0 || i === runs - 1) {
        log(
          `run ${i + 1}/${runs} ${chapter.slug} k=${k}: ${runMs} ms, workers ${first.total}->${settled.total} ` +
            `(pool ${pool}, live ${live}), engine heap ${mib(record.heapBytes)}, wasm memory ${mib(record.memoryBytes)}, ` +
            `JS heap ${mb(record.jsHeapBytes)}, UI memory ${mib(record.appMemoryBytes)}`,
        );
      }
    }

    // Leave the chapter, in the page, and wait for every worker but the coordinator to end.
    const leftAt = Date.now();
    await page.locator('a.site-name').click();
    await page.waitForURL((url) => !url.pathname.includes('/chapters/'));
    let alive = countWorkers(page, fakeExtraWorkers);
    while (alive.total > 1 && Date.now() - leftAt < RELEASE_LIMIT_MS) {
      await page.waitForTimeout(100);
      alive = countWorkers(page, fakeExtraWorkers);
    }
    const releasedMs = alive.total <= 1 ? Date.now() - leftAt : null;
    if (releasedMs === null) fail(`${RELEASE_LIMIT_MS / 1000} s after leaving the chapter, ${describeCounts(alive)} workers are alive`);
    else if (alive.total === 1 && alive.coordinator !== 1) fail(`after leaving the chapter the one worker left is not the coordinator`);

    // Still the page (and engine) the soak started with.
    if ((await page.evaluate(() => window.__soakPage)) !== 'still the same page') fail('the page was reloaded during the soak');
    if (page.problems.length > 0) fail(`page errors: ${page.problems.join(' | ')}`);

    // Flat after warm-up: the last quarter against the quarter after warm-up (the same steps).
    const compared = compareQuarters(records, { runs, quarter, bounds });
    compared.violations.forEach(fail);
    const flat = compared.flat;

    const summary = {
      runs,
      finished: records.length,
      seconds: Math.round((Date.now() - started) / 1000),
      tolerances: bounds,
      firstRun: records[0],
      lastRun: records.at(-1),
      flat,
      bytesPerKeptWorker: compared.bytesPerKeptWorker,
      maxWorkersSeen: Math.max(0, ...records.map((r) => r.workersFirst)),
      maxWorkersSettled: Math.max(0, ...records.map((r) => r.workersSettled)),
      peakWorkersAlive: peakAlive,
      maxPool: Math.max(0, ...records.map((r) => r.pool)),
      medianRunMs: records.map((r) => r.runMs).sort((a, b) => a - b)[Math.floor(records.length / 2)] ?? null,
      unchangedStatuses,
      releasedMs,
      violations,
      records,
    };
    log(report(summary));
    if (process.env.SOAK_RECORDS) {
      fs.writeFileSync(process.env.SOAK_RECORDS, `${JSON.stringify(summary, null, 1)}\n`);
      log(`every run's figures written to ${process.env.SOAK_RECORDS}`);
    }
    assert.deepEqual(violations, [], `soak: ${violations.length} bound(s) broken:\n${violations.join('\n')}`);
    return summary;
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The engine's heap (and so its wasm memory) holds each worker it keeps: its stack and thread-local
 * storage, about 2 MiB. How many it keeps is not fixed: a new pool waits at most 0.3 s for the
 * workers of the pool it replaces to park (web/workers.rs), and on a busy machine some park late,
 * so the pool starts new ones and the engine keeps a few more workers from then on (at most 64
 * parked, all ended 15 s after the last run: both checked by the soak). Those are not leaks. So the
 * heap is compared per worker kept: its bytes per kept worker are fitted over the soak's runs
 * (least squares of the heap on the workers alive; the first quarter moves from 1 to 16), and
 * the heap compared is the heap less that much per worker alive. The wasm memory never shrinks:
 * it may grow by that much per worker beyond the most kept by the end of the quarter after warm-up.
 *
 * Returns `{ flat, violations, bytesPerKeptWorker }`.
 */
export function compareQuarters(records, { runs, quarter, bounds = TOLERANCES }) {
  const violations = [];
  const flat = {};
  const bytesPerKeptWorker = fitPerWorker(records);
  const warm = records.filter((r) => r.run >= quarter && r.run < 2 * quarter);
  const last = records.filter((r) => r.run >= runs - quarter);
  const mostKeptBy = (run) => Math.max(0, ...records.filter((r) => r.run <= run).map((r) => r.live));
  const keptAfterWarmUp = mostKeptBy(2 * quarter - 1);
  const workerBytes = {
    heapBytes: (r) => bytesPerKeptWorker * r.live,
    memoryBytes: (r) => bytesPerKeptWorker * Math.max(0, mostKeptBy(r.run) - keptAfterWarmUp),
  };
  for (const [key, tolerance] of Object.entries(bounds)) {
    if (warm.length === 0 || last.length === 0) {
      violations.push(`${key}: no finished runs to compare`);
      continue;
    }
    const value = (r) => r[key] - (workerBytes[key]?.(r) ?? 0);
    const base = mean(warm.map(value));
    const end = mean(last.map(value));
    const allowed = allowedGrowth(base, tolerance);
    // The same step in both quarters: how much each run in between added, on average.
    const perRun = warm.flatMap((w) => last.filter((l) => l.step === w.step).map((l) => (value(l) - value(w)) / (l.run - w.run)));
    flat[key] = {
      afterWarmUp: Math.round(base),
      end: Math.round(end),
      growth: Math.round(end - base),
      allowed: Math.round(allowed),
      perRun: perRun.length ? Math.round(mean(perRun)) : null,
    };
    if (end - base > allowed) {
      const per = workerBytes[key] ? `, less ${mib(bytesPerKeptWorker)} per worker kept` : '';
      violations.push(
        `${key}${per}: the last quarter's average is ${Math.round(end)} bytes against ${Math.round(base)} after warm-up ` +
          `(+${Math.round(end - base)}, about ${flat[key].perRun} per run), more than the ${Math.round(allowed)} allowed`,
      );
    }
  }
  return { flat, violations, bytesPerKeptWorker };
}

/** Bytes of engine heap per worker kept: the least-squares slope of the heap on the workers alive (0 if they never changed). */
export function fitPerWorker(records) {
  if (records.length < 2) return 0;
  const mx = mean(records.map((r) => r.live));
  const my = mean(records.map((r) => r.heapBytes));
  let sxx = 0;
  let sxy = 0;
  for (const r of records) {
    sxx += (r.live - mx) ** 2;
    sxy += (r.live - mx) * (r.heapBytes - my);
  }
  return sxx > 0 ? Math.max(0, sxy / sxx) : 0;
}

/** The summary as one line of figures. */
export function report(s) {
  const first = s.firstRun ?? {};
  const last = s.lastRun ?? {};
  const flat = (key, unit) => {
    const x = s.flat[key];
    if (!x) return 'not compared';
    const sign = x.growth >= 0 ? '+' : '';
    return `quarter averages ${unit(x.afterWarmUp)} -> ${unit(x.end)} (${sign}${unit(x.growth)}, ${x.perRun ?? '?'} B/run; allowed +${unit(x.allowed)})`;
  };
  const figure = (key, unit) => `${unit(first[key] ?? 0)} at run 1, ${unit(last[key] ?? 0)} at the end, ${flat(key, unit)}`;
  return (
    `${s.finished}/${s.runs} runs finished in ${s.seconds} s (median run ${s.medianRunMs} ms); ` +
    `engine heap ${figure('heapBytes', mib)}; ` +
    `engine wasm memory ${figure('memoryBytes', mib)}; ` +
    `JS heap ${figure('jsHeapBytes', mb)}; ` +
    `UI wasm memory ${figure('appMemoryBytes', mib)}; ` +
    `${mib(s.bytesPerKeptWorker ?? 0)} of engine heap per worker kept (compared less that); ` +
    `workers after a run at most ${s.maxWorkersSeen} (settled ${s.maxWorkersSettled}; largest pool ${s.maxPool} + coordinator), ` +
    `peak at any moment ${s.peakWorkersAlive}; ` +
    `only the coordinator left ${s.releasedMs === null ? 'NOT within 30 s' : `${(s.releasedMs / 1000).toFixed(1)} s`} after leaving the chapter; ` +
    `${s.violations.length} violation(s)`
  );
}

/** The engine figures a panel shows after its last run (absent before its first). */
async function engineFigures(panel) {
  return panel.getByTestId('engine-workers').evaluate((p) => ({
    live: p.dataset.live,
    pool: p.dataset.pool,
    parked: p.dataset.parked,
    heap: p.dataset.heapBytes,
    memory: p.dataset.memoryBytes,
  }));
}

const figuresKey = (f) => `${f.live}/${f.pool}/${f.parked}/${f.heap}/${f.memory}`;

/** Go to `chapter` by clicking links, never reloading: through the home page or the chapter menu. */
async function goToChapter(page, chapter, visit) {
  const link = `a[href$="/chapters/${chapter.slug}"]`;
  if (visit % 2 === 0) {
    await page.locator('a.site-name').click();
    await page.waitForURL((url) => !url.pathname.includes('/chapters/'));
    await page.locator(`main ${link}`).first().click();
  } else {
    await openFromChapterMenu(page, chapter.slug);
  }
  await page.waitForURL((url) => url.pathname.endsWith(`/chapters/${chapter.slug}`));
  const panel = page.locator(`section[data-experiment="${chapter.experiment}"]`);
  await panel.waitFor();
  for (const [label, value] of Object.entries(chapter.controls)) {
    const control = panel.getByLabel(label, { exact: true });
    if (value === 'check') {
      await control.check();
    } else {
      await control.fill(String(value));
      await control.press('Tab');
      assert.equal(await control.inputValue(), String(value), `${chapter.slug}: ${label}`);
    }
  }
  return panel;
}

/**
 * Wait for the panel to count more than `before` runs ended, and return how the last one ended.
 * (Not lib.mjs's waitForOutcome: it takes an ElementHandle it never disposes, which keeps each
 * chapter's DOM alive after leaving it, ~200 kB a visit in the JS heap figures.)
 */
async function waitForRunEnd(page, chapter, before) {
  const selector = `section[data-experiment="${chapter.experiment}"] [data-testid="outcome"]`;
  await page.waitForFunction(
    ([sel, count]) => Number(document.querySelector(sel)?.dataset.runsEnded) > count,
    [selector, before],
    { timeout: RUN_TIMEOUT_MS, polling: 50 },
  );
  return page.locator(selector).getAttribute('data-outcome');
}

/** Set the Workers control to `k` (capped by its maximum); returns the value it took. */
async function setWorkers(panel, k) {
  const control = panel.getByLabel('Workers', { exact: true });
  const max = Number(await control.getAttribute('max'));
  const value = String(Math.min(k, max));
  await control.fill(value);
  assert.equal(await control.inputValue(), value, 'the Workers control took the value');
  return Number(value);
}

// As a script: node soak.mjs [runs]. Prints the one-line report on stdout; exits 1 on a broken bound.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.argv[2] ?? 300);
  soak({ runs }).then(
    (summary) => console.log(`soak: ${report(summary)}`),
    (error) => {
      console.error(`soak: FAILED: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
