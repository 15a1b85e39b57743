// Chapter openings are short: every chapter's first experiment starts within a couple of screens of
// the top, the detail before it sits in folds the reader opens (by mouse or keyboard), and formulas are
// set as formulas (MathML the browser lays out), not as plain paragraphs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CHAPTER_FIRST_EXPERIMENTS, launch, newPage, serve } from '../lib.mjs';

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

const CHAPTERS = CHAPTER_FIRST_EXPERIMENTS;

/** How many screens down (viewport heights) the first experiment's heading may start. */
const SCREENS = { 1280: 2.5, 390: 3.5 };

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`at ${width} px every chapter's first experiment starts within ${SCREENS[width]} screens`, async () => {
    const page = await newPage(browser, { viewport: { width, height } });
    const found = [];
    for (const [slug, experiment] of CHAPTERS) {
      await page.goto(`${server.url}/chapters/${slug}`);
      const heading = page.locator(`#${experiment}-title`);
      await heading.waitFor();
      const top = await heading.evaluate((h) => h.getBoundingClientRect().top + window.scrollY);
      found.push([slug, top / height]);
    }
    console.log(`# screens down at ${width} px: ${found.map(([s, n]) => `${s} ${n.toFixed(2)}`).join(', ')}`);
    for (const [slug, screens] of found) {
      assert.ok(screens <= SCREENS[width], `${slug}: the experiment starts ${screens.toFixed(2)} screens down`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('folded detail is closed at first and opens from the keyboard', async () => {
  const page = await newPage(browser);
  let folds = 0;
  for (const [slug] of CHAPTERS) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator('article.chapter .prose').first().waitFor();
    const details = page.locator('.prose details.fold');
    const count = await details.count();
    folds += count;
    for (let i = 0; i < count; i++) {
      assert.equal(await details.nth(i).evaluate((d) => d.open), false, `${slug}: fold ${i} starts closed`);
      const summary = details.nth(i).locator('summary');
      assert.ok((await summary.innerText()).trim().length > 3, `${slug}: fold ${i} says what it holds`);
    }
    if (count > 0) {
      const first = details.first();
      const hidden = await first.evaluate((d) => d.querySelector(':scope > :not(summary)').checkVisibility());
      assert.equal(hidden, false, `${slug}: a closed fold shows none of its text`);
      await first.locator('summary').focus();
      await page.keyboard.press('Enter');
      assert.equal(await first.evaluate((d) => d.open), true, `${slug}: Enter opens the fold`);
      const shown = await first.evaluate((d) => d.querySelector(':scope > :not(summary)').checkVisibility());
      assert.equal(shown, true, `${slug}: the opened fold shows its text`);
    }
  }
  assert.ok(folds >= 10, `only ${folds} folds found in all chapters`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('formulas are MathML the browser lays out', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/bubble-sort`);
  await page.locator('article.chapter .prose').first().waitFor();
  // Amdahl's law: a block formula with a fraction, drawn taller than one line of text.
  const amdahl = page.locator('.prose math[display="block"]').filter({ has: page.locator('mfrac') }).first();
  const box = await amdahl.boundingBox();
  assert.ok(box && box.height > 24 && box.width > 50, `the formula is laid out as maths: ${JSON.stringify(box)}`);
  // Its LaTeX source is kept beside it for assistive technology and copying.
  assert.match(await amdahl.locator('annotation').textContent(), /\\frac/);
  // No formula is left as raw LaTeX in the text.
  for (const [slug] of CHAPTERS) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator('article.chapter .prose').first().waitFor();
    const raw = await page.evaluate(() =>
      [...document.querySelectorAll('.prose p, .prose li')].map((e) => e.innerText).find((t) => /\$[^$]*\\[a-z]+/.test(t)),
    );
    assert.equal(raw, undefined, `${slug}: raw LaTeX in the prose`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the landing page’s first view says what the lab is and offers chapter 1, on a desktop and on a phone', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await newPage(browser, { viewport: { width, height } });
    await page.goto(`${server.url}/`);
    const start = page.getByRole('link', { name: 'Start with chapter 1' });
    await start.waitFor();
    const box = await start.boundingBox();
    assert.ok(box.y + box.height <= height, `at ${width} px the link ends ${Math.round(box.y + box.height)} px down, in a ${height} px view`);
    const tagline = await page.locator('.hero .tagline').boundingBox();
    assert.ok(tagline.y + tagline.height <= height, 'the tagline too');
    assert.match(await page.locator('.hero .tagline').innerText(), /Concurrency versus parallelism, measured on your own machine/);
    assert.equal(await start.getAttribute('href'), '/chapters/concurrency-vs-parallelism');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
