// The engine's coordinator worker: loads the threaded engine module and hands control to Rust.
// Requests from the UI and answers to it are JSON strings (see experiments::protocol).
import init, { coordinator_start } from './engine.js';

// The build of the engine's files, written in by `cargo xtask build` (see dist.rs,
// stamp_engine_build); the page compares it with its own to never use an engine of another build.
const ENGINE_BUILD = 'dev';

try {
  await init();
  coordinator_start(ENGINE_BUILD);
} catch (error) {
  postMessage(JSON.stringify({
    type: 'crashed',
    failure: {
      kind: 'engine_not_started',
      detail: 'the engine could not start: ' + (error && error.message ? error.message : String(error)),
    },
  }));
}
