// The deployable site from `cargo xtask dist` (target/site, or DIST_SITE_DIR) on a static host:
// isolation through the service worker where the host sends no headers (GitHub Pages), deep links
// without server rewrites, every chapter offline after one visit, and clean updates.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { assertWorkersUsed, clickAndWait, engineFolder, launch, openFromChapterMenu, waitForOutcome } from '../lib.mjs';
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

/** A page in a fresh context (its own service workers and caches) that records errors like lib's newPage. */
async function openPage(contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.loads = 0;
  page.on('load', () => page.loads++);
  page.on('dialog', (dialog) => (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()));
  return page;
}

/** Wait until the page has loaded `count` times in all (the service worker's reload is one). */
async function waitForLoads(page, count, timeout = 60_000) {
  const start = Date.now();
  while (page.loads < count) {
    if (Date.now() - start > timeout) throw new Error(`only ${page.loads} of ${count} loads`);
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState('load');
}

const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });

/** The chapter slugs the site has a page for. */
function chapterSlugs(root = DIST_SITE_DIR) {
  return fs.readdirSync(path.join(root, 'chapters')).sort();
}

/**
 * A new engine build deployed into the site copy `dir`, as `cargo xtask build` would bring it: both
 * engines' folders named after `newBuild` (the old folders gone, as a host replaces the whole site),
 * their coordinators and every page stamped with it, and the service worker's list of files to
 * store naming the new folders. `note` is added to the threaded engine's coordinator. Returns the
 * old build.
 */
function deployEngineBuild(dir, newBuild, note = '') {
  const oldBuild = engineFolder('engine', dir).slice('engine-'.length);
  assert.match(oldBuild, /^[0-9a-f]{16}$/, 'the site is stamped with a build');
  const rewrite = (file, from, to) => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll(from, to));
  for (const name of ['engine', 'engine-single']) {
    const folder = path.join(dir, `${name}-${newBuild}`);
    fs.renameSync(path.join(dir, `${name}-${oldBuild}`), folder);
    rewrite(path.join(folder, 'coordinator.js'), oldBuild, newBuild);
    if (name === 'engine' && note) fs.appendFileSync(path.join(folder, 'coordinator.js'), note);
  }
  const pages = fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.html'));
  for (const file of pages) rewrite(path.join(dir, file), `content="${oldBuild}"`, `content="${newBuild}"`);
  rewrite(path.join(dir, 'sw.js'), `-${oldBuild}/`, `-${newBuild}/`);
  return oldBuild;
}

/** A copy of the site in a temporary folder, to change files in. */
function copySite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-site-'));
  fs.cpSync(DIST_SITE_DIR, dir, { recursive: true });
  return dir;
}

test('without isolation headers, the first visit registers the service worker, reloads once, and threads run', async (t) => {
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none' });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum?n=100000&reps=1`);
  // The first load is not isolated; the service worker takes over and the page reloads, once.
  await waitForLoads(page, 2);
  assert.ok(server.requests.includes('/sw.js'), 'sw.js was fetched');
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.match(await panel.getByTestId('machine-line').innerText(), /isolated: yes/);
  // Later pages are isolated from their first load: no more reloads.
  await page.goto(`${server.url}/chapters/document-search`);
  await page.locator('main h1').waitFor();
  await page.waitForTimeout(1000);
  assert.equal(page.loads, 3, 'one load per navigation from now on');
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.deepEqual(page.problems, []);
});

test("the service worker's first-visit reload waits while a run is going, and keeps the rows measured before it", async (t) => {
  // A run of slow reads (about 10 s a job) is under way when the service worker takes over: sw.js
  // is held back 4 s, so the worker cannot take over before the autorun has started (on a busy
  // machine it once did, and the page rightly reloaded before anything was at stake).
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: { '/sw.js': { delayMs: 4000 } } });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/document-search?workers=1&tasks=1&docs=1000&latency=10&reps=1&autorun=1`);
  const search = page.locator('section[data-experiment="document-search"]');
  await page.waitForFunction(() => document.documentElement.dataset.labRunning === 'true', null, { timeout: 60_000 });
  await controlled(page);
  await page.waitForTimeout(3000);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.labRunning), 'true', 'the run is still going');
  assert.equal(page.loads, 1, 'no reload while a run is going');
  await search.getByRole('button', { name: 'Stop', exact: true }).click();
  await waitForLoads(page, 2);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  assert.deepEqual(page.problems, []);

  // sw.js held back: an autorun's results are there before the service worker takes over. They
  // come back after its reload (the tab keeps them), so the reload does not wait for a download.
  const held = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: { '/sw.js': { delayMs: 6000 } } });
  t.after(() => held.close());
  const second = await openPage();
  t.after(() => second.context().close());
  await second.goto(`${held.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1&autorun=1`);
  const panel = second.locator('section[data-experiment="sum"]');
  await panel.locator('table.results tr[data-variant]').first().waitFor({ timeout: 60_000 });
  await waitForLoads(second, 2);
  assert.equal(await second.evaluate(() => crossOriginIsolated), true);
  // The reload opens the address the reader opened (autorun included): its run is run 2, after the
  // two rows kept from before the reload.
  const reloaded = second.locator('section[data-experiment="sum"]');
  assert.equal(await waitForOutcome(reloaded, 60_000), 'finished');
  const runs = await reloaded.locator('table.results [data-testid="row-run"]').allInnerTexts();
  assert.deepEqual(runs, ['1', '1', '2', '2'], 'the rows measured before the reload are kept');
  assert.deepEqual(second.problems, []);
});

test('a browser that does not isolate through the service worker reloads once, not in a loop', async (t) => {
  // A service worker that adds no headers stands in for a browser that ignores them.
  const code = fs.readFileSync(path.join(DIST_SITE_DIR, 'sw.js'), 'utf8');
  const inert = code.replace(/^self\.__HEADERS = \[[\s\S]*?\n\];$/m, 'self.__HEADERS = [];');
  assert.notEqual(inert, code);
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: { '/sw.js': inert } });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum`);
  await waitForLoads(page, 2);
  await page.getByTestId('machine-line').or(page.getByTestId('unavailable')).first().waitFor();
  await page.waitForTimeout(3000);
  assert.equal(page.loads, 2, 'exactly one reload');
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
  assert.deepEqual(page.problems, []);
});

/**
 * A static server without any fallback to index.html, answering like GitHub Pages: a file, a
 * folder without its slash is redirected to it, a folder is its index.html, anything else is
 * 404.html with status 404.
 */
function startPlainServer(root) {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };
  const log = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) return res.writeHead(403).end();
    let stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        log.push([url.pathname, 301]);
        return res.writeHead(301, { Location: url.pathname + '/' + url.search }).end();
      }
      file = path.join(file, 'index.html');
      stat = fs.statSync(file, { throwIfNoEntry: false });
    }
    let status = 200;
    if (!stat) {
      status = 404;
      file = path.join(root, '404.html');
    }
    log.push([url.pathname, status]);
    res.writeHead(status, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
  })));
}

test('on a host that sends no headers at all, the service worker adds nosniff to every file it serves', async (t) => {
  const server = await startPlainServer(fs.realpathSync(DIST_SITE_DIR));
  t.after(() => server.close());
  const engine = engineFolder('engine', DIST_SITE_DIR);
  const files = ['/', '/chapters/sum/', '/register-sw.js', `/${engine}/coordinator.js`, `/${engine}/engine_bg.wasm`, `/${engine}/pool-worker.js`];
  for (const file of files) {
    const response = await fetch(server.url + file);
    assert.equal(response.status, 200, file);
    assert.equal(response.headers.get('X-Content-Type-Options'), null, `the host itself sends no nosniff for ${file}`);
  }
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/`);
  await waitForLoads(page, 2);
  await controlled(page);
  const sent = await page.evaluate(async (files) => {
    const answers = await Promise.all(files.map(async (file) => [file, (await fetch(file)).headers.get('X-Content-Type-Options')]));
    return Object.fromEntries(answers);
  }, files);
  assert.deepEqual(sent, Object.fromEntries(files.map((file) => [file, 'nosniff'])));
  assert.deepEqual(page.problems, []);
});

test('the service worker answers only the lab: another site under the same origin is left alone', async (t) => {
  // The lab at the origin's root, and another site beside it (as under https://you.github.io/).
  const other = (version) => ({
    '/other-site/': { type: 'text/html; charset=utf-8', body: `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>Other</title><p id=v>${version}</p>` },
    '/other-site/data.json': { type: 'application/json', body: JSON.stringify({ version }) },
  });
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: other('one') });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum`);
  await waitForLoads(page, 2);
  await controlled(page);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the lab is isolated by its service worker');
  // The lab's own pages and files come through it.
  const lab = await page.goto(`${server.url}/chapters/document-search`);
  assert.equal(lab.fromServiceWorker(), true, 'a route of the lab is answered by the service worker');
  // A page of the other site: from the network, as the server sent it, not isolated, not stored.
  for (const version of ['one', 'two']) {
    Object.assign(server.overrides, other(version));
    const before = server.requests.length;
    const response = await page.goto(`${server.url}/other-site/`);
    assert.equal(response.fromServiceWorker(), false, `the other site's page (${version}) does not come from the service worker`);
    assert.equal(await page.locator('#v').innerText(), version, 'the server\'s current page, not a stored one');
    assert.ok(server.requests.slice(before).includes('/other-site/'), 'the request reached the server');
    const headers = response.headers();
    for (const name of ['cross-origin-embedder-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'content-security-policy', 'x-frame-options', 'document-isolation-policy']) {
      assert.equal(headers[name], undefined, `no ${name} added to the other site's page`);
    }
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    // Its own requests too.
    const data = await page.evaluate(async () => {
      const response = await fetch('data.json');
      return { body: await response.json(), coep: response.headers.get('Cross-Origin-Embedder-Policy'), csp: response.headers.get('Content-Security-Policy') };
    });
    assert.deepEqual(data, { body: { version }, coep: null, csp: null });
  }
  // Nothing of it was stored in the lab's cache.
  const stored = await page.evaluate(async () => {
    const names = await caches.keys();
    const urls = [];
    for (const name of names) urls.push(...(await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname));
    return urls.filter((url) => url.startsWith('/other-site/'));
  });
  assert.deepEqual(stored, []);
  assert.deepEqual(page.problems, []);
});

test('deep links load on a static server that never falls back to index.html', async (t) => {
  const server = await startPlainServer(fs.realpathSync(DIST_SITE_DIR));
  t.after(() => server.close());
  const page = await openPage({ serviceWorkers: 'block' });
  t.after(() => page.context().close());
  const slugs = chapterSlugs();
  assert.ok(slugs.includes('sum') && slugs.length >= 6, `chapters: ${slugs}`);
  const experiments = fs.readdirSync(path.join(DIST_SITE_DIR, 'embed/experiments'));
  assert.ok(experiments.includes('sum'), `embeddable experiments: ${experiments}`);
  const addresses = [
    ...slugs.flatMap((slug) => [`/chapters/${slug}`, `/chapters/${slug}/`, `/embed/chapters/${slug}`]),
    ...experiments.map((name) => `/embed/experiments/${name}`),
    '/glossary',
    '/glossary/',
    '/how-the-lab-works',
    '/how-the-lab-works/',
  ];
  for (const address of addresses) {
    const response = await page.goto(server.url + address);
    assert.equal(response.status(), 200, address);
    await page.locator('h1, [data-experiment], [data-testid="not-found"]').first().waitFor();
    assert.equal(await page.getByTestId('not-found').count(), 0, `${address} shows its page`);
  }
  const response = await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4`);
  assert.equal(response.status(), 200);
  assert.equal(await page.locator('section[data-experiment="sum"]').getByLabel('Tasks', { exact: true }).inputValue(), '4');
  assert.deepEqual(server.log.filter(([, status]) => status === 404), [], 'nothing was missing');
  assert.deepEqual(page.problems, []);
  // Any other address gets 404.html: the app, which shows its own not-found page.
  const missing = await page.goto(`${server.url}/chapters/no-such-chapter`);
  assert.equal(missing.status(), 404);
  await page.getByTestId('not-found').waitFor();
  assert.deepEqual(server.log.filter(([, status]) => status === 404), [['/chapters/no-such-chapter', 404]]);
  // The browser reports the page's own 404 status, nothing else.
  assert.deepEqual(page.problems, ['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
});

test('after one visit every chapter works offline, experiments included', async (t) => {
  const server = await startServer({ root: DIST_SITE_DIR, mode: 'none' });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum`);
  await waitForLoads(page, 2);
  await controlled(page);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  // Offline for real: the browser is told so and the server is gone.
  await page.context().setOffline(true);
  await server.close();
  // A chapter never visited, with a run on load: page, app, engine and workers all come from the cache.
  await page.goto(`${server.url}/chapters/document-search?workers=2&tasks=4&docs=100&latency=1&reps=1&autorun=1`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const panel = page.locator('section[data-experiment="document-search"]');
  await panel.waitFor();
  assert.equal(await waitForOutcome(panel, 60_000), 'finished');
  for (const text of await panel.locator('table.results tbody tr[data-variant] td.check').allInnerTexts()) {
    assert.match(text, /correct/);
  }
  // Every chapter's page is there, its prose (fetched on demand, precached) included.
  for (const slug of chapterSlugs()) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator('main h1').waitFor();
    assert.equal(await page.getByTestId('not-found').count(), 0, slug);
    await page.locator('article.chapter .prose').first().waitFor();
    assert.equal(await page.getByTestId('prose-failed').count(), 0, slug);
  }
  assert.deepEqual(page.problems, []);
});

/** A copy of the site (see copySite) served with isolation headers, and a fresh page; all ended after `t`. */
async function servedCopy(t) {
  const dir = copySite();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const server = await startServer({ root: dir, mode: 'isolated' });
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  return { dir, server, page };
}

test('a new version installs, takes over, and deletes the old caches', async (t) => {
  const { dir, server, page } = await servedCopy(t);
  await page.goto(`${server.url}/`);
  await controlled(page);
  const swFile = path.join(dir, 'sw.js');
  const oldCode = fs.readFileSync(swFile, 'utf8');
  const oldVersion = oldCode.match(/self\.__VERSION = '([^']+)'/)[1];
  const cacheNames = () => page.evaluate(() => caches.keys());
  const before = await cacheNames();
  assert.equal(before.length, 1);
  assert.ok(before[0].endsWith(oldVersion), `${before} is version ${oldVersion}`);

  // Build B as a deployment would bring it: a page whose start-up script has a new hashed name,
  // a changed engine (a new build, so new folders), and the service worker's new version.
  const newVersion = `${oldVersion}b`;
  fs.writeFileSync(swFile, oldCode.replace(`self.__VERSION = '${oldVersion}'`, `self.__VERSION = '${newVersion}'`));
  const indexFile = path.join(dir, 'index.html');
  const pageA = fs.readFileSync(indexFile, 'utf8');
  const initA = pageA.match(/src="\/(init-[0-9a-f]{16}\.js)"/)[1];
  const initB = 'init-0123456789abcdef.js';
  fs.copyFileSync(path.join(dir, initA), path.join(dir, initB));
  const pageB = pageA
    // A marker of its own (the app rewrites the description with each page's summary).
    .replace('</head>', '<meta name="test-version" content="version B" /></head>')
    .replace(initA, initB);
  assert.notEqual(pageB, pageA);
  fs.writeFileSync(indexFile, pageB);
  const buildB = 'b0b0b0b0b0b0b0b0';
  deployEngineBuild(dir, buildB, '\n// version B\n');

  // The first reload is answered by version A's worker: the page comes from the network (B), and
  // so does the engine, not from A's cache (a page of B never meets A's engine).
  await page.reload();
  assert.equal(await page.locator('meta[name="test-version"]').getAttribute('content'), 'version B');
  const coordinatorB = `/engine-${buildB}/coordinator.js`;
  assert.match(await page.evaluate(async (file) => (await fetch(file)).text(), coordinatorB), /version B/);
  // Meanwhile B's worker installs and takes over at once.
  const start = Date.now();
  let names = [];
  while (!(names.length === 1 && names[0].endsWith(newVersion))) {
    assert.ok(Date.now() - start < 60_000, `caches ${names}: version ${newVersion} did not take over`);
    await page.waitForTimeout(100);
    names = await cacheNames();
  }
  // The second reload is served by it, from its fresh cache.
  await page.reload();
  await controlled(page);
  assert.deepEqual((await cacheNames()).map((n) => n.endsWith(newVersion)), [true]);
  assert.equal(await page.locator('meta[name="test-version"]').getAttribute('content'), 'version B');
  const stored = await page.evaluate(async (coordinator) => ({
    index: await (await caches.match('/index.html')).text(),
    coordinator: await (await caches.match(coordinator)).text(),
  }), coordinatorB);
  assert.match(stored.index, /content="version B"/);
  assert.match(stored.coordinator, /version B/);
  const registration = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return { waiting: r.waiting !== null, installing: r.installing !== null, controlledByActive: r.active === navigator.serviceWorker.controller };
  });
  assert.deepEqual(registration, { waiting: false, installing: false, controlledByActive: true });
  assert.deepEqual(page.problems, []);
});

test('a page open when a new version installs never runs on the new engine: it says to reload, and after a reload runs', async (t) => {
  const { dir, server, page } = await servedCopy(t);
  // Version N: the reader opens a chapter and has not run anything yet (no engine started).
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=2&n=100000&reps=1`);
  await controlled(page);
  const swFile = path.join(dir, 'sw.js');
  const oldCode = fs.readFileSync(swFile, 'utf8');
  const oldVersion = oldCode.match(/self\.__VERSION = '([^']+)'/)[1];
  const coordinator = path.join(dir, engineFolder('engine', dir), 'coordinator.js');
  const oldBuild = fs.readFileSync(coordinator, 'utf8').match(/const ENGINE_BUILD = '([0-9a-f]{16})';/)[1];
  assert.equal(await page.locator('meta[name="lab-engine-build"]').getAttribute('content'), oldBuild);

  // Version N+1 is deployed: a new engine build (its own folders, named in every page) and a new
  // worker. This page's engine folder is gone from the host.
  const newBuild = 'feedfacecafebeef';
  const newVersion = `${oldVersion}n`;
  fs.writeFileSync(swFile, oldCode.replace(`self.__VERSION = '${oldVersion}'`, `self.__VERSION = '${newVersion}'`));
  assert.equal(deployEngineBuild(dir, newBuild), oldBuild);
  // It installs and takes over the open page (which is not reloaded).
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  const start = Date.now();
  for (let names = []; !(names.length === 1 && names[0].endsWith(newVersion)); names = await page.evaluate(() => caches.keys())) {
    assert.ok(Date.now() - start < 60_000, `caches ${names}: version ${newVersion} did not take over`);
    await page.waitForTimeout(100);
  }

  // The page of version N now starts its engine: its folder is gone, the site's pages name another
  // build, and the page says to reload.
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run', 60_000), 'failed');
  assert.match(await panel.getByTestId('outcome').innerText(), /a new version of the lab was installed while this page was open.*Reload the page/);
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 0, 'nothing was measured by the other build');
  // After a reload the page is version N+1, and so is its engine.
  await page.reload();
  await controlled(page);
  assert.equal(await page.locator('meta[name="lab-engine-build"]').getAttribute('content'), newBuild);
  const reloaded = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(reloaded, 'Run', 60_000), 'finished');
  // The old page asked for its engine's files, which the deployment removed: the browser logs
  // each 404 (the engine's start and the page's search for the file at fault); nothing else.
  const unexpected = page.problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p));
  assert.deepEqual(unexpected, []);
  assert.ok(page.problems.length <= 8, `at most the engine's files, twice: ${page.problems.join('; ')}`);
});

/**
 * A new version of the app deployed into the site copy `dir`: its folder `app-<hash>/` has another
 * name (so the old one is gone from the host, as a host replaces the whole site), every file that
 * names it names the new one, and the English texts have new hashed names. Returns the new name.
 */
const renamedTexts = new Map();
function deployAppBuild(dir) {
  const oldApp = fs.readdirSync(dir).find((f) => /^app-[0-9a-f]{16}$/.test(f));
  assert.ok(oldApp, 'the site has an app folder');
  const newApp = 'app-0123456789abcdef';
  fs.renameSync(path.join(dir, oldApp), path.join(dir, newApp));
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => /\.(html|js|json)$/.test(f));
  for (const file of files) {
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    if (text.includes(oldApp)) fs.writeFileSync(full, text.replaceAll(oldApp, newApp));
  }
  const english = path.join(dir, 'content', 'en');
  for (const file of fs.readdirSync(english).filter((f) => /-[0-9a-f]{16}\.json$/.test(f))) {
    const renamed = file.replace(/-[0-9a-f]{16}\.json$/, '-0000000000000000.json');
    fs.renameSync(path.join(english, file), path.join(english, renamed));
    renamedTexts.set(renamed, file);
  }
  return newApp;
}

test('a part of a page gone after a deployment says to reload, not to try again; after a reload the new version works', async (t) => {
  const dir = copySite();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const server = await startServer({ root: dir, mode: 'isolated' });
  t.after(() => server.close());
  // No service worker: its cache would still answer with the old version's files (a browser
  // without one, or after a new one has deleted the old cache, as the test above shows).
  const page = await openPage({ serviceWorkers: 'block' });
  t.after(() => page.context().close());
  await page.goto(`${server.url}/chapters/sum`);
  await page.locator('section[data-experiment="sum"] button', { hasText: 'Run' }).first().waitFor();

  // Control: a file missing while the site still serves this version (a broken host, not a new
  // version) keeps the "try again" notice.
  const folder = fs.readdirSync(dir).find((f) => /^app-[0-9a-f]{16}$/.test(f));
  const panelFile = path.join(dir, folder, 'split_panel_hashing.wasm');
  fs.renameSync(panelFile, `${panelFile}.away`);
  await openFromChapterMenu(page, 'hashing');
  const failed = page.getByTestId('panel-failed');
  await failed.waitFor({ timeout: 30_000 });
  assert.match(await failed.innerText(), /try again/);
  assert.equal(await failed.getByTestId('new-version').isVisible(), false);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.labNewVersion ?? null), null);
  fs.renameSync(`${panelFile}.away`, panelFile);

  // A new version is deployed while the page is open; the reader moves to a chapter not seen yet.
  deployAppBuild(dir);
  await openFromChapterMenu(page, 'document-search');
  const panelGone = page.getByTestId('panel-failed');
  await panelGone.waitFor({ timeout: 30_000 });
  const proseGone = page.getByTestId('prose-failed');
  await proseGone.waitFor({ timeout: 30_000 });
  for (const notice of [panelGone, proseGone]) {
    const text = await notice.innerText();
    assert.match(text, /A new version of the lab was published.*Reload the page/s);
    assert.doesNotMatch(text, /try again|press Retry/i);
    assert.equal(await notice.getByRole('button', { name: 'Retry' }).isVisible(), false);
  }
  // The reload brings the new version, and the chapter works. (The copied app still names the
  // texts' old files: put them back, as the new version's texts would be there.)
  const english = path.join(dir, 'content', 'en');
  for (const file of fs.readdirSync(english).filter((f) => f.endsWith('-0000000000000000.json'))) {
    const hash = renamedTexts.get(file);
    if (hash) fs.renameSync(path.join(english, file), path.join(english, hash));
  }
  await page.reload();
  const panel = page.locator('section[data-experiment="document-search"]');
  await panel.locator('button', { hasText: 'Run' }).first().waitFor({ timeout: 30_000 });
  await page.locator('article.chapter .prose').first().waitFor();
  assert.equal(await page.getByTestId('panel-failed').count(), 0);
  assert.equal(await page.getByTestId('prose-failed').count(), 0);
  // The old page's loads of its removed files are logged (404s, and the chunk loader's error).
  const unexpected = page.problems.filter((p) => !/status of 404|HTTP status code is not ok/.test(p));
  assert.deepEqual(unexpected, []);
});

/** A course page on another origin, without isolation headers, framing `src`. */
async function coursePage(t, src) {
  const html = `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>Course</title>
<h1>Week 3</h1><iframe src="${src}" title="Sum" width="100%" height="900"></iframe>`;
  const course = await startServer({ root: DIST_SITE_DIR, mode: 'none', overrides: { '/course.html': html } });
  t.after(() => course.close());
  return course;
}

/** The embed's frame once its document is cross-origin isolated (after the service worker's reload, if any). */
async function isolatedFrame(page, timeout = 60_000) {
  const start = Date.now();
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes('/embed/'));
    const isolated = await frame?.evaluate(() => crossOriginIsolated).catch(() => false);
    if (isolated) return frame;
    assert.ok(Date.now() - start < timeout, 'the embed never became cross-origin isolated');
    await page.waitForTimeout(100);
  }
}

for (const host of ['GitHub Pages (no headers: the service worker)', 'Netlify or Cloudflare Pages (_headers)']) {
  test(`an embed in a course page that is not isolated runs on real workers: ${host}`, async (t) => {
    const byHeaders = host.includes('_headers');
    // The headers `_headers` gives each path, as those hosts send them.
    const app = await startServer({ root: DIST_SITE_DIR, mode: 'none', headersFile: byHeaders });
    t.after(() => app.close());
    const course = await coursePage(t, `${app.url}/embed/experiments/sum?workers=2&tasks=2&n=20000000&reps=1&autorun=1`);
    const page = await openPage(byHeaders ? { serviceWorkers: 'block' } : {});
    t.after(() => page.context().close());
    await page.goto(`${course.url}/course.html`);
    assert.equal(await page.evaluate(() => crossOriginIsolated), false, 'the course page is not isolated');
    const frame = await isolatedFrame(page);
    if (!byHeaders) {
      assert.equal(await frame.evaluate(() => navigator.serviceWorker.controller !== null), true);
    }
    // The reload kept the address the course page asked for: autorun and two workers.
    const panel = frame.locator('section[data-experiment="sum"]');
    assert.equal(await waitForOutcome(panel), 'finished');
    const lanes = panel.getByTestId('sum-timeline').locator('table.timeline-workers tbody tr');
    // Real threads: the lanes are workers of the pool of two (whether both took a task is the
    // scheduler's call on a busy machine, so it is not asserted here).
    assertWorkersUsed(await lanes.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker))), 2, 2, { longTasks: false });
    assert.deepEqual(page.problems, []);
  });
}

const PROJECT_SITE_DIR = process.env.PROJECT_SITE_DIR || path.resolve(import.meta.dirname, '../../target/project-site');

test('a site built with --public-url /lab/ keeps every link, file and worker under /lab/', async (t) => {
  if (!fs.existsSync(path.join(PROJECT_SITE_DIR, 'lab/sw.js'))) {
    throw new Error(`no project-page site in ${PROJECT_SITE_DIR}/lab: \`cargo xtask test\` builds it`);
  }
  // A static host that sends no headers, serving the site at /lab/ as GitHub Pages does a project.
  const server = await startPlainServer(fs.realpathSync(PROJECT_SITE_DIR));
  t.after(() => server.close());
  const page = await openPage();
  t.after(() => page.context().close());
  await page.goto(`${server.url}/lab/`);
  await waitForLoads(page, 2);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the service worker isolates /lab/');
  const main = page.locator('main');
  await main.locator('a[href*="chapters/"]').first().waitFor();
  const hrefs = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length > 10, `links: ${hrefs}`);
  assert.deepEqual(hrefs.filter((href) => !href.startsWith('/lab/')), [], 'every site link stays under /lab/');
  // Following a link, reloading it and running an experiment all stay under /lab/.
  await main.locator('a[href="/lab/chapters/sum"]').first().click();
  await page.waitForURL(`${server.url}/lab/chapters/sum`);
  await page.reload();
  await page.locator('section[data-experiment="sum"]').waitFor();
  await page.goto(`${server.url}/lab/chapters/sum?n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.match(await panel.getByTestId('machine-line').innerText(), /isolated: yes/);
  // (A folder without its slash is redirected to it, as GitHub Pages does.)
  const outside = server.log.filter(([address, status]) => !address.startsWith('/lab/') || ![200, 301].includes(status));
  assert.deepEqual(outside, [], 'every request was for a file under /lab/, and found');
  assert.deepEqual(page.problems, []);
});

// oEmbed (issue 18): the project-page site is built for https://lab.example/lab/ (`cargo xtask
// test`); served here as a static host would, each route page's discovery link resolves (address
// mapped to this server) to a `rich` answer whose iframe embeds the right route, and that route loads.
const PROJECT_SITE_ADDRESS = 'https://lab.example/lab/';

test('every route page of the deployed site links an oEmbed answer that embeds the right route', async (t) => {
  const root = path.join(PROJECT_SITE_DIR, 'lab');
  if (!fs.existsSync(path.join(root, 'oembed'))) {
    throw new Error(`no oEmbed answers in ${root}: \`cargo xtask test\` builds the project site with them`);
  }
  const server = await startPlainServer(fs.realpathSync(PROJECT_SITE_DIR));
  t.after(() => server.close());
  const local = (address) => {
    assert.ok(address.startsWith(PROJECT_SITE_ADDRESS), `${address} is on the site`);
    return `${server.url}/lab/${address.slice(PROJECT_SITE_ADDRESS.length)}`;
  };
  // Every route folder that holds a page, in every language (English at the top, the others under
  // their tag): chapters/<slug> and embed/{chapters,experiments}/<name>.
  const languages = ['', ...fs.readdirSync(root).filter((d) => /^[a-z]{2}$/.test(d) && fs.existsSync(path.join(root, d, 'chapters'))).map((d) => `${d}/`)];
  assert.ok(languages.length >= 5, `languages: ${languages}`);
  const routes = [];
  for (const lang of languages) {
    for (const top of ['chapters', 'embed/chapters', 'embed/experiments']) {
      for (const name of fs.readdirSync(path.join(root, lang, top))) {
        if (fs.existsSync(path.join(root, lang, top, name, 'index.html'))) routes.push([lang, `${top}/${name}`]);
      }
    }
  }
  assert.ok(routes.filter(([lang, r]) => !lang && r.startsWith('chapters/')).length >= 10, `chapter routes: ${routes}`);
  assert.ok(routes.filter(([lang, r]) => !lang && r.startsWith('embed/experiments/')).length >= 12, `experiment routes: ${routes}`);
  const providers = new Set();
  for (const [lang, page] of routes) {
    const route = `${lang}${page}`;
    const html = await (await fetch(`${server.url}/lab/${route}/`)).text();
    const links = [...html.matchAll(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
    assert.equal(links.length, 1, `${route}: one oEmbed discovery link`);
    const response = await fetch(local(links[0]));
    assert.equal(response.status, 200, `${route}: ${links[0]} resolves`);
    const answer = await response.json();
    assert.equal(answer.version, '1.0');
    assert.equal(answer.type, 'rich');
    assert.equal(answer.provider_url, PROJECT_SITE_ADDRESS);
    assert.ok(answer.title.length > 0 && answer.height >= 600 && answer.width > 0, JSON.stringify(answer));
    const src = answer.html.match(/^<iframe src="([^"]+)" title="[^"]+"/)?.[1];
    assert.ok(src, `${route}: the answer's HTML is an iframe with a title: ${answer.html}`);
    const expected = page.startsWith('chapters/') ? `${lang}embed/${page}` : route;
    providers.add(answer.provider_name);
    assert.equal(src, `${PROJECT_SITE_ADDRESS}${expected}`, `${route}: the iframe embeds ${expected}`);
    const embedded = await fetch(`${local(src)}/`);
    assert.equal(embedded.status, 200, `${route}: ${src} is a page of the site`);
  }
  assert.equal(providers.size, languages.length, `the provider is named in each language: ${[...providers]}`);
});
