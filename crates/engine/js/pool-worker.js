// One worker of a pool: instantiates the engine module on the coordinator's shared memory, runs the
// thread body it was given, frees its stack and thread-local storage, reports back and closes.
// What it reports is engine::wire::PoolWorkerReport, written from templates a test parses there.
import { initSync, pool_worker_entry } from './engine.js';

/** `template` with the JSON string of `words` in place of "MESSAGE". */
const report = (template, words) => template.replace('"MESSAGE"', JSON.stringify(words));

self.onmessage = ({ data: [module, memory, body] }) => {
  self.onmessage = null;
  let wasm;
  try {
    wasm = initSync({ module, memory });
    pool_worker_entry(body);
  } catch (error) {
    postMessage(report('{"crashed":{"message":"MESSAGE"}}', String((error && error.stack) || error)));
    // After a trap the shared memory may be inconsistent: do not touch it again.
    wasm = undefined;
  }
  if (wasm && typeof wasm.__wbindgen_thread_destroy === 'function') {
    wasm.__wbindgen_thread_destroy();
  }
  postMessage('"exited"');
  close();
};
