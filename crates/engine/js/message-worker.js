// A message-passing worker for pages without shared memory: loads its own copy of the engine (the
// compiled module comes from the coordinator) and answers the coordinator's orders from then on.
import { initSync, message_worker_start } from './engine.js';

self.onmessage = ({ data: module }) => {
  self.onmessage = null;
  try {
    initSync({ module });
    message_worker_start();
  } catch (error) {
    postMessage(JSON.stringify({ Failed: { message: String((error && error.message) || error) } }));
  }
};
