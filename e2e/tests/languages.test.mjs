// The lab in Russian, Chinese, Japanese and Hindi: every chapter in every language shows no English
// interface text and no page error; plurals follow each language's rules in the browser; the switcher
// keeps the chapter and the settings, and a run works after switching; embeds carry the language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CHAPTER_FIRST_EXPERIMENTS, clickAndWait, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

const LANGUAGES = ['ru', 'zh', 'ja', 'hi'];
const PAGES = ['/', '/glossary', '/how-the-lab-works', ...CHAPTER_FIRST_EXPERIMENTS.map(([slug]) => `/chapters/${slug}`)];

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await serve('isolated');
});
after(async () => {
  await server?.close();
  await browser?.close();
});

/**
 * The visible text nodes of the page's interface and prose: code listings, formulas, the language
 * menu and anything marked as another language (an article's own title) left out. Only nodes with
 * two or more English-looking words count, so numbers, units and names (GOMAXPROCS, W0) do not.
 */
async function englishLookingTexts(page) {
  return page.evaluate(() => {
    const skip = 'pre, code, script, style, noscript, math, svg, .language-menu, [data-testid="language-suggestion"]';
    // Words that count: not all capitals (GOMAXPROCS, CPU), in texts with a space (not a path or host).
    const words = (text) => (/\s/.test(text) ? (text.match(/[A-Za-z]{3,}/g) || []).filter((w) => w !== w.toUpperCase()) : []);
    // Names every edition keeps as they are.
    const names = new Set(['Web Worker', 'Web Workers', 'hello world', 'hello world (QPS)', 'Java + Netty', 'PHP + Swoole']);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const found = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      // Prose has its own file per language (the build refuses a missing one) and may give an
      // English term in brackets; the interface around it is what could fall back to English.
      if (!element || element.closest(skip) || element.closest('.prose')) continue;
      const lang = element.closest('[lang]')?.getAttribute('lang');
      if (lang && lang !== document.documentElement.lang) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const text = node.textContent.replace(/\s+/g, ' ').trim();
      if (words(text).length >= 2 && !names.has(text)) found.add(text);
    }
    // Attributes a reader meets too: accessible names, placeholders, titles.
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (element.closest('pre, code, .language-menu, [data-testid="language-suggestion"]')) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title']) {
        const text = (element.getAttribute(attribute) || '').trim();
        if (words(text).length >= 2 && !names.has(text)) found.add(text);
      }
    }
    return [...found];
  });
}

async function open(path, lang) {
  const page = await newPage(browser);
  const prefix = lang === 'en' ? '' : `/${lang}`;
  await page.goto(server.url + prefix + path);
  await page.locator('main h1, main h2').first().waitFor();
  // The prose arrives after the frame; a chapter is read once its first experiment is there.
  const chapter = CHAPTER_FIRST_EXPERIMENTS.find(([slug]) => path === `/chapters/${slug}`);
  if (chapter) await page.locator(`section[data-experiment="${chapter[1]}"]`).waitFor({ timeout: 60_000 });
  else await page.locator('.prose').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(300);
  return page;
}

test('every page in every language shows no English interface text and no error', async () => {
  const problems = [];
  for (const path of PAGES) {
    const englishPage = await open(path, 'en');
    const english = new Set(await englishLookingTexts(englishPage));
    await englishPage.context().close();
    assert.ok(english.size > 5, `${path}: the English page has text to compare with (${english.size})`);
    for (const lang of LANGUAGES) {
      const page = await open(path, lang);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${lang}${path}: <html lang>`);
      const leftovers = (await englishLookingTexts(page)).filter((text) => english.has(text));
      if (leftovers.length) problems.push(`${lang}${path}: ${leftovers.slice(0, 8).map((t) => JSON.stringify(t)).join(', ')}`);
      if (page.problems.length) problems.push(`${lang}${path}: page errors ${page.problems.join('; ')}`);
      // Every internal link stays in the language (the prose's and the interface's).
      const strays = await page.evaluate((lang) => {
        const root = new URL(document.baseURI);
        return [...document.querySelectorAll('main a[href], header a[href]')]
          .filter((a) => !a.closest('.language-menu') && a.getAttribute('href') !== '' && a.origin === root.origin && !a.getAttribute('href').startsWith('#'))
          .map((a) => a.pathname)
          .filter((p) => p.startsWith(root.pathname) && !p.startsWith(`${root.pathname}${lang}/`) && p !== `${root.pathname}${lang}`);
      }, lang);
      if (strays.length) problems.push(`${lang}${path}: links leave the language: ${strays.slice(0, 5).join(', ')}`);
      await page.context().close();
    }
  }
  assert.deepEqual(problems, []);
});

test('counts take each language’s plural forms, through the browser’s Intl', async () => {
  // The landing page's machine line counts the logical processors the browser reports.
  const processors = async (lang, count) => {
    const page = await newPage(browser);
    await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), count);
    await page.goto(`${server.url}/${lang}/`);
    const line = await page.locator('.machine-line').first().innerText();
    await page.context().close();
    return line;
  };
  const russian = {
    1: '1 логический процессор', 2: '2 логических процессора', 5: '5 логических процессоров',
    21: '21 логический процессор', 22: '22 логических процессора', 25: '25 логических процессоров',
    111: '111 логических процессоров',
  };
  for (const [n, words] of Object.entries(russian)) {
    const line = await processors('ru', Number(n));
    assert.ok(line.includes(words), `ru ${n}: ${JSON.stringify(words)} in ${JSON.stringify(line)}`);
  }
  // Hindi: 0 and 1 share the form "one", 2 takes "other" (वर्कर / वर्करों before a postposition), in the
  // Sum panel's question, which counts the Workers slider.
  const question = async (workers) => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/hi/chapters/sum?workers=${workers}`);
    const legend = page.locator('section[data-experiment="sum"] [data-testid="prediction"] legend');
    await legend.waitFor({ timeout: 60_000 });
    const text = await legend.innerText();
    await page.context().close();
    return text;
  };
  assert.match(await question(1), /1 वर्कर के साथ/);
  assert.match(await question(2), /2 वर्करों के साथ/);
});

test('the switcher keeps the chapter and its settings, and a run works after switching', async () => {
  const page = await newPage(browser);
  const query = '?workers=2&tasks=4&n=1000000&reps=1';
  await page.goto(`${server.url}/chapters/sum${query}`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.waitFor({ timeout: 60_000 });
  const menu = page.locator('details.language-menu');
  await menu.locator('summary').click();
  await menu.getByRole('link', { name: 'Русский' }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/ru/chapters/sum'));
  const url = new URL(page.url());
  for (const [key, value] of new URLSearchParams(query)) assert.equal(url.searchParams.get(key), value, key);
  // The app names the page's language as it starts (the served page may be the English index.html).
  await page.waitForFunction(() => document.documentElement.lang === 'ru', null, { timeout: 60_000 });
  const russianPanel = page.locator('section[data-experiment="sum"]');
  await russianPanel.waitFor({ timeout: 60_000 });
  await russianPanel.getByRole('button', { name: 'Запустить' }).click();
  await waitForOutcome(russianPanel);
  assert.ok((await russianPanel.locator('table tbody tr').count()) >= 2, 'the run left rows in the results table');
  // Back to English from the switcher, settings kept.
  await page.locator('details.language-menu summary').click();
  await page.locator('details.language-menu').getByRole('link', { name: 'English' }).click();
  await page.waitForURL((u) => u.pathname.endsWith('/chapters/sum') && !u.pathname.includes('/ru/'));
  assert.equal(new URL(page.url()).searchParams.get('tasks'), '4');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an embed in a language runs, and the Embed dialog’s snippet carries the language', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/ja/embed/experiments/sum?workers=2&tasks=4&n=1000000&reps=1&autorun=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  await waitForOutcome(panel);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  await page.goto(`${server.url}/hi/chapters/sum?workers=2`);
  const chapterPanel = page.locator('section[data-experiment="sum"]');
  await chapterPanel.waitFor({ timeout: 60_000 });
  await chapterPanel.locator('.share-toggle').click();
  await chapterPanel.locator('.share-actions button[aria-haspopup="dialog"]').click();
  const snippet = await chapterPanel.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /\/hi\/embed\/experiments\/sum/, snippet);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a first visit to the English landing page offers the browser’s language, once', async () => {
  const context = await browser.newContext({ locale: 'ru-RU' });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  const offer = page.getByTestId('language-suggestion');
  await offer.waitFor();
  assert.equal(await offer.getAttribute('lang'), 'ru');
  assert.match(new URL(page.url()).pathname, /^\/$/, 'no redirect');
  await offer.getByRole('button').click();
  await offer.waitFor({ state: 'detached' });
  await page.reload();
  await page.locator('main h1').waitFor();
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('language-suggestion').count(), 0, 'dismissed once, not offered again');
  await context.close();
});

test("a page fetches its own language's strings and text titles, and without them says so and works in English", async () => {
  // The table of the page's language is fetched, and only that one.
  const fetched = [];
  const page = await newPage(browser);
  page.on('request', (request) => {
    if (/\/ui\/[a-z]+-[0-9a-f]{16}\.json$/.test(request.url())) fetched.push(new URL(request.url()).pathname);
  });
  await page.goto(`${server.url}/ja/chapters/sum`);
  await page.locator('section[data-experiment="sum"]').waitFor();
  // The chapter's title came in that file too (the module holds English titles only).
  assert.doesNotMatch(await page.locator('h1').first().innerText(), /[A-Za-z]{4}/);
  assert.ok(fetched.length >= 1 && fetched.every((p) => /\/ui\/ja-/.test(p)), fetched.join(', '));
  await page.goto(`${server.url}/chapters/sum`);
  await page.locator('section[data-experiment="sum"]').waitFor();
  assert.ok(fetched.every((p) => /\/ui\/ja-/.test(p)), `an English page fetches no table: ${fetched.join(', ')}`);
  await page.context().close();

  // Without it: a notice that says why, the interface in English, and a run that works.
  const broken = await newPage(browser);
  await broken.route(/\/ui\/ru-[0-9a-f]+\.json$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await broken.goto(`${server.url}/ru/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const notice = broken.getByTestId('table-failure');
  await notice.waitFor();
  assert.match(await notice.innerText(), /^This page in Русский could not be loaded \(404 Not Found\), so it is shown in English/);
  // The texts' titles and prose come in the same file: the chapter falls back to English whole.
  assert.equal(await broken.locator('h1').first().innerText(), 'Adding up ten million numbers');
  await broken.locator('.prose').first().waitFor();
  const panel = broken.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.deepEqual(
    broken.problems.filter((p) => !/Failed to load resource.*404/.test(p)),
    [],
    'no error but the missing file',
  );
  await broken.context().close();
});
