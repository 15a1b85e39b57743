// Print: a chapter prints its prose, its results table and its charts, and none of its controls,
// menus or buttons (the print stylesheet in www/style.css).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

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

test('a chapter prints prose, results and charts without controls', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const shown = (selector) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0);
  // On screen, the controls are there (so the checks below can fail).
  for (const selector of ['header.site-header', 'section[data-experiment="sum"] form.controls', 'section[data-experiment="sum"] button']) {
    assert.equal(await shown(selector), true, `${selector} on screen`);
  }
  await page.emulateMedia({ media: 'print' });
  for (const selector of ['header.site-header', 'footer.site-footer', 'section[data-experiment="sum"] form.controls', 'section[data-experiment="sum"] .share-bar']) {
    assert.equal(await shown(selector), false, `${selector} is not printed`);
  }
  const buttons = await page.locator('button').evaluateAll((all) => all.filter((b) => getComputedStyle(b).display !== 'none').length);
  assert.equal(buttons, 0, 'no button is printed');
  for (const selector of ['main h1', '.prose p', 'section[data-experiment="sum"] table.results', '[data-testid="sweep"] canvas']) {
    assert.equal(await shown(selector), true, `${selector} is printed`);
  }
  const pdf = await page.pdf({ format: 'A4' });
  assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
