// A message-passing worker for pages without shared memory: loads its own copy of the engine (the
// compiled module comes from the coordinator) and answers the coordinator's orders from then on.
// Its one message of its own (it could not start) is engine::wire::MessageWorkerAnswer, from a template a
// test parses there.
import { initSync, message_worker_start } from './engine.js';

/** `template` with the JSON string of `words` in place of "MESSAGE". */
const report = (template, words) => template.replace('"MESSAGE"', JSON.stringify(words));

self.onmessage = ({ data: module }) => {
  self.onmessage = null;
  try {
    initSync({ module });
    message_worker_start();
  } catch (error) {
    postMessage(report('{"failed":{"message":"MESSAGE"}}', String((error && error.message) || error)));
  }
};
