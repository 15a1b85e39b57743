// The code beside the result: every experiment that runs a kernel shows, folded, the Rust the engine
// runs and Go for the same idea; so does the OS scheduler, a model the page plays out itself. The fold is closed at first and opens by keyboard; each Rust listing
// is found verbatim (but for its indentation) in the source file it names, read here from disk, so
// it cannot be a copy that drifted; the line counts shown are the listings' own; nothing scrolls the
// page sideways on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CATALOG, launch, newPage, serve } from '../lib.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Each chapter and its experiments (each runs a kernel or, for the OS scheduler, a model), from the catalog. */
const CHAPTERS = CATALOG.chapters.map((chapter) => [chapter.slug, chapter.experiments]);

/** Lines that are neither blank nor only a `//` comment. */
function codeLines(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('//')).length;
}

/** Whether `text` appears in `file` line for line, each line shifted by one shared indentation. */
function foundVerbatim(text, file) {
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8').replaceAll('\r\n', '\n').split('\n');
  const lines = text.split('\n');
  for (let start = 0; start + lines.length <= source.length; start++) {
    const indent = source[start].length - source[start].trimStart().length;
    if (lines.every((line, i) => source[start + i].slice(indent).trimEnd() === line)) return true;
  }
  return false;
}

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await serve();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

for (const [slug, experiments] of CHAPTERS) {
  test(`${slug}: the code beside each result, folded, real, counted, and on the screen at 390 px`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/chapters/${slug}`);
    for (const name of experiments) {
      const panel = page.locator(`section[data-experiment="${name}"]`);
      const fold = panel.locator('details.code-view');
      await fold.waitFor({ state: 'attached' });
      assert.equal(await fold.evaluate((d) => d.open), false, `${name}: folded by default`);
      const summary = fold.locator('summary');
      await summary.focus();
      await page.keyboard.press('Enter');
      assert.equal(await fold.evaluate((d) => d.open), true, `${name}: Enter opens it`);
      await page.keyboard.press('Space');
      assert.equal(await fold.evaluate((d) => d.open), false, `${name}: Space closes it`);
      await page.keyboard.press('Space');
      assert.equal(await fold.evaluate((d) => d.open), true, `${name}: Space opens it`);

      for (const language of ['rust', 'go']) {
        const listing = fold.locator(`.code-listing[data-language="${language}"]`);
        const parts = await listing.locator('figure.code-part').evaluateAll((figures) => figures.map((f) => ({
          role: f.dataset.role,
          file: f.querySelector('pre').dataset.file,
          text: f.querySelector('pre code').textContent,
          visible: f.querySelector('pre').getBoundingClientRect().height > 0,
        })));
        assert.ok(parts.length > 0, `${name}: a ${language} listing`);
        const counts = await listing.locator('.code-counts li').evaluateAll((items) => items.map((li) => ({
          role: li.dataset.role,
          lines: Number(li.dataset.lines),
          text: li.textContent,
        })));
        assert.equal(counts.length, parts.length, `${name}: one count per ${language} part`);
        parts.forEach((part, i) => {
          assert.ok(part.visible, `${name}: the ${language} ${part.role} part is shown`);
          const expectedFolder = language === 'rust' ? /^crates\/(workloads|engine)\/src\/.+\.rs$/ : /^content\/code\/go\/.+\.go$/;
          assert.match(part.file, expectedFolder, `${name}: ${part.file}`);
          assert.ok(foundVerbatim(part.text, part.file), `${name}: the ${language} ${part.role} listing is in ${part.file}`);
          const lines = codeLines(part.text);
          assert.ok(lines > 0, `${name}: the ${part.role} part has code`);
          assert.equal(counts[i].role, part.role);
          assert.equal(counts[i].lines, lines, `${name}: ${language} ${part.role} count`);
          assert.match(counts[i].text, new RegExp(`\\b${lines} lines?\\b`), `${name}: "${counts[i].text}" shows ${lines}`);
        });
      }
      // Open, it keeps to the phone's width: a long line scrolls inside its own box.
      const width = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.ok(width[0] <= width[1], `${name}: the page scrolls sideways (${width[0]} px in ${width[1]} px)`);
      const boxes = await fold.locator('pre').evaluateAll((pres) => pres.map((pre) => {
        const r = pre.getBoundingClientRect();
        return { left: r.left, right: r.right, overflowX: getComputedStyle(pre).overflowX };
      }));
      for (const box of boxes) {
        assert.ok(box.left >= 0 && box.right <= 390, `${name}: a listing runs off the screen (${box.left}–${box.right})`);
        assert.ok(['auto', 'scroll'].includes(box.overflowX), `${name}: a listing can scroll`);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('at 1280 px the Rust and the Go stand side by side', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum`);
  const fold = page.locator('section[data-experiment="sum"] details.code-view');
  await fold.locator('summary').click();
  const [rust, go] = await Promise.all(['rust', 'go'].map((language) =>
    fold.locator(`.code-listing[data-language="${language}"]`).evaluate((e) => e.getBoundingClientRect().toJSON())));
  assert.equal(Math.round(rust.top), Math.round(go.top), 'same top');
  assert.ok(rust.right <= go.left, 'Rust left of Go');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
