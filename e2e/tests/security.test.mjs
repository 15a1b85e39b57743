// The deployable site from `cargo xtask dist` (target/site, or DIST_SITE_DIR) under its strict
// Content-Security-Policy: no inline scripts or styles, no violation during a full chapter run, and
// no request to any other origin, from the page, its workers or the service worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { clickAndWait, engineFolder, launch } from '../lib.mjs';
import { startServer } from '../server.mjs';

const DIST_SITE_DIR = process.env.DIST_SITE_DIR || path.resolve(import.meta.dirname, '../../target/site');

let browser;
before(async () => {
  if (!fs.existsSync(path.join(DIST_SITE_DIR, 'sw.js'))) {
    throw new Error(`no deployable site in ${DIST_SITE_DIR}: run \`cargo xtask dist\` first (the tests never build)`);
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Every HTML file of the site, relative to it. */
function htmlFiles(dir = DIST_SITE_DIR, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) return htmlFiles(path.join(dir, entry.name), relative + '/');
    return relative.endsWith('.html') ? [relative] : [];
  });
}

/** The policy in a page's <meta http-equiv="Content-Security-Policy">, or null. */
function metaPolicy(html) {
  const tag = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/i);
  return tag ? tag[1] : null;
}

/**
 * A page that records CSP reports (console and `securitypolicyviolation` events), errors, and the
 * URL of every request its context makes: the page, its workers and the service worker.
 */
async function openRecordedPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const record = { requests: [], violations: [], problems: [] };
  context.on('request', (request) => record.requests.push(request.url()));
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__violations.push(`${event.violatedDirective}: ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => record.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (/Content.Security.Policy|Refused to/i.test(text)) record.violations.push(`console: ${text}`);
    if (message.type() === 'error') record.problems.push(`console: ${text}`);
  });
  page.on('worker', (worker) => worker.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) record.violations.push(`worker console: ${message.text()}`);
  }));
  return { page, record };
}

test('every page of the site carries the strict policy and has no inline script or style', () => {
  const files = htmlFiles();
  assert.ok(files.includes('index.html') && files.includes('404.html') && files.includes('chapters/sum/index.html'), `${files}`);
  for (const file of files) {
    const html = fs.readFileSync(path.join(DIST_SITE_DIR, file), 'utf8');
    const policy = metaPolicy(html);
    assert.ok(policy, `${file} has a Content-Security-Policy`);
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.match(policy, /style-src 'self';/);
    assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|frame-ancestors/, 'frame-ancestors is ignored (and logged) in a <meta>');
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<base'), `${file}: the policy comes before <base> and every script`);
    const inline = [...html.matchAll(/<script\b([^>]*)>/gi)].filter(([, attributes]) => !/\bsrc=/.test(attributes));
    assert.deepEqual(inline, [], `${file} has no inline script`);
    assert.doesNotMatch(html, /<style\b|\sstyle=|\son[a-z]+=/i, `${file} has no inline style or handler`);
  }
  // Netlify and Cloudflare Pages get the same policy as a header, where frame-ancestors works.
  const headers = fs.readFileSync(path.join(DIST_SITE_DIR, '_headers'), 'utf8');
  assert.match(headers, /Cross-Origin-Opener-Policy: same-origin/);
  assert.match(headers, /Cross-Origin-Embedder-Policy: require-corp/);
  assert.match(headers, /Content-Security-Policy: .*script-src 'self' 'wasm-unsafe-eval'.*frame-ancestors \*/);
  assert.match(headers, /\/embed\/\*\n {2}Document-Isolation-Policy: isolate-and-require-corp/);
  assert.doesNotMatch(headers, /Cross-Origin-Resource-Policy: cross-origin/);
  // No browser guesses a file's type: every path gets nosniff from `_headers`, and on hosts that
  // cannot send headers the service worker adds it to what it serves.
  assert.match(headers, /^\/\*\n(?: {2}.*\n)* {2}X-Content-Type-Options: nosniff$/m, '_headers sends nosniff for /*');
  const sw = fs.readFileSync(path.join(DIST_SITE_DIR, 'sw.js'), 'utf8');
  assert.match(sw, /^const NO_SNIFFING = \{ 'X-Content-Type-Options': 'nosniff' \};$/m);
  assert.match(sw, /const wanted = \{ \.\.\.ISOLATION, \.\.\.NO_SNIFFING \};/);
});

test('in the browser: the policy is in force, scripts are external, and a run adds no inline style', async (t) => {
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'isolated' });
  t.after(() => server.close());
  const { page, record } = await openRecordedPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const state = await page.evaluate(() => ({
    policy: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? null,
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    styled: [...document.querySelectorAll('[style]')].map((e) => `${e.tagName}: ${e.getAttribute('style')}`),
    styleElements: document.querySelectorAll('style').length,
  }));
  assert.match(state.policy, /default-src 'self'/);
  assert.equal(state.inlineScripts, 0);
  assert.deepEqual(state.styled, []);
  assert.equal(state.styleElements, 0);
  // An inline script injected now is refused: the policy really is enforced.
  const ran = await page.evaluate(() => {
    window.__ran = false;
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.head.append(script);
    return window.__ran;
  });
  assert.equal(ran, false);
});

for (const delivery of ['meta', 'header']) {
  test(`a full Sum chapter run (run and sweep) breaks no rule and asks no other origin (policy by ${delivery})`, async (t) => {
    // As a header the policy also governs the workers and the service worker, which a <meta> cannot.
    const extraHeaders = {};
    if (delivery === 'header') {
      const headers = fs.readFileSync(path.join(DIST_SITE_DIR, '_headers'), 'utf8');
      extraHeaders['Content-Security-Policy'] = headers.match(/Content-Security-Policy: (.*)/)[1];
    }
    const server = await startServer({ root: DIST_SITE_DIR, mode: 'isolated', extraHeaders });
    t.after(() => server.close());
    const { page, record } = await openRecordedPage();
    t.after(() => page.context().close());
    await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
    const panel = page.locator('section[data-experiment="sum"]');
    await panel.waitFor();
    assert.equal(await clickAndWait(panel, 'Run'), 'finished');
    assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
    // The service worker took over meanwhile; a reload runs everything through it as well.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
    await page.reload();
    await panel.waitFor();
    assert.equal(await clickAndWait(panel, 'Run'), 'finished');
    record.violations.push(...(await page.evaluate(() => window.__violations)));
    assert.deepEqual(record.violations, []);
    assert.deepEqual(record.problems, []);
    const origin = new URL(server.url).origin;
    assert.deepEqual(record.requests.filter((url) => !url.startsWith(origin + '/')), [], 'every request stays on the site');
    // The recording saw the workers' own requests, not just the page's.
    const engine = engineFolder('engine', DIST_SITE_DIR);
    for (const file of [`/${engine}/coordinator.js`, `/${engine}/engine_bg.wasm`, `/${engine}/pool-worker.js`]) {
      assert.ok(record.requests.includes(origin + file), `${file} was requested and recorded`);
    }
  });
}
