// The engine's coordinator worker: loads the threaded engine module and hands control to Rust.
// Requests from the UI arrive as bytes, answers to it are JSON strings (see experiments::protocol).

// The module and its bindings are fetched side by side, not one after the other (a static import
// would wait for engine.js before anything here runs, and init() would only then ask for the
// wasm): on a warm page each of them is a revalidation, and this saves one round trip. If
// engine.js cannot load, the worker fails as it would on a static import, and the page names the
// file. The fetch's own failure is init()'s to report.
const wasm = fetch(new URL('engine_bg.wasm', import.meta.url));
wasm.catch(() => {});
const { default: init, coordinator_start } = await import('./engine.js');

// The build of the engine's files, written in by `cargo xtask build` (crates/xtask/src/dist/,
// `stamp_engine_build`); the page compares it with its own to never use an engine of another build.
const ENGINE_BUILD = 'dev';

try {
  await init({ module_or_path: wasm });
  coordinator_start(ENGINE_BUILD);
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
