// The UI is split (cargo xtask build-app): every page loads the core module, and each experiment's
// panel brings its own code, fetched the first time a page shows that panel. The landing page loads
// no panel code, a chapter loads its own panels' code and no other's, and when that code cannot be
// fetched the panel says so with a Retry button while the rest of the page works on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CATALOG, SITE_DIR, clickAndWait, launch, newPage, serve } from '../lib.mjs';

let browser;
let server;
before(async () => {
  server = await serve('isolated');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The build's files per panel split (app-<hash>/chunks.json: bundles of chunks, and chunks alone). */
function chunks() {
  const folder = fs.readdirSync(SITE_DIR).find((f) => /^app-[0-9a-f]{16}$/.test(f));
  assert.ok(folder, `no app-<hash>/ folder in ${SITE_DIR}`);
  return JSON.parse(fs.readFileSync(path.join(SITE_DIR, folder, 'chunks.json'), 'utf8'));
}

/** A page that records the names of the app's chunk files it fetches. */
async function recordingPage() {
  const page = await newPage(browser);
  page.fetchedChunks = [];
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.match(/\/app-[0-9a-f]{16}\/((?:split|chunk|bundle)_[^/]+\.wasm)$/)?.[1];
    if (name) page.fetchedChunks.push(name);
  });
  return page;
}

/** The pictures an English chapter's prose places (its slots' `data-picture`), from the site's file. */
function picturesOf(slug) {
  const folder = path.join(SITE_DIR, 'content', 'en');
  const name = fs.readdirSync(folder).find((f) => new RegExp(`^${slug}-[0-9a-f]{16}\\.json$`).test(f));
  assert.ok(name, `the prose of ${slug} in ${folder}`);
  const { prose } = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8'));
  return [...prose.join('').matchAll(/data-picture="([a-z-]+)"/g)].map((m) => m[1]);
}

/** The files of the Sum panel's code that no other panel needs. */
function sumPanelOnly(needs) {
  const others = Object.entries(needs).filter(([split]) => split !== 'panel_sum').flatMap(([, files]) => files);
  return needs.panel_sum.filter((file) => !others.includes(file));
}

test('the landing page fetches no panel code; a chapter fetches its own panels’ code and no other’s', async () => {
  const needs = chunks();
  assert.ok(needs.panel_sum?.length > 0, JSON.stringify(Object.keys(needs)));
  const own = sumPanelOnly(needs);
  assert.ok(own.length > 0, 'the Sum panel has code of its own');
  const page = await recordingPage();
  await page.goto(`${server.url}/`);
  await page.locator('main h1').first().waitFor();
  await page.waitForTimeout(500);
  assert.deepEqual(page.fetchedChunks, [], 'the landing page loads the core only');

  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  for (const file of own) assert.ok(page.fetchedChunks.includes(file), `${file}: ${page.fetchedChunks.join(', ')}`);
  // The panel's later views (charts, timeline, comparison, sharing) are a split of their own.
  assert.ok(needs.views_sum?.length > 0, JSON.stringify(Object.keys(needs)));
  // The chapter's own panels (the catalog's, in its order) and their later views, and nothing else.
  const chapter = CATALOG.chapters.find((c) => c.slug === 'sum').experiments.map((name) => name.replaceAll('-', '_'));
  const chapterCode = chapter.flatMap((split) => [...(needs[`panel_${split}`] ?? []), ...(needs[`views_${split}`] ?? [])]);
  assert.ok(chapter.every((split) => needs[`panel_${split}`]?.length > 0), `a split per panel: ${chapter}`);
  // And the pictures its prose places, each a split of its own.
  const pictures = picturesOf('sum');
  assert.ok(pictures.includes('sum-split'), `the Sum places its pictures: ${pictures}`);
  const pictureCode = pictures.flatMap((name) => needs[`picture_${name.replaceAll('-', '_')}`] ?? []);
  const others = page.fetchedChunks.filter((f) => !chapterCode.includes(f) && !pictureCode.includes(f));
  assert.deepEqual(others, [], 'nothing the Sum chapter’s panels and pictures do not need');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('panel code that cannot be fetched: a notice with Retry, the prose stays, and Retry brings the panel', async () => {
  const page = await recordingPage();
  await page.route(/\/split_panel_sum\.wasm$/, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const notice = page.getByTestId('panel-failed');
  await notice.waitFor();
  assert.match(await notice.innerText(), /could not be loaded/);
  assert.ok((await page.locator('article.chapter .prose').count()) > 0, 'the chapter’s prose is there');
  assert.equal(await page.locator('section[data-experiment="sum"]').count(), 0);

  await page.unroute(/\/split_panel_sum\.wasm$/);
  await notice.getByRole('button', { name: 'Retry' }).click();
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await page.getByTestId('panel-failed').count(), 0);
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  // The refused file is reported in the console by the browser and the loader; nothing else is.
  const unexpected = page.problems.filter((p) => !/503|split_panel_sum|HTTP status code is not ok/i.test(p));
  assert.deepEqual(unexpected, []);
  await page.context().close();
});

test('a bundle of shared chunks that cannot be fetched: a notice with Retry, and Retry fetches it anew', async () => {
  const needs = chunks();
  // The Sum panel's largest bundle (several chunks back to back in one file).
  const folder = fs.readdirSync(SITE_DIR).find((f) => /^app-[0-9a-f]{16}$/.test(f));
  const bundles = needs.panel_sum.filter((file) => file.startsWith('bundle_'));
  assert.ok(bundles.length > 0, `the Sum panel loads no bundle: ${needs.panel_sum}`);
  const size = (file) => fs.statSync(path.join(SITE_DIR, folder, file)).size;
  const bundle = bundles.sort((a, b) => size(b) - size(a))[0];
  const pattern = new RegExp(`/${bundle.replace('.', '\\.')}$`);
  const page = await recordingPage();
  let refused = 0;
  await page.route(pattern, (route) => { refused += 1; return route.fulfill({ status: 503, body: 'unavailable' }); });
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  // The Sum chapter's other panel may share the bundle and say so too: the first notice is Sum's.
  const notice = page.getByTestId('panel-failed').first();
  await notice.waitFor();
  assert.ok(refused >= 1, `${bundle} was asked for`);
  assert.equal(await page.locator('section[data-experiment="sum"]').count(), 0);

  await page.unroute(pattern);
  const before = page.fetchedChunks.filter((f) => f === bundle).length;
  await notice.getByRole('button', { name: 'Retry' }).click();
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.ok(page.fetchedChunks.filter((f) => f === bundle).length > before, 'Retry fetched the bundle again');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const unexpected = page.problems.filter((p) => !new RegExp(`503|${bundle.replace('.', '\\.')}|HTTP status code is not ok|Service Unavailable`, 'i').test(p));
  assert.deepEqual(unexpected, []);
  await page.context().close();
});

test('a panel’s later views come after the engine’s files, and when they cannot be fetched Run works and Retry brings them', async () => {
  const page = await recordingPage();
  // When each answer ended, and when each views file was asked for (the order is what is checked).
  const events = [];
  page.on('requestfinished', (request) => {
    if (/\/engine(-[0-9a-f]{16})?\/engine_bg\.wasm$/.test(new URL(request.url()).pathname)) events.push('engine finished');
  });
  page.on('request', (request) => {
    if (/\/split_views_sum\.wasm$/.test(new URL(request.url()).pathname)) events.push('views asked');
  });
  let refused = 0;
  await page.route(/\/split_views_sum\.wasm$/, (route) => { refused += 1; return route.fulfill({ status: 503, body: 'unavailable' }); });
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  const notice = panel.getByTestId('views-failed');
  await notice.waitFor();
  assert.ok(refused >= 1);
  assert.ok(events.indexOf('engine finished') >= 0 && events.indexOf('engine finished') < events.indexOf('views asked'), events.join(', '));
  assert.match(await notice.innerText(), /could not be loaded/);
  // Runs work without the views: the results table is the panel's own.
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.ok((await panel.locator('table.results tbody tr').count()) > 0, 'the results table has rows');
  assert.equal(await panel.getByTestId('sweep').count(), 0);

  await page.unroute(/\/split_views_sum\.wasm$/);
  await notice.getByRole('button', { name: 'Retry' }).click();
  await panel.getByTestId('sweep').waitFor();
  await panel.getByTestId('sum-timeline').waitFor();
  assert.equal(await panel.getByTestId('views-failed').count(), 0);
  const unexpected = page.problems.filter((p) => !/503|split_views_sum|HTTP status code is not ok|Service Unavailable/i.test(p));
  assert.deepEqual(unexpected, []);
  await page.context().close();
});

test('a panel’s later views do not wait for good on an engine download that stalls', async () => {
  const page = await recordingPage();
  // The engine's module is asked for and never answered (a stalled link).
  await page.route(/\/engine(-[0-9a-f]{16})?\/engine_bg\.wasm$/, () => {});
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await panel.getByTestId('views-loading').count(), 1, 'the views wait for the engine first');
  // LaterCode fetches them anyway after 15 s.
  await panel.getByTestId('sweep').waitFor({ timeout: 60_000 });
  assert.equal(await panel.getByTestId('views-loading').count(), 0);
  await page.context().close();
});
