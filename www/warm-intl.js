// Builds the page language's number and plural formatters once, while the app's WebAssembly is
// still downloading. A browser's first `Intl` object loads its locale data (about 40 ms on a
// 2-core machine, and as much again for the plural rules); done here, that cost is two short tasks
// of its own, one per formatter, instead of part of the app's first render: the page must keep
// every main-thread task under 50 ms (issue 15). The app builds its own formatters later
// (crates/app/src/format.rs); they are then quick.
(() => {
  const lang = document.documentElement.lang || 'en';
  try {
    new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(1);
  } catch {
    // A browser without Intl: the app says what it cannot do.
    return;
  }
  setTimeout(() => {
    try {
      new Intl.PluralRules(lang).select(1);
    } catch {
      // As above.
    }
  }, 0);
})();
