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
