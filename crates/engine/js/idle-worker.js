// A Web Worker that loads the engine's JavaScript and then waits, doing nothing: the page weighs a
// few of these to tell the reader what one worker costs (see the "what a task costs" chapter).
import './engine.js';

postMessage('ready');
