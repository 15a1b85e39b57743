// The engine's coordinator worker: loads the threaded engine module and hands control to Rust.
// Requests from the UI and answers to it are JSON strings (see experiments::protocol).
import init, { coordinator_start } from './engine.js';

try {
  await init();
  coordinator_start();
} catch (error) {
  postMessage(JSON.stringify({
    type: 'crashed',
    message: 'the engine could not start: ' + (error && error.message ? error.message : String(error)),
  }));
}
