// The cross-browser set in WebKit (Safari's engine: Debian's WebKitGTK MiniBrowser over classic
// WebDriver). That build isolates the page but has no SharedArrayBuffer, so this is the set of a
// browser without shared memory: every chapter loads in English and Russian with no error; the Sum
// and hashing run on message workers and bubble sort on one worker, every row correct, and the page
// says why (no shared memory, though isolated); the schedulers recompute and step; Stop answers; an
// embed in a course page posts its height.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CHAPTER_FIRST_EXPERIMENTS, SHA256_OF_GENERATED_2MB as SHA256_OF_2MB, SITE_DIR, panelOf } from '../lib.mjs';
import { startServer } from '../server.mjs';
import {
  ERROR_RECORDER,
  clickButtonWebKit,
  launchWebKit,
  pageErrorsWebKit,
  runsEndedWebKit,
  waitForOutcomeWebKit,
  waitInPage,
} from '../webkit.mjs';

let webkit;
let driver;
let server;
before(async () => {
  server = await startServer({ root: SITE_DIR, mode: 'isolated', headScript: ERROR_RECORDER });
  webkit = await launchWebKit();
  driver = webkit.driver;
  console.log(`# ${await driver.executeScript(() => navigator.userAgent)}`);
});
after(async () => {
  await webkit?.close();
  await server?.close();
});

/** Go to `path` on the test server and wait for `panel` (a selector) to have its controls. */
async function open(path, panel) {
  await driver.get(server.url + path);
  // Its controls, or the line saying why it cannot run in this browser.
  await waitInPage(driver, (s) => document.querySelector(`${s} input, ${s} button, ${s} [data-testid$="-needs-threads"]`) !== null, [panel], {
    what: `${panel} on ${path}`,
  });
}

/** Each result row of `panel`: variant, result, check words, number of repetitions. */
async function resultRows(panel) {
  return driver.executeScript(
    (s) =>
      [...document.querySelectorAll(`${s} table.results tbody tr[data-variant]`)].map((tr) => ({
        variant: tr.dataset.variant,
        result: tr.dataset.result,
        check: tr.querySelector('td.check, td[data-col="check"]')?.innerText ?? '',
        samples: (tr.dataset.samples ?? '').split(' ').filter(Boolean).length,
      })),
    panel,
  );
}

/** The banner of a page without shared memory, in `panel`. */
async function bannerOf(panel) {
  return waitInPage(driver, (s) => document.querySelector(`${s} [data-testid="single-worker-banner"]`)?.innerText, [panel], {
    what: 'the banner of a page without shared memory',
  });
}

test('the page is isolated but has no shared memory in this build', async () => {
  await open('/chapters/sum', panelOf('sum'));
  const seen = await driver.executeScript(() => ({ isolated: crossOriginIsolated, shared: typeof SharedArrayBuffer }));
  assert.deepEqual(seen, { isolated: true, shared: 'undefined' }, 'WebKitGTK 2.50 as Debian builds it');
});

test('every chapter loads in English and in Russian with no error, its first experiment ready', async () => {
  const problems = [];
  for (const [slug, experiment] of CHAPTER_FIRST_EXPERIMENTS) {
    for (const lang of ['en', 'ru']) {
      const address = `${lang === 'en' ? '' : `/${lang}`}/chapters/${slug}`;
      await open(address, panelOf(experiment));
      await waitInPage(driver, () => document.querySelector('article.chapter .prose'), [], { what: `the prose of ${address}` });
      const seen = await driver.executeScript(() => ({
        lang: document.documentElement.lang,
        title: document.querySelector('main h1')?.innerText ?? '',
        words: document.querySelector('article.chapter .prose')?.innerText.split(/\s+/).length ?? 0,
      }));
      assert.equal(seen.lang, lang, `${address}: <html lang>`);
      assert.ok(seen.title.length > 3, `${address}: a heading`);
      assert.ok(seen.words > 50, `${address}: prose (${seen.words} words)`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      problems.push(...(await pageErrorsWebKit(driver)).map((p) => `${address}: ${p}`));
    }
  }
  assert.deepEqual(problems, []);
});

test('the Sum runs on two message workers, every row correct, and the page says why', async () => {
  const panel = panelOf('sum');
  await open('/chapters/sum?workers=2&tasks=4&n=1000000&reps=2&autorun=1', panel);
  const banner = await bannerOf(panel);
  assert.match(banner, /no shared memory|SharedArrayBuffer/i, banner);
  assert.doesNotMatch(banner, /not cross-origin isolated/, 'the page is isolated: that is not the reason here');
  assert.equal(await waitForOutcomeWebKit(driver, panel), 'finished');
  const rows = await resultRows(panel);
  assert.deepEqual(rows.map((r) => r.variant), ['sequential', 'tasks']);
  for (const row of rows) {
    assert.match(row.check, /correct/);
    assert.equal(row.samples, 2, `${row.variant}: its two repetitions`);
  }
  assert.equal(rows[0].result, rows[1].result, 'both ways give the same total');
  assert.equal(await driver.executeScript((s) => document.querySelectorAll(`${s} [data-testid="single-worker-banner"] a`).length, panel), 0, 'no "open in its own tab": it would be no different');
  const lanes = await driver.executeScript((s) => [...document.querySelectorAll(`${s} [data-testid="sum-timeline"] table.timeline-workers tbody tr`)].map((tr) => Number(tr.dataset.worker)), panel);
  assert.deepEqual(lanes, [0, 1], 'two message workers, each with its own memory');
  assert.deepEqual(await pageErrorsWebKit(driver), []);
});

test('hashing on message workers and the four sorts on one worker give correct rows', async () => {
  const hashing = panelOf('hashing');
  await open('/chapters/hashing?mb=2&hashes=4&workers=2&autorun=1', hashing);
  assert.equal(await waitForOutcomeWebKit(driver, hashing), 'finished');
  assert.deepEqual((await resultRows(hashing)).map((r) => r.result), [SHA256_OF_2MB, SHA256_OF_2MB]);
  assert.deepEqual(await pageErrorsWebKit(driver), []);

  const sorts = panelOf('bubble-sort');
  await open('/chapters/bubble-sort?workers=2&tasks=4&n=3000&reps=2&autorun=1', sorts);
  assert.match(await bannerOf(sorts), /single worker/);
  assert.equal(await waitForOutcomeWebKit(driver, sorts), 'finished');
  const rows = await resultRows(sorts);
  assert.deepEqual(rows.map((r) => r.variant), ['bubble', 'chunked', 'odd-even', 'merge']);
  assert.deepEqual(rows.map((r) => r.result), ['sorted', 'sorted', 'sorted', 'sorted']);
  assert.equal(await driver.executeScript((s) => document.querySelector(`${s} input[type="range"]`).value, sorts), '1', 'Workers is fixed at 1');
  assert.deepEqual(await pageErrorsWebKit(driver), []);
});

test('an experiment that needs shared memory says this browser lacks it, not the page', async () => {
  const panel = panelOf('qps');
  await open('/chapters/high-concurrency', panel);
  const words = await driver.executeScript((s) => document.querySelector(`${s} [data-testid="qps-needs-threads"]`)?.innerText ?? '', panel);
  assert.match(words, /this browser does not offer/);
  assert.doesNotMatch(words, /own tab/);
  assert.deepEqual(await pageErrorsWebKit(driver), []);
});

test('Stop ends a long Sum on message workers soon', async () => {
  const panel = panelOf('sum');
  await open('/chapters/sum?workers=2&tasks=64&n=50000000&reps=50&autorun=1', panel);
  await waitInPage(driver, (s) => document.querySelector(`${s} [data-testid="outcome"]`)?.dataset.outcome === 'running', [panel], { what: 'the run starting' });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const ended = await runsEndedWebKit(driver, panel);
  const pressed = Date.now();
  await clickButtonWebKit(driver, panel, 'Stop');
  assert.equal(await waitForOutcomeWebKit(driver, panel, { before: ended, timeout: 10_000 }), 'stopped');
  const took = Date.now() - pressed;
  console.log(`# WebKit: "stopped" ${took} ms after Stop`);
  // The same wide bound as in Chromium (stop-latency.test.mjs).
  assert.ok(took < 3_000, `"stopped" ${took} ms after Stop`);
  assert.deepEqual(await pageErrorsWebKit(driver), []);
});

test('the OS scheduler recomputes from its controls, and the Go scheduler replay steps', async () => {
  const os = panelOf('os-scheduler');
  await open('/chapters/os-scheduler?threads=4&cores=1&quantum=1&mix=cpu&seed=3', os);
  const switches = (s) => Number(document.querySelectorAll(`${s} [data-testid="os-totals"] td[data-value]`)[1]?.dataset.value);
  const fine = await waitInPage(driver, switches, [os], { what: 'the OS totals' });
  const changed = await driver.executeScript((s) => {
    const input = [...document.querySelectorAll(`${s} input`)].find((i) => [...(i.labels ?? [])].some((l) => l.innerText.trim().startsWith('Time slice')));
    if (!input) return false;
    input.value = '50';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }, os);
  assert.ok(changed, 'a Time slice input');
  await waitInPage(driver, (s, before) => Number(document.querySelectorAll(`${s} [data-testid="os-totals"] td[data-value]`)[1]?.dataset.value) < before, [os, fine], { what: 'fewer switches at a longer slice' });

  const go = panelOf('go-scheduler');
  await open('/chapters/go-scheduler?scenario=spawn-on-one&workers=4&tasks=16&autorun=1', go);
  assert.equal(await waitForOutcomeWebKit(driver, go), 'finished');
  const status = (s) => document.querySelector(`${s} [data-testid="replay-status"]`)?.innerText ?? '';
  for (let i = 0; i < 3; i++) await clickButtonWebKit(driver, go, 'Step forward');
  await waitInPage(driver, (s) => /^Step 3 of \d+/.test(document.querySelector(`${s} [data-testid="replay-status"]`)?.innerText ?? ''), [go], { what: 'step 3' });
  await clickButtonWebKit(driver, go, 'Step back');
  await waitInPage(driver, (s) => /^Step 2 of \d+/.test(document.querySelector(`${s} [data-testid="replay-status"]`)?.innerText ?? ''), [go], { what: 'step 2' });
  assert.match(await driver.executeScript(status, go), /^Step 2 of/);
  assert.deepEqual(await pageErrorsWebKit(driver), []);
});

test('an embed in a course page that is not isolated runs and posts its height', async () => {
  const app = await startServer({ root: SITE_DIR, mode: 'none' });
  const src = `${app.url}/embed/experiments/sum?workers=2&tasks=2&n=1000000&reps=1&autorun=1`;
  const html = `<!doctype html><meta charset=utf-8><title>Course page</title><link rel="icon" href="data:,">
<script>window.__messages = []; addEventListener('message', (e) => window.__messages.push(e.data));</script>
<h1>Week 3: concurrency</h1><iframe src="${src}" title="Sum" width="100%" height="900"></iframe>`;
  const course = await startServer({ root: SITE_DIR, mode: 'none', overrides: { '/course.html': html } });
  try {
    await driver.get(`${course.url}/course.html`);
    const heard = await waitInPage(
      driver,
      () => window.__messages.some((m) => m && m.type === 'resize' && m.height > 500) && window.__messages.some((m) => m && m.subject === 'lti.frameResize') && window.__messages,
      [],
      { what: 'the course page hearing the embed\'s height' },
    );
    for (const m of heard) assert.deepEqual(Object.keys(m).sort(), m.type ? ['height', 'type'] : ['height', 'subject']);
    // Inside the frame: the run finishes, its rows correct.
    await driver.switchTo().frame(0);
    const panel = panelOf('sum');
    assert.equal(await waitForOutcomeWebKit(driver, panel), 'finished');
    for (const row of await resultRows(panel)) assert.match(row.check, /correct/);
    assert.match(await bannerOf(panel), /not cross-origin isolated/, 'this frame is not isolated: that is the reason here');
  } finally {
    await driver.switchTo().defaultContent();
    await course.close();
    await app.close();
  }
});
