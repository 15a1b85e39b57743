// The browser half of `cargo xtask bench`: the kernels measured by the engine in headless Chromium
// (Sum, hashing, task spawn and switch costs, blocking reads, a server under load), worker-pool
// start-up, paint timings and the longest main-thread task during a run of the real UI, and the time
// to a working Run over an emulated slow link (cold and warm) with the longest task while navigating.
// Prints one `browser.<key>=<value>` line per figure on stdout (everything else goes to stderr), e.g.
//   browser.sequential_ms=2.9
//   browser.hash_jobs=[{"workload":{"hash":{"source":…,"slice_bytes":…}},…}]
// Usage: SITE_DIR="$PWD/../dist" node bench.mjs   (an absolute path: the test server wants one)
//
// The kernels are timed by talking to the engine's coordinator worker directly, with the same JSON
// messages the UI sends (experiments::protocol), so the numbers are the engine's own samples and not
// figures read back from the page. Those messages, and the jobs in them, are in serde's externally
// tagged form: a variant is an object of one key, its name (`{"run":{"run_id":1,"jobs":[…]}}`,
// `{"measured":{"run_id":1,"job_index":0,"measurement":…}}`, a workload `{"sum":{"numbers":…}}`),
// or its name alone when it carries nothing (the workload `"task_memory"`): see `variantOf`.
// The jobs are the ones `cargo xtask bench` hands over in BENCH_PLAN:
// `lab sum --workers 1,2 --tasks 2 …` and then `--tasks 8`, each with its own sequential baseline;
// then the jobs `lab hash`, `lab cost`, `lab docsearch` and `lab qps` just measured natively. Each of
// those kernels also prints the jobs the engine measured (`<kernel>_jobs`, JSON), so that xtask can
// check that both sides measured the same ones.
// A fresh engine first does one untimed pass of the same jobs (the Sum jobs with two repetitions,
// every other kernel's jobs with one): V8 compiles wasm in tiers, and on a two-core machine its
// optimising compiler competes with the workers for the first second or so (without that pass the
// first repetitions of SHA-256 took about 1.5 times as long as the later ones). That pass is where
// pool start-up is read, because it is what a reader waits for on a first run.
// Last, the engine built without shared memory (what a course page that is not isolated gets) times
// the sum and the hashes again on message-passing workers (`nomem_*` figures): copying included.
//
// First runs (`first_runs`, JSON): what a reader sees on a fresh page. For each case, FIRST_RUN_PAGES
// fresh pages each do the case's first action (an autorun, or a click on Sweep or Run as soon as the
// panel is there), then the same action again on the same page, warm, twice (the second warm run
// measures how much two warm runs differ: the noise of the comparison). The speedups come from the
// engine's own measurements (the messages the page receives) and xtask prints the median cold speedup
// beside the median warm one, how many pages' first runs showed a warning on a row whose workers fit
// the cores, and how much CPU ran outside the browser and this script meanwhile (`/proc`), which
// tells an idle machine from a busy one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CHAPTER_FIRST_EXPERIMENTS, ENGINE, ENGINE_SINGLE, launch, newPage, openFromChapterMenu, serve, waitForOutcome } from './lib.mjs';
import { startServer } from './server.mjs';

/** The deployable site (`cargo xtask dist`), which the slow link serves as a static host would. */
const DEPLOYED_SITE_DIR = process.env.DEPLOYED_SITE_DIR || path.resolve(import.meta.dirname, '../target/site');

/**
 * What to measure, from `cargo xtask bench` (the BENCH_PLAN environment variable, JSON): the Sum
 * runs by task count, built with the same catalog builder as `lab sum`, and every other kernel's
 * jobs exactly as `lab` measured them natively a moment before. One definition for both sides.
 * Without it only `BENCH_ONLY=first_runs` works (the first runs use the chapters' own presets).
 */
const PLAN = process.env.BENCH_PLAN ? JSON.parse(process.env.BENCH_PLAN) : null;
/** What the plan holds under `key`; without a plan, say how to get one. */
function planned(key) {
  if (!PLAN) throw new Error('run through `cargo xtask bench`, which sets BENCH_PLAN (or set BENCH_ONLY=first_runs)');
  const value = PLAN[key];
  if (!value) throw new Error(`BENCH_PLAN has no "${key}"`);
  return value;
}
/** Task counts of the Sum runs, in order. */
const taskCounts = () => Object.keys(planned('sum')).map(Number).sort((a, b) => a - b);
/** A blank page served with the isolation headers, so nothing but the engine competes for the CPU. */
const BLANK_PAGE = '/__bench/blank.html';
const ENGINE_TIMEOUT_MS = 300_000;
/** Repetitions of the Sum jobs in the untimed first pass, and the pause after that pass (V8 compiles). */
const WARM_UP_REPETITIONS = 2;
const SETTLE_MS = 500;

const log = (message) => process.stderr.write(`bench.mjs: ${message}\n`);

/** Fresh pages per first-run case; the report takes the median over them and counts the flags. */
const FIRST_RUN_PAGES = Number(process.env.FIRST_RUN_PAGES || 10);
/** Pause before the warm repeat of a first-run case, so its own last results have been drawn. */
const WARM_AFTER_MS = 1_500;
/**
 * The first-run cases: a chapter address, the button its first action presses (none: the address
 * autoruns), and which measurements are compared: their speedup over the run's baseline job.
 */
const FIRST_RUN_CASES = [
  // The chapter's own default of 10,000,000 numbers. `native`: the same jobs for `lab` (its twin,
  // measured by the same harness on OS threads and judged by the same rules, once before each page).
  { name: 'sum, 2 tasks, first autorun', path: '/chapters/sum?workers=2&tasks=2&reps=5&autorun=1', native: ['sum', '--workers', '2', '--tasks', '2', '--reps', '5'] },
  { name: 'sum, 8 tasks, first autorun', path: '/chapters/sum?workers=2&tasks=8&reps=5&autorun=1', native: ['sum', '--workers', '2', '--tasks', '8', '--reps', '5'] },
  { name: 'sum, 2 tasks, first sweep', path: '/chapters/sum?tasks=2&reps=5', button: 'Sweep workers', native: ['sum', '--workers', '1,2,4,8,16', '--tasks', '2', '--reps', '5'] },
  { name: 'sum, 8 tasks, first sweep', path: '/chapters/sum?tasks=8&reps=5', button: 'Sweep workers', native: ['sum', '--workers', '1,2,4,8,16', '--tasks', '8', '--reps', '5'] },
  { name: 'sorts, first sweep', path: '/chapters/bubble-sort?tasks=4&n=5000&reps=3', button: 'Sweep workers', native: ['sort', '--n', '5000', '--tasks', '4', '--workers', '1,2,4,8,16', '--reps', '3'] },
  ...[1, 2, 4].map((k) => ({
    name: `hashing, ${k} worker${k > 1 ? 's' : ''}, first autorun`,
    path: `/chapters/hashing?source=generated&mb=16&hashes=4&workers=${k}&reps=2&autorun=1`,
    native: ['hash', '--mb', '16', '--hashes', '4', '--workers', String(k), '--reps', '2'],
  })),
  // The CPU-bound line of CPU vs IO: its sweep of task counts on 2 workers, compared at 2 tasks
  // (`tasks`: only that point of the sweep is keyed). Natively `lab docsearch` also measures threads.
  {
    name: 'CPU vs IO, CPU-bound, first sweep',
    path: '/chapters/cpu-vs-io?kind=cpu&workers=2&reps=3',
    button: 'Sweep tasks',
    tasks: 2,
    native: ['docsearch', '--latency-ms', '0', '--docs', '1000', '--workers', '2', '--tasks', '1,2,4,8,16,32,64', '--reps', '3'],
  },
];
/** Workers whose speedups the report compares. */
const FIRST_RUN_WORKERS = [1, 2, 4];

/**
 * The name and the fields of an externally tagged serde variant: `{"sum": {...}}` is `['sum', {...}]`,
 * a variant without fields (`"task_memory"`) is `['task_memory', {}]`, anything else `[undefined, {}]`.
 */
function variantOf(value) {
  if (typeof value === 'string') return [value, {}];
  const entries = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  return entries.length === 1 ? [entries[0][0], entries[0][1] ?? {}] : [undefined, {}];
}

/** A job's workload kind (`sum`, `hash`, `sort`, …) and its fields. */
const workloadOf = (job) => variantOf(job.workload);

/** Before any script of the page: keep every measurement the engine posts to it. */
function recordMeasurements() {
  window.__measured = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ({ data }) => {
        try {
          // Only a Response::Measured is an object whose one key is `measured` (see variantOf, which
          // this script, run in the page, cannot call).
          const message = typeof data === 'string' ? JSON.parse(data) : data;
          const measured = message && typeof message === 'object' ? message.measured : undefined;
          if (measured && Object.keys(message).length === 1) window.__measured.push(measured.measurement);
        } catch {
          // not a JSON message of the engine
        }
      });
    }
  };
}

/**
 * Jobs of one worker shorter than this (median, ms) are not compared: at that size a job's time is
 * mostly starting and joining its tasks, and it differs more from page to page than any first-run
 * effect could (a merge sort of 5,000 numbers takes about 0.1 ms).
 */
const FIRST_RUN_SHORTEST_MS = 1;

/**
 * Speedups of one run's measurements, keyed `<what>@<workers>`. The sum and the hashes: each job's
 * median against the run's sequential job. The sorts: each algorithm against itself on one worker
 * (the chapter's "speedup over itself" chart), since against the bubble sort a fast sort's ratio is
 * hundreds and says nothing about its workers. A comparison whose one-worker job is shorter than
 * FIRST_RUN_SHORTEST_MS is keyed `<what>@<workers>` with the value `null`.
 *
 * `shown` holds the page's rows of this run, one per measurement in the same order (`warned`: the row
 * carries a warning; `varies`: a note that another run may differ a lot): `flags[key]` says whether
 * the page flagged either row a speedup is made of, in either way.
 */
function speedupsOf(measurements, shown, tasks) {
  const baseline = measurements.find((m) => m.job.variant === 'sequential');
  if (!baseline) throw new Error('a run without its baseline job');
  const speedups = {};
  const flags = {};
  // Told: the row carries a warning, or a note that another run may measure something quite different.
  const told = (m) => {
    const row = shown[measurements.indexOf(m)];
    return Boolean(row?.warned || row?.varies);
  };
  for (const m of measurements) {
    if (m.job.variant === 'sequential' || !FIRST_RUN_WORKERS.includes(m.job.workers)) continue;
    if (tasks !== undefined && m.job.tasks !== tasks) continue;
    const [kind, workload] = workloadOf(m.job);
    const sort = kind === 'sort';
    const what = sort ? workload.algorithm : m.job.variant;
    const isBase = (o) => {
      const [otherKind, other] = workloadOf(o.job);
      return otherKind === 'sort' && other.algorithm === what && o.job.workers === 1;
    };
    const base = sort ? measurements.find(isBase) : baseline;
    if (!base || (sort && m.job.workers === 1)) continue;
    const key = `${what}@${m.job.workers}`;
    speedups[key] = base.summary.median_ms < FIRST_RUN_SHORTEST_MS ? null : base.summary.median_ms / m.summary.median_ms;
    flags[key] = told(m) || told(base);
  }
  return { speedups, flags };
}

/**
 * The rows the page shows for its latest `count` measurements: what each says (speedup, workers) and
 * whether it carries a warning or any note. Also: how many show a speedup above what the workers that
 * can run at once could give (CPU-bound work: the least of workers, tasks and logical processors)
 * without a note.
 */
async function shownRows(panel, count) {
  return panel.locator('table.results tr[data-variant]').evaluateAll((rows, n) => {
    const cores = navigator.hardwareConcurrency || 1;
    return rows.slice(-n).map((tr) => ({
      kind: tr.dataset.variant,
      workers: Number(tr.dataset.workers),
      speedup: tr.dataset.speedup === '' ? null : Number(tr.dataset.speedup),
      warned: Number(tr.dataset.doubts) > 0,
      varies: tr.dataset.varies === 'true',
      noted: Number(tr.dataset.notes) > 0,
      // The row's one-line note, as the page shows it (for the log of a warned page).
      note: tr.nextElementSibling?.classList.contains('row-note')
        ? (tr.nextElementSibling.querySelector('summary') ?? tr.nextElementSibling).textContent.trim()
        : '',
      cores,
    }));
  }, count);
}

/**
 * CPU time so far (seconds): the machine's, busy in any way (`/proc/stat`: user, nice, system, irq,
 * softirq, and steal, which the host gave to another machine), each Chromium process's (by pid), and
 * this script's own (which serves the site). `null` where `/proc` is not there.
 */
function cpuSeconds() {
  try {
    const tick = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)
    const [user, nice, system, , , irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const browser = new Map();
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (!/^(chromium|chrome)/.test(name)) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        browser.set(pid, (Number(fields[11]) + Number(fields[12])) / tick); // utime, stime
      } catch {
        // a process that ended meanwhile
      }
    }
    const own = process.cpuUsage();
    return {
      machine: (user + nice + system + irq + softirq + steal) / tick,
      steal: steal / tick,
      browser,
      bench: (own.user + own.system) / 1e6,
      at: performance.now() / 1000,
    };
  } catch {
    return null;
  }
}

/**
 * The CPU used outside the browser and this script over pairs of `cpuSeconds` readings (`spans`:
 * `[before, after]`, each `after` taken while the page it measures is still open), as a share of
 * one core over their time (0.25: a quarter of a core on average), and the share the host stole.
 * The browser's part is counted per process alive at `after` (one born meanwhile from 0): a
 * process that ended meanwhile takes its CPU time with it, and subtracting its earlier total would
 * count the last page's renderer, closing, as time spent outside. `null` without `/proc`.
 */
function cpuOutside(spans) {
  let wall = 0;
  let outside = 0;
  let steal = 0;
  for (const [before, after] of spans) {
    if (!before || !after) return null;
    wall += after.at - before.at;
    let browser = 0;
    for (const [pid, seconds] of after.browser) browser += seconds - (before.browser.get(pid) ?? 0);
    outside += after.machine - before.machine - browser - (after.bench - before.bench);
    steal += after.steal - before.steal;
  }
  return wall > 0 ? { outside: Math.max(0, outside) / wall, steal: steal / wall } : null;
}

/** The native `lab` (xtask passes its path; else the release build's, if there is one). */
const LAB = process.env.BENCH_LAB || path.resolve('..', 'target', 'release', 'lab');

/**
 * How steady the machine itself is, measured outside the browser: the native one-worker Sum (`lab
 * sum`, 10,000,000 numbers, 5 repetitions of at least 100 ms each, like the page's), as the widest
 * max ÷ min of its jobs' repetitions. A host that shares its memory bandwidth or caches with other
 * machines can slow a memory-bound loop for hundreds of milliseconds with no CPU time visible here
 * (measured on a 2-core VM: the page's one-worker Sum went from 2.4 ms to 3.5–4.0 ms a pass for
 * minutes, then back, with nothing running beside it). `null` without a `lab` binary.
 */
function nativeSpread() {
  if (!fs.existsSync(LAB)) return null;
  try {
    const report = JSON.parse(execFileSync(LAB, ['sum', '--workers', '1', '--tasks', '1', '--reps', '5', '--json'], { encoding: 'utf8' }));
    return Math.max(...report.results.map(({ measurement: { summary } }) => summary.max_ms / summary.min_ms));
  } catch (error) {
    log(`the native steadiness check failed: ${error.message}`);
    return null;
  }
}

/**
 * Whether one native run of `args` (`lab <args> --json`) warned on a row whose workers fit the
 * cores: what the page counts on its own rows, from the same harness and rules on OS threads, with
 * no browser in the way. The bench runs it once before each fresh page of a case, so the two see
 * the same minutes of the machine; if the native twin warns as often as the page, the warnings are
 * the machine's, not the lab's. `null` without a `lab` binary.
 */
function nativeTwinWarned(args) {
  if (!fs.existsSync(LAB) || !args) return null;
  try {
    const report = JSON.parse(execFileSync(LAB, [...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));
    const cores = report.machine.logical_cpus;
    const warned = report.results.filter(({ measurement, warnings }) => measurement.job.workers <= cores && warnings.length > 0);
    for (const { benchmark, warnings } of warned) log(`    natively: ${benchmark}: ${warnings.map((w) => JSON.stringify(w)).join(', ')}`);
    return warned.length > 0;
  } catch (error) {
    log(`the native twin ${args.join(' ')} failed: ${error.message}`);
    return null;
  }
}

/**
 * Every first-run case on fresh pages: `[{case, key, cold: [...], warm: [...], again: [...],
 * cold_flagged: [...], above_cores_unnoted, too_short, pages_warned: [...], cpu_outside, cpu_stolen}]`
 * (`pages_warned`: per page, whether its first run showed a warning on a row whose workers fit the
 * cores; `cpu_outside`, `cpu_stolen`: see cpuOutside, over the whole case; `native_spread`: the
 * wider of nativeSpread's two readings, before and after the case; `again`: a second warm run of the same page;
 * `cold_flagged`: whether the page flagged each cold result; `above_cores_unnoted`: cold rows of work
 * that only computes whose speedup was above its workers' reach with no note; `too_short`: the
 * one-worker job was under FIRST_RUN_SHORTEST_MS on every page, nothing compared; `native_warned`:
 * per page, whether the case's native twin, run just before it, warned (see nativeTwinWarned)).
 */
async function measureFirstRuns(browser, server) {
  const results = [];
  // `FIRST_RUN_CASE=sorts` measures only the cases whose name holds it (for working on one case).
  const only = process.env.FIRST_RUN_CASE;
  for (const firstRun of FIRST_RUN_CASES.filter((c) => !only || c.name.includes(only))) {
    const byKey = {};
    let aboveCoresUnnoted = 0;
    // Per fresh page: whether its first run showed a warning (⚠) on a row whose workers fit the
    // cores (the issue's target: at most 1 page in 10 on an idle machine).
    const pagesWarned = [];
    const nativeWarned = [];
    const cpuSpans = [];
    const steadyBefore = nativeSpread();
    for (let sample = 0; sample < FIRST_RUN_PAGES; sample++) {
      log(`  page ${sample + 1}:`);
      nativeWarned.push(nativeTwinWarned(firstRun.native));
      const cpuBefore = cpuSeconds();
      const page = await newPage(browser);
      try {
        await page.addInitScript(recordMeasurements);
        await page.goto(server.url + firstRun.path);
        const panel = page.locator('section[data-experiment]').first();
        await panel.waitFor();
        // Press `button` (none: the page's autorun), wait for run number `runsBefore + 1` to end and
        // read its speedups, and what the page shows of them.
        const act = async (button, runsBefore) => {
          if (button) {
            await page.evaluate(() => { window.__measured = []; });
            await panel.getByRole('button', { name: button, exact: true }).click();
          }
          const outcome = await waitForOutcome(panel, ENGINE_TIMEOUT_MS, runsBefore);
          if (outcome !== 'finished') {
            const said = await panel.getByTestId('outcome').innerText().catch(() => '');
            // The engine's own words (folded on the page, for a bug report): what crashed, and where.
            const detail = await panel.locator('[data-testid="failure-detail"] code').textContent({ timeout: 1_000 }).catch(() => '');
            throw new Error(
              `${firstRun.name}: the run ended "${outcome}": ${said}; the engine's detail: ${detail || 'none'}; ` +
                `page errors: ${page.problems.join('; ') || 'none'}`,
            );
          }
          const measured = await page.evaluate(() => window.__measured);
          const shown = await shownRows(panel, measured.length);
          return { ...speedupsOf(measured, shown, firstRun.tasks), shown, measured };
        };
        // A button is pressed as soon as the panel is there; an autorun starts by itself.
        const cold = await act(firstRun.button, 0);
        const warnedRows = cold.shown.filter((row) => row.warned && row.workers <= row.cores);
        pagesWarned.push(warnedRows.length > 0);
        for (const row of warnedRows) log(`  page ${sample + 1}: ${row.kind} on ${row.workers}: ${row.note}`);
        for (const [index, row] of cold.shown.entries()) {
          const job = cold.measured[index]?.job;
          const cpuBound = job && ['sum', 'hash'].includes(workloadOf(job)[0]) && job.variant !== 'sequential';
          if (!cpuBound || row.speedup === null || row.noted) continue;
          // As the page shows it (two decimals): 2.003 reads "2.00×", the ceiling itself.
          if (Number(row.speedup.toFixed(2)) > Math.min(job.workers, job.tasks, row.cores)) aboveCoresUnnoted += 1;
        }
        await page.waitForTimeout(WARM_AFTER_MS);
        const warm = await act(firstRun.button ?? 'Run', 1);
        // A third run, warm again: how far two warm runs of one page differ is the noise any
        // cold-against-warm difference has to be read against.
        await page.waitForTimeout(WARM_AFTER_MS);
        const again = await act(firstRun.button ?? 'Run', 2);
        for (const [key, value] of Object.entries(cold.speedups)) {
          byKey[key] ||= { cold: [], warm: [], again: [], coldFlagged: [], tooShort: false };
          if (value === null || warm.speedups[key] === null) {
            byKey[key].tooShort = true;
            continue;
          }
          byKey[key].cold.push(value);
          byKey[key].coldFlagged.push(Boolean(cold.flags[key]));
          if (warm.speedups[key] !== undefined) byKey[key].warm.push(warm.speedups[key]);
          if (again.speedups[key] !== undefined && again.speedups[key] !== null) byKey[key].again.push(again.speedups[key]);
        }
        if (page.problems.length) throw new Error(`${firstRun.name}: the page reported errors: ${page.problems.join('; ')}`);
      } finally {
        cpuSpans.push([cpuBefore, cpuSeconds()]);
        await page.context().close();
      }
    }
    const cpu = cpuOutside(cpuSpans);
    const steadyAfter = nativeSpread();
    const nativeSpreads = [steadyBefore, steadyAfter].filter((x) => x !== null);
    for (const [key, { cold, warm, again, coldFlagged, tooShort }] of Object.entries(byKey)) {
      results.push({
        pages_warned: pagesWarned,
        cpu_outside: cpu?.outside ?? null,
        cpu_stolen: cpu?.steal ?? null,
        native_spread: nativeSpreads.length ? Math.max(...nativeSpreads) : null,
        native_warned: nativeWarned,
        case: firstRun.name,
        key,
        cold,
        warm,
        again,
        cold_flagged: coldFlagged,
        above_cores_unnoted: aboveCoresUnnoted,
        too_short: tooShort && cold.length === 0,
      });
    }
    log(
      `first runs: ${firstRun.name} measured on ${FIRST_RUN_PAGES} fresh pages; warned on ${pagesWarned.filter(Boolean).length}; ` +
        `its native twin, run before each page, warned on ${nativeWarned.filter((w) => w === true).length} of ${nativeWarned.filter((w) => w !== null).length}; ` +
        `CPU outside the browser ${cpu ? `${(cpu.outside * 100).toFixed(1)}% of a core (stolen ${(cpu.steal * 100).toFixed(1)}%)` : 'not read'}; ` +
        `native Sum spread before/after ${nativeSpreads.map((x) => x.toFixed(2)).join('/') || 'not measured'}`,
    );
  }
  return results;
}

/** Fresh pages on which the first autorun's pool start-up is read (`pool_start_2_first_run_ms`). */
const FIRST_RUN_POOL_PAGES = Number(process.env.FIRST_RUN_POOL_PAGES || 5);

/**
 * Pool start-up as a reader's first Run sees it: on fresh pages of the Sum chapter that autorun with
 * 2 workers, the start-up the engine reported for that run's 2-worker pool (the chapter starts the
 * engine as the panel mounts and has it start its workers then, `Request::Warm`; the run starts
 * once the page has loaded and gone idle). The median over the pages; `pool_start_2_ms` is the cold
 * start of a pool no page warmed, on a blank page.
 */
async function measureFirstRunPoolStart(browser, server) {
  const starts = [];
  for (let sample = 0; sample < FIRST_RUN_POOL_PAGES; sample++) {
    const page = await newPage(browser);
    try {
      await page.addInitScript(recordMeasurements);
      await page.goto(`${server.url}/chapters/sum?workers=2&tasks=8&n=100000&reps=1&autorun=1`);
      const panel = page.locator('section[data-experiment]').first();
      const outcome = await waitForOutcome(panel, ENGINE_TIMEOUT_MS, 0);
      if (outcome !== 'finished') throw new Error(`the first run's pool start: the autorun ended "${outcome}"`);
      const measured = await page.evaluate(() => window.__measured);
      const start = measured.find((m) => m.pool_start_ms != null)?.pool_start_ms;
      if (start === undefined) throw new Error('the first autorun reported no pool start-up');
      starts.push(start);
    } finally {
      await page.context().close();
    }
  }
  starts.sort((a, b) => a - b);
  log(`first runs' 2-worker pool start-up on ${starts.length} fresh pages, ms: ${starts.map((ms) => ms.toFixed(1)).join(', ')}`);
  emit('pool_start_2_first_run_ms', starts[Math.floor((starts.length - 1) / 2)]);
}

/** Print one machine-readable figure; numbers keep at most three decimals. */
function emit(key, value) {
  if (value === undefined || value === null || Number.isNaN(value)) {
    throw new Error(`could not measure ${key}`);
  }
  const text = typeof value === 'number' ? String(Number(value.toFixed(3))) : String(value).replace(/\s+/g, ' ');
  console.log(`browser.${key}=${text}`);
}

/** The jobs of one `lab sum --workers 1,2 --tasks <tasks>` run (the loop, then t tasks on each k), with `repetitions` if given. */
function sumRun(tasks, repetitions) {
  const jobs = planned('sum')[String(tasks)];
  if (!jobs) throw new Error(`BENCH_PLAN has no Sum run with ${tasks} tasks`);
  return jobs.map((job) => ({ ...job, repetitions: repetitions ?? job.repetitions }));
}

/** The kernels after Sum, in the order they run, each under the name of its `lab` subcommand. */
/**
 * The kernels after Sum, each with its jobs and the name each job's figures are reported under
 * (`<name>_ms`, and `<name>_req_s` for a server): `cargo xtask bench` writes both into BENCH_PLAN
 * (crates/xtask/src/bench/kernels.rs, `figure_name`), so the names are given, never restated here.
 */
const kernels = () => planned('kernels').map((name) => ({ name, jobs: planned(name), figures: planned('figure_names')[name] }));

/** The figure name of `job`, the `index`-th measurement of `kernel`: its planned job's. */
function figureName(kernel, index, job) {
  const expected = kernel.jobs[index];
  const same = expected && workloadOf(expected)[0] === workloadOf(job)[0] && expected.variant === job.variant && expected.workers === job.workers;
  if (!same) {
    throw new Error(`${kernel.name}: measurement ${index} is not of planned job ${index}: ${JSON.stringify(job)}`);
  }
  return kernel.figures[index];
}

/**
 * Print one kernel's medians (and requests per second), whether every result was right (its untimed
 * runs' too), and its jobs.
 */
function emitKernel(kernel, measurements, untimed) {
  const seen = new Set();
  for (const [index, m] of measurements.entries()) {
    const name = figureName(kernel, index, m.job);
    if (seen.has(name)) throw new Error(`two ${kernel.name} jobs are both reported as ${name}`);
    seen.add(name);
    emit(`${name}_ms`, m.summary.median_ms);
    if (workloadOf(m.job)[0] === 'qps') emit(`${name}_req_s`, m.qps?.qps);
  }
  emit(`${kernel.name}_check_ok`, [...measurements, ...untimed].every((m) => m.check.ok));
  emit(`${kernel.name}_jobs`, JSON.stringify(measurements.map((m) => m.job)));
}

/**
 * In the page: start the engine's coordinator worker, wait for `ready`, send each run in turn (run
 * `settleBefore` after a pause of `settleMs`) and collect the measurements. Returns how long the
 * engine took to be ready and every run's measurements. `labels` name the runs in error messages;
 * `coordinator` is the coordinator script's address (its folder is named after the engine's build).
 */
async function talkToEngine({ runs, labels, timeoutMs, settleMs, settleBefore, coordinator }) {
  const started = performance.now();
  const worker = new Worker(coordinator, { type: 'module', name: 'bench-engine' });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the engine did not finish within ${timeoutMs} ms`)), timeoutMs);
      const fail = (message) => {
        clearTimeout(timer);
        reject(new Error(message));
      };
      const results = runs.map(() => []);
      let readyMs;
      let current = 0;
      // experiments::protocol::Request::Run in its bytes: 0 (the variant), the run id and the job
      // count as varints, then each job's planned bytes (`wire`, written by `cargo xtask bench`)
      // and its repetitions as a varint (the layout `run_requests_have_the_layout_scripts_rely_on`
      // pins in crates/experiments/src/protocol.rs).
      const varint = (n) => {
        const out = [];
        for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
        out.push(n);
        return out;
      };
      const request = (runId, jobs) =>
        new Uint8Array([0, ...varint(runId), ...varint(jobs.length), ...jobs.flatMap((job) => [...job.wire, ...varint(job.repetitions)])]);
      const send = () => worker.postMessage(request(current + 1, runs[current]));
      worker.onerror = (event) => fail(`the engine worker failed: ${event.message || 'it could not be loaded'}`);
      worker.onmessage = ({ data }) => {
        let message;
        try {
          message = typeof data === 'string' ? JSON.parse(data) : data;
        } catch {
          fail(`the engine sent an unreadable message: ${String(data).slice(0, 200)}`);
          return;
        }
        // A Response is an object of one key, its variant's name, whose value holds its fields (this
        // runs in the page, so it does not call variantOf).
        const entries = message !== null && typeof message === 'object' && !Array.isArray(message) ? Object.entries(message) : [];
        if (entries.length !== 1) {
          fail(`the engine sent a message that is not a response: ${String(data).slice(0, 200)}`);
          return;
        }
        const [[type, fields]] = entries;
        switch (type) {
          case 'ready':
            readyMs = performance.now() - started;
            send();
            break;
          case 'measured':
            if (fields.run_id === current + 1) results[current][fields.job_index] = fields.measurement;
            break;
          case 'finished':
            current += 1;
            if (current < runs.length) {
              setTimeout(send, current === settleBefore ? settleMs : 0);
            } else {
              clearTimeout(timer);
              resolve({ readyMs, results });
            }
            break;
          case 'failed':
          case 'stopped':
          case 'crashed':
            fail(`the engine answered "${type}" during ${labels[current]}: ${fields?.failure?.detail ?? ''}`);
            break;
          default:
            // progress and status messages carry nothing the bench needs
            break;
        }
      };
    });
  } finally {
    worker.terminate();
  }
}

/** Every kernel, pool start-up and engine load time, measured by the engine itself. */
async function measureKernels(browser, server) {
  const page = await newPage(browser);
  try {
    await page.goto(server.url + BLANK_PAGE);
    if (!(await page.evaluate(() => globalThis.crossOriginIsolated === true))) {
      throw new Error(`${BLANK_PAGE} is not cross-origin isolated: does e2e/server.mjs support overrides?`);
    }
    emit('hardware_concurrency', await page.evaluate(() => navigator.hardwareConcurrency));
    const TASK_COUNTS = taskCounts();
    const KERNELS = kernels();
    const [first] = sumRun(TASK_COUNTS[0]);
    const [, sum] = workloadOf(first);
    log(`timing the Sum kernel in the engine worker (n=${sum.numbers}, ${first.repetitions} repetitions, tasks ${TASK_COUNTS})`);
    log(`then ${KERNELS.map((k) => k.name).join(', ')} (${KERNELS.reduce((n, k) => n + k.jobs.length, 0)} jobs)`);
    // Runs: the untimed pass (Sum, then every other kernel's jobs once), then Sum for each task
    // count, then each other kernel.
    const warmUp = sumRun(TASK_COUNTS[0], WARM_UP_REPETITIONS);
    const kernelsWarmUp = KERNELS.flatMap((k) => k.jobs.map((job) => ({ ...job, repetitions: 1 })));
    const untimed = [warmUp, kernelsWarmUp];
    const timed = TASK_COUNTS.map((tasks) => sumRun(tasks));
    const { readyMs, results } = await page.evaluate(talkToEngine, {
      // The engine's folder is named after its build (this runs in the page, so it is passed in).
      coordinator: `/${ENGINE}/coordinator.js`,
      runs: [...untimed, ...timed, ...KERNELS.map((k) => k.jobs)],
      labels: [
        'the untimed pass of Sum',
        'the untimed pass of the other kernels',
        ...TASK_COUNTS.map((t) => `Sum with ${t} tasks`),
        ...KERNELS.map((k) => k.name),
      ],
      timeoutMs: ENGINE_TIMEOUT_MS,
      settleMs: SETTLE_MS,
      settleBefore: untimed.length,
    });
    const complete = (measurements, jobs) => {
      if (measurements.length !== jobs.length || measurements.some((m) => !m)) {
        throw new Error(`the engine measured ${measurements.filter(Boolean).length} of ${jobs.length} jobs`);
      }
      return measurements;
    };
    emit('engine_ready_ms', readyMs);
    // The untimed pass started the engine's first pools, reported by the first job on each: the
    // loop runs on a worker of the smallest, so the 1-worker pool is the 1-worker tasks job's.
    const cold = complete(results[0], warmUp);
    const startOf = (workers) => cold.find((m) => m.job.variant === 'tasks' && m.job.workers === workers)?.pool_start_ms;
    emit('pool_start_1_ms', startOf(1));
    emit('pool_start_2_ms', startOf(2));
    let allCorrect = cold.every((m) => m.check.ok);
    const kernelsCold = complete(results[1], kernelsWarmUp);
    TASK_COUNTS.forEach((tasks, run) => {
      const [sequential, ...withTasks] = complete(results[untimed.length + run], timed[run]);
      if (run === 0) {
        emit('sequential_ms', sequential.summary.median_ms);
        emit('sequential_min_ms', sequential.summary.min_ms);
      } else {
        emit(`sequential_run${run + 1}_ms`, sequential.summary.median_ms);
      }
      for (const m of withTasks) {
        emit(`tasks${tasks}_workers${m.job.workers}_ms`, m.summary.median_ms);
      }
      allCorrect &&= [sequential, ...withTasks].every((m) => m.check.ok);
    });
    emit('check_ok', allCorrect);
    let coldFrom = 0;
    KERNELS.forEach((kernel, index) => {
      const measurements = complete(results[untimed.length + timed.length + index], kernel.jobs);
      emitKernel(kernel, measurements, kernelsCold.slice(coldFrom, coldFrom + kernel.jobs.length));
      coldFrom += kernel.jobs.length;
    });
  } finally {
    await page.context().close();
  }
}

/**
 * The engine without shared memory, on a page that is not isolated: the sum (8 tasks) and the hashes
 * as a loop and on 2 message-passing workers, after an untimed pass of the same jobs.
 */
async function measureWithoutSharedMemory(browser) {
  const plain = await serve('none', { overrides: { [BLANK_PAGE]: '<!doctype html><meta charset="utf-8"><title>engine bench</title>' } });
  const page = await newPage(browser);
  try {
    await page.goto(plain.url + BLANK_PAGE);
    if (await page.evaluate(() => globalThis.crossOriginIsolated === true)) throw new Error('the plain page is isolated');
    log('timing the sum and the hashes on message-passing workers (no shared memory)');
    const [sumLoop, , sumTasks] = sumRun(8);
    const [hashLoop, hashTasks] = planned('hash');
    const jobs = [sumLoop, sumTasks, hashLoop, hashTasks];
    const { results } = await page.evaluate(talkToEngine, {
      runs: [jobs.map((job) => ({ ...job, repetitions: 1 })), jobs],
      labels: ['the untimed pass without shared memory', 'the timed pass without shared memory'],
      timeoutMs: ENGINE_TIMEOUT_MS,
      settleMs: SETTLE_MS,
      settleBefore: 1,
      coordinator: `/${ENGINE_SINGLE}/coordinator.js`,
    });
    const measured = results[1];
    if (measured.length !== jobs.length || measured.some((m) => !m)) throw new Error('a job without shared memory was not measured');
    ['sum_sequential', 'sum_tasks8_workers2', 'hash_loop', 'hash_tasks'].forEach((name, index) => {
      emit(`nomem_${name}_ms`, measured[index].summary.median_ms);
    });
    emit('nomem_check_ok', [...results[0], ...measured].every((m) => m.check.ok));
  } finally {
    await page.context().close();
    await plain.close();
  }
}

/** Before any script of the page: record long main-thread tasks and when the Sum panel appears. */
function instrumentPage() {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    window.__longTasksUnsupported = true;
  }
  // What ran in each long frame (Long Animation Frames), to say what a long task was.
  window.__longFrames = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.blockingDuration <= 0) continue;
        const scripts = entry.scripts.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`);
        window.__longFrames.push({ blocking: entry.blockingDuration, scripts });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // Attribution is a help, not a figure: without it the long tasks are still counted.
  }
  const panelSeen = new MutationObserver(() => {
    if (document.querySelector('section[data-experiment="sum"]')) {
      window.__sumPanelAt = performance.now();
      panelSeen.disconnect();
    }
  });
  panelSeen.observe(document, { childList: true, subtree: true });
}

/** Longest recorded long task in ms (0 if none) and how many there were; clears the record. */
async function takeLongTasks(page) {
  return page.evaluate(() => {
    const tasks = window.__longTasks;
    window.__longTasks = [];
    return { longest: Math.max(0, ...tasks.map((t) => t.duration)), count: tasks.length };
  });
}

/** What the most blocking Long Animation Frame recorded so far ran, in words. */
async function longestFrame(page) {
  const frames = await page.evaluate(() => window.__longFrames);
  const worst = frames.sort((a, b) => b.blocking - a.blocking)[0];
  if (!worst) return 'no long animation frame was recorded';
  return `its frame ran ${worst.scripts.join(', ') || 'no script (style, layout, compilation)'}`;
}

/** Numbers in the results table are formatted for the locale (en: 1,234.5). */
const number = (text) => Number(text.replace(/[^0-9.\-]/g, ''));

/** The real Sum chapter: first paint, when the panel is there, and the main thread during a run. */
async function measureUi(browser, server) {
  const page = await newPage(browser);
  try {
    await page.addInitScript(instrumentPage);
    const [first] = sumRun(2);
    const [kind, sum] = workloadOf(first);
    if (kind !== 'sum' || !sum.numbers) throw new Error(`BENCH_PLAN's Sum run is not of Sum jobs: ${JSON.stringify(first.workload)}`);
    const query = `workers=2&tasks=2&n=${sum.numbers}&reps=${first.repetitions}`;
    log(`loading /chapters/sum?${query} and clicking Run`);
    await page.goto(`${server.url}/chapters/sum?${query}`);
    const panel = page.locator('section[data-experiment="sum"]');
    await panel.waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 10_000 });
    const paints = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime])));
    emit('first_paint_ms', paints['first-paint']);
    emit('first_contentful_paint_ms', paints['first-contentful-paint']);
    emit('sum_panel_ms', await page.evaluate(() => window.__sumPanelAt));
    if (await page.evaluate(() => window.__longTasksUnsupported === true)) {
      throw new Error('this Chromium does not report long tasks');
    }
    // Let the page settle, then count only what happens from the click on.
    await page.waitForTimeout(500);
    const load = await takeLongTasks(page);
    if (load.longest > 50) log(`the Sum page's load had a ${load.longest.toFixed(0)} ms task; ${await longestFrame(page)}`);
    emit('longest_task_load_ms', load.longest);
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    const outcome = await waitForOutcome(panel, ENGINE_TIMEOUT_MS);
    if (outcome !== 'finished') {
      throw new Error(`the UI run ended "${outcome}": ${await panel.getByTestId('outcome').innerText()}`);
    }
    // Long-task entries are delivered asynchronously: give the last ones time to arrive.
    await page.waitForTimeout(500);
    const run = await takeLongTasks(page);
    emit('longest_task_run_ms', run.longest);
    emit('long_tasks_run', run.count);
    const median = async (variant) => {
      const cells = await panel.locator(`table[data-testid="results"] tr[data-variant="${variant}"]`).last().locator('td, th').allInnerTexts();
      return number(cells[4]);
    };
    emit('ui_sequential_ms', await median('sequential'));
    emit('ui_tasks2_workers2_ms', await median('tasks'));
    if (page.problems.length) throw new Error(`the page reported errors: ${page.problems.join('; ')}`);
  } finally {
    await page.context().close();
  }
}

/** Fresh loads of each chapter whose longest main-thread task is taken (their median is kept). */
const LOADS_PER_CHAPTER = 5;
/** The pause after closing a load's browser context, before the next load. */
const CONTEXT_TEARDOWN_MS = 1500;

/**
 * Every chapter, loaded fresh LOADS_PER_CHAPTER times (a new browser context each, so nothing is
 * cached but what the HTTP cache keeps), CONTEXT_TEARDOWN_MS apart: the longest main-thread task of
 * each load, from the navigation until its first panel has been in the page for a second (a long
 * one is logged with what its Long Animation Frame ran). Emits the chapter whose
 * median is the highest and that median: one slow load on a shared machine does not make a chapter
 * slow, a slow chapter is slow in most of its loads.
 */
async function measureChapterLoads(browser, server) {
  let worst = { slug: '', median: -1, loads: [] };
  let [loadsWithLongTask, allLoads] = [0, 0];
  for (const [slug, experiment] of CHAPTER_FIRST_EXPERIMENTS) {
    const loads = [];
    for (let load = 0; load < LOADS_PER_CHAPTER; load++) {
      const page = await newPage(browser);
      try {
        await page.addInitScript(instrumentPage);
        await page.goto(`${server.url}/chapters/${slug}`);
        await page.locator(`section[data-experiment="${experiment}"]`).waitFor({ timeout: 60_000 });
        await page.waitForTimeout(1000);
        const longest = (await takeLongTasks(page)).longest;
        loads.push(longest);
        if (longest > 50) log(`${slug}, load ${load + 1}: a ${longest.toFixed(0)} ms task; ${await longestFrame(page)}`);
        if (page.problems.length) throw new Error(`${slug} reported errors: ${page.problems.join('; ')}`);
      } finally {
        await page.context().close();
      }
      // A closed context's renderer and workers take a moment to end; a reader's next page does not
      // share two cores with a browser tearing one down.
      await new Promise((resolve) => setTimeout(resolve, CONTEXT_TEARDOWN_MS));
    }
    loadsWithLongTask += loads.filter((ms) => ms > 50).length;
    allLoads += loads.length;
    const median = [...loads].sort((a, b) => a - b)[Math.floor(loads.length / 2)];
    log(`${slug}: longest loading task per load ${loads.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    if (median > worst.median) worst = { slug, median, loads };
  }
  emit('longest_task_load_chapters_ms', worst.median);
  emit('longest_task_load_chapter', worst.slug);
  emit('chapter_loads', allLoads);
  emit('chapter_loads_with_long_task', loadsWithLongTask);
}

/** The emulated slow link of issue 15: 150 ms round trip, 1.6 Mb/s down (200,000 B/s). */
const SLOW_LINK = { rttMs: 150, bytesPerSecond: 200_000 };
/** A small Sum run, so the time measured is the download and start-up, not the work. */
const SLOW_LINK_QUERY = 'workers=2&tasks=2&n=100000&reps=1';
/** Chapters visited after the warm load, through the chapter menu, to time navigation. */
const NAVIGATION = ['bubble-sort', 'hashing', 'concurrency-vs-parallelism', 'sum'];

/**
 * What a reader on a slow link feels (issue 15): the server sends every file through one shared
 * pipe of SLOW_LINK's throughput after a round trip, gzip-compressed with an ETag, as a static host
 * does. From the navigation's start, the Run button is clicked as soon as it can be, and the time is
 * taken when the engine answers the run (its first progress message, or the end of the run): Run
 * works only once the UI and the engine have both arrived and started. Cold: a new browser profile.
 * Warm: the same profile loads the page again (files named after their content are kept for good,
 * as the site's `_headers` says; the others are revalidated by ETag: a round trip each, no body).
 * The site is the deployable one (DEPLOYED_SITE_DIR, `cargo xtask dist`'s output: each route's page
 * preloads its prose and panel code). Then the longest main-thread task while navigating between
 * chapters in the app.
 */
async function measureSlowLink(browser) {
  const server = await startServer({ root: DEPLOYED_SITE_DIR, mode: 'isolated', link: SLOW_LINK });
  // A host that sends the headers itself (Netlify, Cloudflare Pages): the page needs no service
  // worker for isolation, and its offline copy, downloaded after the page, is left out of the timing.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.addInitScript(instrumentPage);
    const url = `${server.url}/chapters/sum?${SLOW_LINK_QUERY}`;
    const timeToWorkingRun = async () => {
      const before = server.linkBytes();
      const started = Date.now();
      await page.goto(url, { waitUntil: 'commit' });
      const panel = page.locator('section[data-experiment="sum"]');
      const run = panel.getByRole('button', { name: 'Run', exact: true });
      await run.waitFor({ timeout: 120_000 });
      await run.click({ timeout: 120_000 });
      await page.waitForFunction(
        () => {
          const panel = document.querySelector('section[data-experiment="sum"]');
          const progress = panel?.querySelector('.progress-text')?.textContent ?? '';
          const outcome = panel?.querySelector('[data-testid="outcome"]')?.dataset.outcome;
          return (progress !== '' && !progress.startsWith('Preparing')) || outcome === 'finished' || outcome === 'failed';
        },
        null,
        { timeout: 120_000, polling: 20 },
      );
      const ms = Date.now() - started;
      await waitForOutcome(panel, ENGINE_TIMEOUT_MS);
      // Where the time went: every answer over the link until Run worked, from the navigation's start.
      for (const w of server.waterfall(started).filter((w) => w.asked - started < ms)) {
        log(`  ${String(w.asked - started).padStart(5)}–${String(w.done - started).padStart(5)} ms ${w.status} ${String(w.bytes).padStart(7)} B ${w.path}`);
      }
      return { ms, bytes: server.linkBytes() - before };
    };
    const cold = await timeToWorkingRun();
    log(`slow link, cold: Run worked after ${cold.ms} ms (${cold.bytes} bytes over the link)`);
    emit('slow_link_run_cold_ms', cold.ms);
    emit('slow_link_cold_bytes', cold.bytes);
    const warm = await timeToWorkingRun();
    log(`slow link, warm: Run worked after ${warm.ms} ms (${warm.bytes} bytes over the link)`);
    emit('slow_link_run_warm_ms', warm.ms);
    emit('slow_link_warm_bytes', warm.bytes);
    // Navigating between chapters inside the app (no reload): the longest main-thread task.
    await page.waitForTimeout(500);
    await takeLongTasks(page);
    for (const slug of NAVIGATION) {
      await openFromChapterMenu(page, slug);
      await page.waitForURL((u) => u.pathname.endsWith(`/chapters/${slug}`));
      await page.locator('section.experiment').first().waitFor();
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(500);
    const navigation = await takeLongTasks(page);
    emit('longest_task_navigate_ms', navigation.longest);
    emit('long_tasks_navigate', navigation.count);
    if (page.problems?.length) throw new Error(`the page reported errors: ${page.problems.join('; ')}`);
  } finally {
    await context.close();
    await server.close();
  }
}

const server = await serve('isolated', {
  overrides: { [BLANK_PAGE]: '<!doctype html><meta charset="utf-8"><title>engine bench</title>' },
});
const browser = await launch();
try {
  emit('version', `Chromium ${browser.version()}`);
  // For working on one part alone: `BENCH_ONLY=first_runs`, `BENCH_ONLY=slow_link`, `BENCH_ONLY=pool_start` or
  // `BENCH_ONLY=chapter_loads node bench.mjs` (xtask needs everything).
  const only = process.env.BENCH_ONLY;
  if (only === 'slow_link') {
    await measureSlowLink(browser);
  } else if (only === 'pool_start') {
    await measureFirstRunPoolStart(browser, server);
  } else if (only === 'chapter_loads') {
    await measureChapterLoads(browser, server);
  } else {
    if (only !== 'first_runs') {
      await measureKernels(browser, server);
      await measureFirstRunPoolStart(browser, server);
      await measureUi(browser, server);
      await measureChapterLoads(browser, server);
      await measureWithoutSharedMemory(browser);
      await measureSlowLink(browser);
    }
    emit('first_runs', JSON.stringify(await measureFirstRuns(browser, server)));
  }
} catch (error) {
  log(`cannot measure: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
