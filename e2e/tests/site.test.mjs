// The site around the chapters: landing page, navigation with stable URLs, unknown addresses,
// phone width, and a page served without cross-origin isolation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, serve } from '../lib.mjs';

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
  await page.waitForURL(/\/chapters\/os-scheduler$/);
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

test('without cross-origin isolation the prose renders and the experiment explains why it cannot run', async () => {
  const server = await serve('none');
  const page = await newPage(browser);
  await page.goto(server.url + '/chapters/sum?autorun=1');
  assert.equal(await page.evaluate(() => crossOriginIsolated), false);
  await page.getByRole('heading', { level: 1, name: 'Adding up ten million numbers' }).waitFor();
  const notice = page.getByTestId('unavailable');
  await notice.waitFor();
  assert.match(await notice.innerText(), /not cross-origin isolated/);
  assert.ok(await notice.getByRole('link', { name: /own tab/ }).isVisible());
  // Prose after the experiment is there too, and the published figures still show.
  await page.getByRole('heading', { name: 'Reading your results' }).waitFor();
  assert.equal(await page.getByTestId('published').locator('tbody tr').count(), 4);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await server.close();
});

test('at phone width the page does not scroll sideways', async () => {
  const server = await serve('isolated');
  const page = await newPage(browser, { viewport: { width: 375, height: 740 } });
  await page.goto(server.url + '/');
  const chapters = await page.locator('.chapter-list a').evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
  assert.ok(chapters.length >= 4);
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
