// Chapter prose is data fetched per language and text (content/<lang>/<slug>-<hash>.json), not code
// in the app's wasm: it arrives with each experiment panel after the right piece of prose, and when
// the request fails the page says so with a Retry button, its experiments still run, and Retry
// brings the prose back.
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

/** The built prose file of `slug` in `lang`, parsed. */
function proseFile(lang, slug) {
  const dir = path.join(SITE_DIR, 'content', lang);
  const name = fs.readdirSync(dir).find((f) => new RegExp(`^${slug}-[0-9a-f]{16}\\.json$`).test(f));
  assert.ok(name, `no prose file for ${lang}/${slug} in ${dir}`);
  return { name, ...JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) };
}

/** A field of content/en/<slug>.md's front matter. */
function frontMatter(slug, key) {
  const text = fs.readFileSync(path.resolve(import.meta.dirname, `../../content/en/${slug}.md`), 'utf8');
  return text.match(new RegExp(`^${key}:\\s*(.*)$`, 'm'))[1].trim();
}

/** The text of a piece of HTML as the page would show it. */
async function textOf(page, html) {
  return page.evaluate((h) => {
    const div = document.createElement('div');
    // A figure marked {{num X}} reads X on an English page (the page sets it in the reader's locale).
    div.innerHTML = h.replace(/\{\{num ([^}]*)\}\}/g, '$1');
    return div.textContent.replace(/\s+/g, ' ').trim();
  }, html);
}

test('a chapter fetches its prose and each panel follows the prose before it', async () => {
  const file = proseFile('en', 'task-costs');
  assert.deepEqual(file.experiments, CATALOG.chapters.find((c) => c.slug === 'task-costs').experiments);
  assert.equal(file.experiments.length, 3, 'the chapter of three panels');
  assert.equal(file.prose.length, file.experiments.length + 1);
  const page = await newPage(browser);
  const fetched = [];
  page.on('request', (request) => {
    if (request.url().includes('/content/')) fetched.push(new URL(request.url()).pathname);
  });
  await page.goto(`${server.url}/chapters/task-costs`);
  await page.locator('article.chapter .prose').first().waitFor();
  assert.deepEqual(fetched, [`/content/en/${file.name}`], 'the chapter fetched its own prose, once');
  for (const [index, name] of file.experiments.entries()) {
    const panel = page.locator(`section[data-experiment="${name}"]`);
    await panel.waitFor();
    // The panel's block in the article, and the prose blocks since the panel before it: a picture
    // the piece places cuts it into blocks around the picture (spaces between blocks differ, so
    // the two are compared without them).
    const before = await panel.evaluate((el) => {
      const texts = [];
      for (let block = el.closest('article.chapter > *').previousElementSibling; block; block = block.previousElementSibling) {
        if (block.matches('section[data-experiment]') || block.querySelector('section[data-experiment]')) break;
        if (block.classList.contains('prose')) texts.unshift(block.textContent);
      }
      return texts.length ? texts.join('').replace(/\s+/g, '') : null;
    });
    const expected = await textOf(page, file.prose[index]);
    assert.ok(expected.length > 0, `prose before ${name}`);
    assert.equal(before, expected.replace(/\s+/g, ''), `${name} follows its piece of prose`);
  }
  // The piece after the last panel closes the article's text.
  const last = await textOf(page, file.prose.at(-1));
  const after = await page
    .locator(`section[data-experiment="${file.experiments.at(-1)}"]`)
    .evaluate((el) => el.closest('article.chapter > *').nextElementSibling?.textContent.replace(/\s+/g, ' ').trim());
  assert.equal(after, last);
  assert.equal(await page.getByTestId('prose-loading').count(), 0);
  assert.equal(await page.getByTestId('prose-failed').count(), 0);
  // Back to a chapter read before: its prose comes from memory, with no second request.
  await page.locator('nav.chapter-nav a[rel="prev"]').click();
  await page.locator('article.chapter .prose').first().waitFor();
  await page.locator('nav.chapter-nav a[rel="next"]').click();
  await page.locator('section[data-experiment="task-switch"]').waitFor();
  assert.equal(fetched.filter((f) => f.includes('task-costs')).length, 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('when the prose cannot be fetched the page says so, its experiment runs, and Retry brings the prose', async () => {
  const file = proseFile('en', 'sum');
  const page = await newPage(browser);
  const pattern = `**/content/en/${file.name}`;
  await page.route(pattern, (route) => route.abort('internetdisconnected'));
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=200000&reps=1`);
  const notice = page.getByTestId('prose-failed');
  await notice.waitFor();
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.match(await notice.innerText(), /did not load/);
  assert.match(await notice.innerText(), /What went wrong: Failed to fetch/);
  assert.doesNotMatch(await notice.innerText(), /wasm-function|JsValue/, 'no stack trace for the reader');
  // Title and summary stay; no prose is shown.
  assert.equal(await page.locator('main h1').innerText(), frontMatter('sum', 'title'));
  assert.equal(await page.locator('.prose-state .text-summary').innerText(), frontMatter('sum', 'summary'));
  assert.equal(await page.locator('article.chapter .prose').count(), 0);
  // The experiment is there and runs.
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor();
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  // Retry, with the network back: the prose arrives, the panel and its result stay.
  await page.unroute(pattern);
  await notice.getByRole('button', { name: 'Retry' }).click();
  await page.locator('article.chapter .prose').first().waitFor();
  assert.equal(await notice.count(), 0);
  assert.equal(await panel.getByTestId('outcome').getAttribute('data-runs-ended'), '1', 'the run before Retry is kept');
  const before = await panel.evaluate((el) => el.closest('article.chapter > *').previousElementSibling?.className);
  assert.equal(before, 'prose');
  // The only errors are the aborted request's.
  const others = page.problems.filter((p) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(p));
  assert.deepEqual(others, []);
  await page.context().close();
});

test('a prose file that is missing (404) fails the same way, in the glossary too', async () => {
  const file = proseFile('en', 'glossary');
  const page = await newPage(browser);
  await page.route(`**/content/en/${file.name}`, (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`${server.url}/glossary`);
  const notice = page.getByTestId('prose-failed');
  await notice.waitFor();
  assert.match(await notice.innerText(), /404/);
  await page.unroute(`**/content/en/${file.name}`);
  await notice.getByRole('button', { name: 'Retry' }).click();
  await page.locator('[data-testid="glossary"] .prose h3[id]').first().waitFor();
  const others = page.problems.filter((p) => !/Failed to load resource|404/.test(p));
  assert.deepEqual(others, []);
  await page.context().close();
});
