// Registers sw.js (offline copy of the site, and cross-origin isolation on hosts that cannot send
// headers) when the page asks for it with <meta name="lab-service-worker" content="on">, which only
// `cargo xtask dist` writes. A plain external script: the deployed pages forbid inline scripts.
(() => {
  const meta = document.querySelector('meta[name="lab-service-worker"]');
  if (!meta || meta.content !== 'on' || !('serviceWorker' in navigator)) return;
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname);
  if (location.protocol !== 'https:' && !(location.protocol === 'http:' && local)) return;

  // On a host without isolation headers the page becomes isolated only once the service worker
  // serves it, so reload once when it takes over. The flag stops a loop in a browser that does not
  // isolate pages this way: then the experiments explain why they cannot run, as on any such page.
  const FLAG = 'lab-sw-reloaded';
  // This script runs before the app, which may rewrite the address (it drops `autorun`, clamps
  // `workers` on a page without threads): the reload asks for the address the reader opened.
  const opened = new URL(location.href);
  const storage = (() => {
    try {
      return window.sessionStorage;
    } catch {
      return null; // storage blocked (some embeds): no reload, since loops could not be prevented
    }
  })();
  if (window.crossOriginIsolated) storage?.removeItem(FLAG);
  // A page in a frame (an embed in a course page) becomes isolated only through
  // Document-Isolation-Policy, which only Chromium has (137 and later): in Firefox or Safari a
  // reload there cannot isolate it and would only run an autorun twice, so none is made. The
  // service worker still keeps its offline copy.
  const framed = window.self !== window.top;
  const frameCanIsolate = (navigator.userAgentData?.brands ?? []).some(
    ({ brand, version }) => brand === 'Chromium' && Number(version) >= 137,
  );
  let reloading = false;
  // Not while a run is going, nor while other machines' files are loaded (the app marks both on
  // <html>: crates/app/src/components/kept.rs): it waits, and reloads once they are gone. Results
  // measured before do not hold it: the tab keeps them and they come back after the reload (an
  // embed's autorun would otherwise keep it from ever being isolated).
  const atStake = () => {
    const at = document.documentElement.dataset;
    return at.labRunning === 'true' || at.labCompared === 'true';
  };
  const reloadOnce = () => {
    if (reloading || window.crossOriginIsolated || !storage || storage.getItem(FLAG)) return;
    if (framed && !frameCanIsolate) return;
    if (atStake()) {
      setTimeout(reloadOnce, 1000);
      return;
    }
    reloading = true;
    storage.setItem(FLAG, String(Date.now()));
    // The rows come back after it, so keep.js does not ask "Leave site?" for them.
    document.documentElement.dataset.labLeaving = 'lab';
    const now = new URL(location.href);
    if (now.pathname !== opened.pathname || now.search === opened.search) {
      location.reload(); // the reader moved on in the app, or nothing changed: reload what is shown
    } else {
      location.replace(opened.href);
    }
  };
  navigator.serviceWorker.addEventListener('controllerchange', reloadOnce);
  navigator.serviceWorker
    .register(new URL('sw.js', document.baseURI), { updateViaCache: 'none' })
    .then((registration) => {
      // Already active (this page bypassed it, e.g. a hard reload): a plain reload is served by it.
      if (navigator.serviceWorker.controller || registration?.active) reloadOnce();
    })
    .catch((error) => console.warn('Concurrency Lab: no offline copy, the service worker did not register:', error));
})();
