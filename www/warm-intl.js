// Loads the browser's number-format and plural-rule data in a worker, while the app's WebAssembly is
// still downloading. A page's first `Intl` object costs 30-140 ms on a 2-core machine (the browser
// reads its locale data); that data is the renderer process's, not one thread's, so once a worker has
// built a formatter the main thread's first one takes under a millisecond. Built on the main thread
// instead, it was one task of up to 140 ms in about half the chapter loads, and the page must keep every
// main-thread task under 50 ms (issue 15). The app builds its own formatters later
// (crates/app/src/format.rs). This one file runs both sides: on the page it starts itself as a
// worker and tells it the page's language; in the worker it builds the formatters and ends.
(() => {
  const warm = (lang) => {
    new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(1);
    new Intl.PluralRules(lang).select(1);
  };
  if (typeof document === 'undefined') {
    self.onmessage = (message) => {
      try {
        warm(message.data);
      } catch {
        // A browser without Intl: the app says what it cannot do.
      }
      self.close();
    };
    return;
  }
  const lang = document.documentElement.lang || 'en';
  try {
    new Worker(document.currentScript.src).postMessage(lang);
  } catch {
    // No workers (or this file could not start as one): the app's first formatter pays, as before.
  }
})();
