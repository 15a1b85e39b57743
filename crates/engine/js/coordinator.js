// The engine's coordinator worker: loads the threaded engine module and hands control to Rust.
// Requests from the UI arrive as bytes, answers to it are JSON strings (see experiments::protocol).

// The module and its bindings are fetched side by side, not one after the other (a static import
// would wait for engine.js before anything here runs, and init() would only then ask for the
// wasm): on a warm page each of them is a revalidation, and this saves one round trip. If
// engine.js cannot load, the worker fails as it would on a static import, and the page names the
// file. The fetch's own failure is init()'s to report.
const wasm = fetch(new URL('engine_bg.wasm', import.meta.url));
wasm.catch(() => {});

// Requests that arrive before the engine is up are kept and handed to it once it is. The page posts
// one only to warm pool workers ahead of the first run (experiments::protocol::Request::Warm, its
// bytes [3, k]): those workers are started here at once, while the engine's module is still being
// fetched and compiled, since a Web Worker's own start-up (a thread, a JavaScript context,
// pool-worker.js and engine.js fetched and compiled) needs nothing from the module; the engine
// takes them (`labSpareWorker`) when it handles the request. Only the threaded engine, which runs
// on cross-origin isolated pages, has pool workers.
const early = [];
const spares = [];
self.onmessage = ({ data }) => {
  early.push(data);
  const warm = data instanceof Uint8Array && data.length === 2 && data[0] === 3 ? data[1] : 0;
  for (let i = 0; globalThis.crossOriginIsolated && i < Math.min(warm, 64); i++) {
    const spare = new Worker(new URL('pool-worker.js', import.meta.url), { type: 'module', name: 'lab-worker' });
    // One that fails before the engine takes it is not taken: the engine starts its own, whose
    // failure it hears.
    spare.addEventListener('error', (event) => { event.preventDefault(); spare.failed = true; });
    spares.push(spare);
  }
};
/** A pool worker started ahead of the engine, if one is left (the engine calls this). */
globalThis.labSpareWorker = () => {
  for (let spare = spares.shift(); spare; spare = spares.shift()) {
    if (!spare.failed) return spare;
    spare.terminate();
  }
  return undefined;
};

const { default: init, coordinator_start } = await import('./engine.js');

// The build of the engine's files, written in by `cargo xtask build` (crates/xtask/src/dist/,
// `stamp_engine_build`); the page compares it with its own to never use an engine of another build.
const ENGINE_BUILD = 'dev';

try {
  await init({ module_or_path: wasm });
  coordinator_start(ENGINE_BUILD);
  for (const data of early.splice(0)) self.dispatchEvent(new MessageEvent('message', { data }));
} catch (error) {
  // experiments::protocol::Response::Crashed, in serde's externally tagged form.
  postMessage(JSON.stringify({
    crashed: {
      failure: {
        kind: 'engine_not_started',
        detail: 'the engine could not start: ' + (error && error.message ? error.message : String(error)),
      },
    },
  }));
}
