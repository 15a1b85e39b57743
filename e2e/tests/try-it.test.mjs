// Every chapter with an experiment links to it from under its title: the link moves the reader
// (and the keyboard focus) to the experiment's heading, and its address names that heading.
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

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`at ${width} px, "Try it" under each chapter title brings its experiment into view and focus`, async () => {
    const page = await newPage(browser, { viewport: { width, height } });
    for (const [slug, experiment] of CHAPTERS) {
      await page.goto(`${server.url}/chapters/${slug}`);
      const link = page.getByTestId('try-it');
      await link.waitFor();
      assert.match(await link.getAttribute('href'), new RegExp(`/chapters/${slug}#${experiment}-title$`), slug);
      const heading = page.locator(`#${experiment}-title`);
      // Far enough down the page that it starts out of view (so the check below can fail).
      const before = await heading.evaluate((h) => h.getBoundingClientRect().top);
      await link.focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((id) => document.activeElement?.id === id, `${experiment}-title`, { timeout: 5_000 });
      const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
      assert.ok(top >= -1 && top < height, `${slug}: the heading is in view after the jump (${before} -> ${top})`);
      assert.equal(new URL(page.url()).pathname, `/chapters/${slug}`, `${slug}: the page stays the chapter`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
