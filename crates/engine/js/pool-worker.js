// One worker of a pool: instantiates the engine module on the coordinator's shared memory, runs the
// thread body it was given, frees its stack and thread-local storage, reports back and closes.
import { initSync, pool_worker_entry } from './engine.js';

self.onmessage = ({ data: [module, memory, body] }) => {
  self.onmessage = null;
  let wasm;
  try {
    wasm = initSync({ module, memory });
    pool_worker_entry(body);
  } catch (error) {
    postMessage({ type: 'crashed', message: String((error && error.stack) || error) });
    // After a trap the shared memory may be inconsistent: do not touch it again.
    wasm = undefined;
  }
  if (wasm && typeof wasm.__wbindgen_thread_destroy === 'function') {
    wasm.__wbindgen_thread_destroy();
  }
  postMessage({ type: 'exited' });
  close();
};
