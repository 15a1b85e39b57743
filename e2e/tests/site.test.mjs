// The site around the chapters: landing page, navigation with stable URLs, unknown addresses,
// phone width, and a page served without cross-origin isolation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, clickAndWait, launch, newPage, serve, waitForOutcome, ENGINE, ENGINE_SINGLE } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('the landing page lists the chapters and navigation gives each a stable URL', async () => {
  const server = await serve('isolated');
  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.getByRole('heading', { level: 1, name: 'Concurrency Lab' }).waitFor();
  const chapterLinks = page.locator('.chapter-list a');
  assert.ok((await chapterLinks.count()) >= 2);
  await page.getByRole('link', { name: 'Start with chapter 1' }).click();
  await page.waitForURL(/\/chapters\/concurrency-vs-parallelism$/);
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Concurrency is not parallelism');
  await page.getByRole('link', { name: /Next/ }).click();
  // The OS scheduler writes the settings it shows into the query on arrival.
  await page.waitForURL(/\/chapters\/os-scheduler(\?.*)?$/);
  assert.match(await page.title(), /How an operating system schedules threads/);
  // A chapter URL loads directly (deep link), and the browser's back button works.
  await page.goBack();
  await page.waitForURL(/concurrency-vs-parallelism/);
  await page.goto(server.url + '/chapters/sum');
  await page.locator('section[data-experiment="sum"]').waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test("the browser's locale data is loaded by a worker that ends, with or without isolation", async () => {
  // www/warm-intl.js: a page's first Intl formatter reads the browser's locale data (30-140 ms);
  // a worker pays that, off the main thread. Cross-origin isolation must not stop it from starting.
  for (const mode of ['isolated', 'none']) {
    const server = await serve(mode);
    const page = await newPage(browser);
    const ended = new Promise((resolve) => {
      page.on('worker', (worker) => {
        if (new URL(worker.url()).pathname.endsWith('/warm-intl.js')) worker.on('close', () => resolve(worker.url()));
      });
    });
    await page.goto(server.url + '/chapters/sum');
    const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 20_000));
    const url = await Promise.race([ended, timeout]);
    assert.ok(url, `${mode}: no warm-intl.js worker started and ended within 20 s`);
    assert.ok(server.requests.filter((r) => r.startsWith('/warm-intl.js')).length >= 1, `${mode}: warm-intl.js was fetched`);
    await page.locator('section[data-experiment="sum"]').waitFor();
    assert.deepEqual(page.problems, [], `${mode}: the page reported errors`);
    await page.context().close();
    await server.close();
  }
});

test('a chapter fetches its engine as soon as its experiment is shown, except where the page weighs its own memory', async () => {
  const server = await serve('isolated');
  const coordinator = `/${ENGINE}/coordinator.js`;
  const engineAsked = () => server.requests.filter((url) => url.startsWith(`/${ENGINE}/`));
  const page = await newPage(browser);
  // No autorun and no click: the engine (module and bindings) arrives while the reader reads.
  await page.goto(server.url + '/chapters/sum');
  await page.locator('section[data-experiment="sum"]').getByRole('button', { name: 'Run', exact: true }).waitFor();
  const start = Date.now();
  while (!engineAsked().includes(`/${ENGINE}/engine_bg.wasm`)) {
    assert.ok(Date.now() - start < 20_000, `the engine was not fetched before a run: ${engineAsked()}`);
    await page.waitForTimeout(100);
  }
  assert.ok(engineAsked().includes(coordinator));
  await page.context().close();
  // The task-cost chapter weighs the page's memory, which an engine started in the tab would block.
  server.requests.length = 0;
  const costs = await newPage(browser);
  await costs.goto(server.url + '/chapters/task-costs');
  for (const name of CATALOG.chapters.find((c) => c.slug === 'task-costs').experiments) {
    await costs.locator(`section[data-experiment="${name}"]`).getByRole('button').first().waitFor();
  }
  await costs.waitForTimeout(2_000);
  assert.deepEqual(engineAsked(), [], 'the task-cost chapter fetched no engine file before a run');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(costs.problems, []);
  await costs.context().close();
  await server.close();
});

test('an unknown chapter shows a not-found page, not a blank one', async () => {
  const server = await serve('isolated');
  const page = await newPage(browser);
  await page.goto(server.url + '/chapters/no-such-chapter');
  await page.getByTestId('not-found').waitFor();
  await page.getByRole('link', { name: 'Back to the chapter list' }).click();
  await page.waitForURL(server.url + '/');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test('without cross-origin isolation the sum runs on message-passing workers, with a banner that says so', async () => {
  const server = await serve('none');
  const page = await newPage(browser);
  await page.goto(server.url + '/chapters/sum?workers=4&tasks=8&n=2000000&reps=2&autorun=1');
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  await page.getByRole('heading', { level: 1, name: 'Adding up ten million numbers' }).waitFor();
  // The Sum panel's banner (the chapter's other panel, which needs threads, has its own).
  const panel = page.locator('section[data-experiment="sum"]');
  const banner = panel.getByTestId('single-worker-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /not cross-origin isolated.*share no memory|share no memory.*not cross-origin isolated/s);
  const link = banner.getByRole('link', { name: /own tab/ });
  assert.equal(await link.getAttribute('href'), `${server.url}/chapters/sum?workers=4&tasks=8&n=2000000&reps=2&autorun=1`);
  // Four workers were asked for, and four it is: separate workers, each with its own memory.
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), '4');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.equal(await panel.getByRole('button', { name: 'Sweep workers' }).isDisabled(), false);
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.equal(await rows.count(), 2);
  for (const text of await rows.locator('td.check').allInnerTexts()) assert.match(text, /correct/);
  const lanes = panel.getByTestId('sum-timeline').locator('table.timeline-workers tbody tr');
  assert.deepEqual(await lanes.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker))), [0, 1, 2, 3]);
  assert.equal(await panel.getByTestId('sum-timeline').locator('table.timeline-tasks tbody tr').count(), 8);
  // The engine without threads was loaded (the threaded one cannot even start here), and it
  // started its message workers: coordinator plus four.
  assert.ok(server.requests.some((url) => url.startsWith(`/${ENGINE_SINGLE}/message-worker.js`)));
  assert.ok(!server.requests.some((url) => url.startsWith(`/${ENGINE}/`)));
  assert.ok(page.workers().length >= 5, `${page.workers().length} workers`);
  // Fewer workers next time: the pool of four ends.
  await panel.getByLabel('Workers', { exact: true }).fill('2');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  let alive = Infinity;
  for (let i = 0; i < 50 && alive > 3; i++) {
    await page.waitForTimeout(100);
    alive = page.workers().length;
  }
  assert.equal(alive, 3, 'the coordinator and two message workers');
  // Prose explains the mode, and the published figures still show.
  await page.getByRole('heading', { name: 'Without shared memory: share by communicating' }).waitFor();
  assert.equal(await page.getByTestId('published').locator('tbody tr').count(), 4);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test('without cross-origin isolation, experiments that need shared memory run on one worker and say so', async () => {
  const server = await serve('none');
  const page = await newPage(browser);
  await page.goto(server.url + '/chapters/cpu-vs-io?workers=4&reps=1');
  const banner = page.getByTestId('single-worker-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /not cross-origin isolated.*single worker/s);
  const panel = page.locator('section[data-experiment]').first();
  assert.equal(await panel.getByLabel('Workers', { exact: true }).inputValue(), '1');
  assert.match(await panel.getByTestId('preset-notes').innerText(), /workers.*4/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test('without isolation, goroutines still beat blocked threads on one worker, and Stop works', async () => {
  const server = await serve('none');
  const page = await newPage(browser);
  await page.goto(server.url + '/chapters/document-search?workers=1&tasks=8&docs=100&latency=1&reps=1&autorun=1');
  const panel = page.locator('section[data-experiment="document-search"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const median = async (variant) => Number((await panel.locator(`tr[data-variant="${variant}"] td[data-col="median"] .value`).innerText()).replace(/[^0-9.]/g, ''));
  const threads = await median('tasks');
  const goroutines = await median('goroutines');
  assert.ok(goroutines * 3 <= threads, `goroutines ${goroutines} ms vs threads ${threads} ms`);
  // Stop during a long run: the single worker is ended and the page says stopped.
  await panel.getByLabel('Documents', { exact: true }).fill('10000');
  await panel.getByLabel('Documents', { exact: true }).press('Tab');
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForTimeout(500);
  await panel.getByRole('button', { name: 'Stop' }).click();
  assert.equal(await waitForOutcome(panel, 10_000, 1), 'stopped');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test('at phone width the page does not scroll sideways', async () => {
  const server = await serve('isolated');
  const page = await newPage(browser, { viewport: { width: 375, height: 740 } });
  await page.goto(server.url + '/');
  await page.locator('.chapter-list a').first().waitFor();
  const chapters = await page.locator('.chapter-list a').evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
  assert.ok(chapters.length >= 10, `chapters listed: ${chapters}`);
  for (const path of ['/', ...chapters]) {
    await page.goto(server.url + path);
    await page.locator('main h1').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${path} overflows by ${overflow}px`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});
