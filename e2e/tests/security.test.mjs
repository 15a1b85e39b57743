// The deployable site from `cargo xtask dist` (target/site, or DIST_SITE_DIR) under its strict
// Content-Security-Policy: no inline scripts or styles, no violation during a full chapter run, and
// no request to any other origin, from the page, its workers or the service worker. Only embeds may
// be framed by another site, whether `_headers` or the service worker sends the headers, and the
// service worker sends what `_headers` gives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { clickAndWait, engineFolder, launch } from '../lib.mjs';
import { headersFileRules, headersForPath, startServer } from '../server.mjs';

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
  // Netlify and Cloudflare Pages get the same policy as a header, and only embeds, in every
  // language, a second one that lets any site frame them (it makes browsers ignore X-Frame-Options).
  const rules = headersFileRules(DIST_SITE_DIR);
  for (const page of ['/', '/chapters/sum/', '/glossary', '/ru/chapters/sum/', '/no/such/page', '/register-sw.js']) {
    const headers = headersForPath(rules, page);
    assert.equal(headers['Cross-Origin-Opener-Policy'], 'same-origin', page);
    assert.equal(headers['Cross-Origin-Embedder-Policy'], 'require-corp', page);
    assert.equal(headers['Cross-Origin-Resource-Policy'], 'same-origin', page);
    assert.equal(headers['X-Content-Type-Options'], 'nosniff', page);
    assert.equal(headers['X-Frame-Options'], 'DENY', page);
    assert.equal(headers['Content-Security-Policy'], metaPolicy(fs.readFileSync(path.join(DIST_SITE_DIR, 'index.html'), 'utf8')), page);
    assert.equal(headers['Document-Isolation-Policy'], undefined, page);
  }
  for (const embed of ['/embed/chapters/sum/', '/embed/experiments/sum', '/ru/embed/experiments/sum', '/hi/embed/chapters/sum/']) {
    const headers = headersForPath(rules, embed);
    assert.match(headers['Content-Security-Policy'], /script-src 'self' 'wasm-unsafe-eval';.*, frame-ancestors \*$/, embed);
    assert.equal(headers['Document-Isolation-Policy'], 'isolate-and-require-corp', embed);
  }
  const headersFile = fs.readFileSync(path.join(DIST_SITE_DIR, '_headers'), 'utf8');
  assert.doesNotMatch(headersFile, /Cross-Origin-Resource-Policy: cross-origin/);
  // The service worker, on hosts that cannot send headers, adds the same (but caching, which is
  // about the browser's HTTP cache, where its answers never go).
  const sw = fs.readFileSync(path.join(DIST_SITE_DIR, 'sw.js'), 'utf8');
  const swRules = JSON.parse(sw.match(/^self\.__HEADERS = (\[[\s\S]*?\n\]);$/m)[1]);
  const withoutCaching = rules
    .map((rule) => Object.fromEntries(Object.entries(rule.headers).filter(([name]) => name !== 'Cache-Control')))
    .filter((headers) => Object.keys(headers).length);
  assert.deepEqual(swRules.map((rule) => rule.headers), withoutCaching);
  const named = rules.filter((rule) => Object.keys(rule.headers).some((name) => name !== 'Cache-Control'));
  assert.deepEqual(swRules.map((rule) => `/${rule.pattern}`), named.map((rule) => rule.path));
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
    // (`_headers` as Netlify or Cloudflare Pages read it: the policy, and the isolation, per path.)
    const server = await startServer({ root: DIST_SITE_DIR, mode: 'isolated', headersFile: delivery === 'header' });
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

/** A course page on another origin, not isolated, framing each of `sources` (`frame-<i>` by title). */
async function coursePage(t, sources) {
  const frames = sources.map((src, i) => `<iframe src="${src}" title="frame-${i}" width="800" height="600"></iframe>`).join('\n');
  const html = `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>Course</title><h1>Week 3</h1>\n${frames}`;
  const course = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: { '/course.html': html } });
  t.after(() => course.close());
  return course;
}

/** Whether the frame titled `title` shows the lab (else the browser refused to show it there). */
async function framedShowsTheLab(page, title, timeout = 30_000) {
  const handle = await page.locator(`iframe[title="${title}"]`).elementHandle();
  const start = Date.now();
  for (;;) {
    const frame = await handle.contentFrame();
    const shown = await frame?.evaluate(() => document.querySelector('main h1, [data-experiment]') !== null).catch(() => false);
    if (shown) return true;
    if (Date.now() - start > timeout) return false;
    await page.waitForTimeout(200);
  }
}

test('by `_headers`: another site may frame the embeds, in every language, and no other page', async (t) => {
  const app = await startServer({ root: DIST_SITE_DIR, mode: 'none', headersFile: true });
  t.after(() => app.close());
  const sources = ['/embed/experiments/sum', '/ru/embed/chapters/sum', '/chapters/sum', '/glossary', '/ru/chapters/sum', '/'];
  const course = await coursePage(t, sources.map((s) => app.url + s));
  const context = await browser.newContext({ serviceWorkers: 'block' });
  t.after(() => context.close());
  const page = await context.newPage();
  const refused = [];
  page.on('console', (message) => {
    // (Chromium names only the origin of a page it refused to show in another origin's frame.)
    const refusal = message.text().match(/^Refused to display '([^']+)' in a frame because it set 'X-Frame-Options' to 'deny'/);
    if (refusal) refused.push(new URL(refusal[1]).origin);
  });
  await page.goto(`${course.url}/course.html`);
  assert.equal(await framedShowsTheLab(page, 'frame-0'), true, 'the English embed is shown');
  assert.equal(await framedShowsTheLab(page, 'frame-1'), true, 'the Russian embed is shown');
  for (const [i, source] of sources.entries()) {
    if (i < 2) continue;
    assert.equal(await framedShowsTheLab(page, `frame-${i}`, 3000), false, `${source} is not shown in another site's frame`);
  }
  assert.deepEqual(refused, sources.slice(2).map(() => app.url), 'the browser refused the pages that are not embeds, and only them');
});

test('on a host without headers, the service worker sends what `_headers` gives, per path', async (t) => {
  // (The host sends nosniff only; the service worker adds the rest.)
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none' });
  t.after(() => server.close());
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null && crossOriginIsolated, null, { timeout: 60_000 });
  const engine = engineFolder('engine', DIST_SITE_DIR);
  const paths = ['/', '/chapters/sum/', '/ru/chapters/sum/', '/glossary/', '/embed/experiments/sum/', '/ja/embed/chapters/sum/', '/register-sw.js', `/${engine}/coordinator.js`];
  const names = ['Content-Security-Policy', 'X-Frame-Options', 'Document-Isolation-Policy', 'Cross-Origin-Opener-Policy', 'Cross-Origin-Embedder-Policy', 'Cross-Origin-Resource-Policy', 'X-Content-Type-Options'];
  const sent = await page.evaluate(async ({ paths, names }) => {
    const answers = {};
    for (const path of paths) {
      const response = await fetch(path);
      answers[path] = Object.fromEntries(names.map((name) => [name, response.headers.get(name)]).filter(([, value]) => value !== null));
    }
    return answers;
  }, { paths, names });
  const rules = headersFileRules(DIST_SITE_DIR);
  for (const path of paths) {
    const { 'Cache-Control': _caching, ...expected } = headersForPath(rules, path);
    assert.deepEqual(sent[path], expected, path);
  }
  assert.match(sent['/chapters/sum/']['Content-Security-Policy'], /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval';[^,]*$/);
  assert.match(sent['/embed/experiments/sum/']['Content-Security-Policy'], /, frame-ancestors \*$/);
});
