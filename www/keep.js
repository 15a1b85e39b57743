// Nothing lost by accident (issue 34). A plain external script, in every page before the app:
// - a file dropped anywhere but on a drop zone is refused (the browser would otherwise open it in
//   place of the page, every result and loaded comparison with it);
// - leaving a page with results not downloaded, or other machines' files loaded, asks first (the
//   browser's own "Leave site?" prompt). The app marks what is at stake on <html>
//   (crates/app/src/components/kept.rs): data-lab-unsaved, data-lab-compared, and
//   data-lab-leaving="lab" when its own language switch opens the page anew, which brings the
//   results back (only loaded files are lost then).
(() => {
  const onZone = (target) => target instanceof Element && target.closest('.drop-zone') !== null;
  for (const type of ['dragover', 'drop']) {
    window.addEventListener(type, (event) => {
      if (event.defaultPrevented || onZone(event.target)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    });
  }
  window.addEventListener('beforeunload', (event) => {
    const at = document.documentElement.dataset;
    const results = at.labUnsaved === 'true' && at.labLeaving !== 'lab';
    if (results || at.labCompared === 'true') {
      event.preventDefault();
      event.returnValue = '';
    }
    delete at.labLeaving;
  });
})();

// A page open while a new version of the lab is deployed: its own code and text files are
// content-addressed (app-<hash>/…, engine-<hash>/…, content/<lang>/<name>-<hash>.json), so the
// deployment removes them. When one answers 404, this asks the site's landing page, from the
// server itself, which version it serves now; if another, it marks <html data-lab-new-version>
// before the app sees the 404, and the app's notices of a part that could not load say to reload
// (their `.if-new-version` line, which style.css shows) instead of "try again". The engine's own
// check of the same (crates/app/src/engine_client/site_build.rs, `site_has_another_build`) words
// its failure.
(() => {
  const fetchFromNetwork = window.fetch;
  if (typeof fetchFromNetwork !== 'function') return;
  const versioned = /\/(?:app|engine|engine-single)-[0-9a-f]{16}\/|\/content\/[a-z]{2}\/[^/?#]+-[0-9a-f]{16}\.json(?:[?#]|$)/;
  // A page's version: the app folder it loads and the engine build it names.
  const versionOf = (html) => {
    const app = html.match(/app-[0-9a-f]{16}/);
    const engine = html.match(/<meta name="lab-engine-build" content="([^"]*)"/);
    return app || engine ? `${app ? app[0] : ''} ${engine ? engine[1] : ''}` : null;
  };
  const ours = versionOf(document.head.innerHTML);
  if (ours === null) return; // a development build: nothing is content-addressed
  let asking = null;
  const askTheSite = () => {
    asking ??= fetchFromNetwork(new URL('./', document.baseURI), { cache: 'no-store' })
      .then((response) => (response.ok ? response.text() : ''))
      .then((html) => {
        const live = versionOf(html);
        if (live !== null && live !== ours) document.documentElement.dataset.labNewVersion = 'true';
      })
      .catch(() => {})
      .finally(() => {
        if (document.documentElement.dataset.labNewVersion !== 'true') asking = null;
      });
    return asking;
  };
  window.fetch = function (resource, options) {
    const answer = fetchFromNetwork.call(window, resource, options);
    const url = resource instanceof Request ? resource.url : String(resource);
    if (!versioned.test(url)) return answer;
    return answer.then(async (response) => {
      if (response.status === 404) await askTheSite();
      return response;
    });
  };
})();
