// Where a pool's start-up goes: instruments coordinator.js and pool-worker.js (served as overrides,
// the engine itself unchanged) with marks posted on a BroadcastChannel, starts the engine on a blank
// isolated page, sends a run of a small sum (the loop, 8 tasks on 1 worker, 8 tasks on 2) and prints,
// per trial, what each pool worker spent where. A fresh browser context per trial (cold caches).
// Usage: SITE_DIR=$PWD/../dist TRIALS=6 node pool-timing.mjs
import fs from 'node:fs';
import path from 'node:path';
import { ENGINE, SITE_DIR, launch, serve } from './lib.mjs';

const TRIALS = Number(process.env.TRIALS || 6);
const BLANK = '/__bench/blank.html';
const engineDir = path.join(SITE_DIR, ENGINE);
const coordinator = fs.readFileSync(path.join(engineDir, 'coordinator.js'), 'utf8');
const poolWorker = fs.readFileSync(path.join(engineDir, 'pool-worker.js'), 'utf8');

const COORDINATOR_MARKS = `
const __bc = new BroadcastChannel('pool-timing');
const __now = () => performance.timeOrigin + performance.now();
let __n = 0;
const __Worker = globalThis.Worker;
globalThis.Worker = class extends __Worker {
  constructor(url, options) {
    const id = (options && options.name || 'w') + '#' + (++__n);
    const t0 = __now();
    super(url, { ...options, name: id });
    const t1 = __now();
    const post = this.postMessage.bind(this);
    this.postMessage = (message, ...rest) => {
      const p0 = __now();
      post(message, ...rest);
      __bc.postMessage({ id, construct0: t0, construct1: t1, posted0: p0, posted1: __now() });
    };
  }
};
`;

// The pool worker's own script with its static import turned into a timed dynamic one, and
// initSync split into instantiation (WebAssembly.Instance) and the rest (__wbindgen_start: stack
// and thread-local storage).
const POOL_MARKS = `
const __bc = new BroadcastChannel('pool-timing');
const __now = () => performance.timeOrigin + performance.now();
const __marks = { id: self.name, origin: performance.timeOrigin, scriptStart: __now() };
let __early = null;
self.onmessage = (event) => { __marks.messageArrived = __now(); __early = event; };
const __Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  __marks.instantiate0 = __now();
  const instance = new __Instance(module, imports);
  __marks.instantiate1 = __now();
  return instance;
};
const { initSync, pool_worker_entry } = await import('./engine.js');
__marks.imported = __now();
`;
const body = poolWorker
  .replace(/^import \{ initSync, pool_worker_entry \} from '\.\/engine\.js';$/m, POOL_MARKS)
  .replace("self.onmessage = ({ data: [module, memory, body] }) => {", `const __handle = ({ data: [module, memory, body] }) => {
  __marks.handlerStart = __now();`)
  .replace('    pool_worker_entry(body);', `    __marks.initSynced = __now();
    __bc.postMessage(__marks);
    pool_worker_entry(body);`)
  .concat(`
if (__early) __handle(__early); else self.onmessage = (event) => { __marks.messageArrived = __now(); __handle(event); };
`);
if (!body.includes('__handle = ') || !body.includes('__marks.initSynced')) throw new Error('pool-worker.js changed shape');

// Small sum: the loop, 8 tasks on 1 worker, 8 tasks on 2 (100,000 numbers, 1 repetition).
const JOB = (variant, workers, tasks) => [0, 160, 141, 6, 238, 255, 131, 6, variant, workers, tasks, 1];
const runBytes = (runId, jobs) => [0, runId, jobs.length, ...jobs.flat()];
const SWEEP = runBytes(1, [JOB(0, 1, 1), JOB(1, 1, 8), JOB(1, 2, 8)]);
const FIRST_RUN = runBytes(1, [JOB(0, 1, 1), JOB(1, 2, 8)]);
const plan = process.env.PLAN === 'first' ? FIRST_RUN : SWEEP;
const WARM = Number(process.env.WARM || 0);
const waitBeforeRunMs = Number(process.env.WAIT_MS || 0);

async function trial(browser, server) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url + BLANK);
  const out = await page.evaluate(async ({ coordinatorUrl, bytes, waitMs, warm }) => {
    const now = () => performance.timeOrigin + performance.now();
    const events = [];
    const bc = new BroadcastChannel('pool-timing');
    bc.onmessage = ({ data }) => events.push(data);
    const t0 = now();
    const worker = new Worker(coordinatorUrl, { type: 'module' });
    const measured = [];
    let readyAt;
    await new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error('timeout')), 60_000);
      worker.onmessage = ({ data }) => {
        const message = JSON.parse(data);
        if (message.ready) {
          readyAt = now();
          if (warm) worker.postMessage(new Uint8Array([3, warm]));
          setTimeout(() => worker.postMessage(new Uint8Array(bytes)), waitMs);
        } else if (message.measured) measured.push(message.measured.measurement);
        else if (message.finished) resolve();
        else if (message.failed || message.crashed) reject(new Error(data));
      };
    });
    await new Promise((r) => setTimeout(r, 200));
    worker.terminate();
    return { t0, readyAt, events, starts: measured.map((m) => [m.job.variant, m.job.workers, m.pool_start_ms]) };
  }, { coordinatorUrl: `/${ENGINE}/coordinator.js`, bytes: plan, waitMs: waitBeforeRunMs, warm: WARM });
  await context.close();
  return out;
}

const server = await serve('isolated', {
  overrides: {
    [BLANK]: '<!doctype html><meta charset="utf-8"><title>pool timing</title>',
    [`/${ENGINE}/coordinator.js`]: { body: COORDINATOR_MARKS + coordinator, type: 'text/javascript' },
    [`/${ENGINE}/pool-worker.js`]: { body, type: 'text/javascript' },
  },
});
const browser = await launch();
const f = (x) => (x === undefined || Number.isNaN(x) ? '   -' : x.toFixed(1).padStart(5));
try {
  console.log('per worker, ms: construct → scriptStart (thread, isolate, fetch pool-worker.js), → imported (engine.js),');
  console.log('→ handler (message), instantiate, __wbindgen_start (stack, TLS), total construct → initSynced; then pool_start_ms');
  const parts = {};
  const add = (k, v) => (parts[k] ??= []).push(v);
  for (let i = 0; i < TRIALS; i++) {
    const { readyAt, t0, events, starts } = await trial(browser, server);
    for (const [variant, workers, ms] of starts) if (ms != null) add(`pool_start ${workers}`, ms);
    const byId = new Map();
    for (const e of events) byId.set(e.id, { ...byId.get(e.id), ...e });
    console.log(`trial ${i + 1}: engine ready ${f(readyAt - t0)} ms; pool starts ${JSON.stringify(starts)}`);
    for (const [id, w] of byId) {
      const handler = Math.max(w.imported, w.messageArrived ?? 0);
      add('thread+isolate (construct→origin)', w.origin - w.construct0);
      add('pool-worker.js (origin→script)', w.scriptStart - w.origin);
      add('engine.js import', w.imported - w.scriptStart);
      add('instantiate', w.instantiate1 - w.instantiate0);
      add('__wbindgen_start', w.initSynced - w.instantiate1);
      add('construct→initSynced', w.initSynced - w.construct0);
      console.log(
        `  ${id.padEnd(16)} construct ${f(w.construct1 - w.construct0)} post ${f(w.posted1 - w.posted0)} | origin ${f(w.origin - w.construct0)} script ${f(w.scriptStart - w.construct0)}` +
          ` import ${f(w.imported - w.scriptStart)} msg@ ${f(w.messageArrived - w.construct0)} wait ${f(w.handlerStart - handler)} inst ${f(w.instantiate1 - w.instantiate0)}` +
          ` start ${f(w.initSynced - w.instantiate1)} | total ${f(w.initSynced - w.construct0)}`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log(`medians over ${TRIALS} trials (min–max):`);
  for (const [k, xs] of Object.entries(parts)) console.log(`  ${k.padEnd(36)} ${f(median(xs))}  (${f(Math.min(...xs))} – ${f(Math.max(...xs))}, n=${xs.length})`);
} finally {
  await browser.close();
  await server.close();
}
