// Nothing lost (issue 34): a file dropped beside a drop zone is refused, not opened in place of the
// page; leaving a page with results not downloaded or files compared asks first; results survive
// moving to another chapter and back, and a language switch (described anew in the new language).
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

/** Drop a file on `selector` as a browser hands one to the page; whether the page took the drop. */
function dropFileOn(page, selector) {
  return page.evaluate((selector) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['{"not":"results"}'], 'stray.json', { type: 'application/json' }));
    const target = document.querySelector(selector);
    const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
    target.dispatchEvent(over);
    const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
    target.dispatchEvent(drop);
    return { overHandled: over.defaultPrevented, dropHandled: drop.defaultPrevented, effect: transfer.dropEffect };
  }, selector);
}

test('a file dropped beside a drop zone is refused, and the page stays', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/hashing?source=generated&mb=1&hashes=1&reps=1`);
  const panel = page.locator('section[data-experiment="hashing"]');
  await panel.waitFor();
  const before = page.url();
  // Beside any zone: on the prose, and on the hashing panel while generated data is chosen (no zone).
  for (const selector of ['main h1', 'section[data-experiment="hashing"] form']) {
    const { overHandled, dropHandled, effect } = await dropFileOn(page, selector);
    assert.ok(overHandled && dropHandled, `${selector}: the page handled the drag itself, so the browser opens nothing`);
    assert.equal(effect, 'none', `${selector}: the drop is refused`);
  }
  await page.waitForTimeout(300);
  assert.equal(page.url(), before, 'the page was not replaced by the file');
  // A zone still takes its drop: the file picked for hashing.
  await panel.getByRole('radio', { name: 'A file from your computer' }).check();
  const zone = await dropFileOn(page, '[data-testid="drop-zone"]');
  assert.equal(zone.dropHandled, true);
  await panel.getByTestId('file-chosen').filter({ hasText: 'stray.json' }).waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('leaving with results not downloaded asks first; downloaded, it does not', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  // Nothing measured: leaving asks nothing.
  await panel.getByRole('button', { name: 'Run', exact: true }).waitFor();
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  assert.equal(page.leavePrompts, 0);
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.labUnsaved), 'true');
  await page.goto(`${server.url}/glossary`);
  assert.equal(page.leavePrompts, 1, 'leaving with results asked first');
  // Back: the results are still there (kept in the tab), and still not downloaded.
  await page.goBack();
  await panel.locator('table.results tr[data-variant]').first().waitFor();
  assert.equal(await panel.locator('table.results tr[data-variant]').count(), 2);
  await panel.getByRole('button', { name: 'Share and export' }).click();
  await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV', exact: true }).click()]);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.labUnsaved), undefined);
  await page.goto(`${server.url}/glossary`);
  assert.equal(page.leavePrompts, 1, 'downloaded: leaving asks nothing');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('results survive moving to another chapter and back, and a language switch, in the new language', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const samples = await panel.locator('table.results tr[data-variant]').evaluateAll((trs) => trs.map((tr) => tr.dataset.samples));
  // Inside the app: the next chapter, then the browser's Back.
  await page.getByRole('navigation', { name: 'Previous and next chapter' }).getByRole('link', { name: /Bubble sort/ }).click();
  await page.locator('section[data-experiment="bubble-sort"]').waitFor();
  await page.goBack();
  await panel.locator('table.results tr[data-variant]').first().waitFor();
  assert.deepEqual(await panel.locator('table.results tr[data-variant]').evaluateAll((trs) => trs.map((tr) => tr.dataset.samples)), samples);
  // The language menu opens the page anew: no prompt (the rows come back), and the rows speak Russian.
  await page.locator('details.language-menu summary').click();
  await page.locator('details.language-menu a[hreflang="ru"]').click();
  await page.waitForURL(/\/ru\/chapters\/sum/);
  const russian = page.locator('section[data-experiment="sum"]');
  await russian.locator('table.results tr[data-variant]').first().waitFor();
  assert.deepEqual(await russian.locator('table.results tr[data-variant]').evaluateAll((trs) => trs.map((tr) => tr.dataset.samples)), samples);
  const variants = await russian.locator('table.results tr[data-variant] th').allInnerTexts();
  assert.ok(variants.every((v) => /[а-яё]/i.test(v)), `described in Russian: ${variants}`);
  assert.equal(page.leavePrompts, 0, 'the language switch asked nothing');
  // Clear removes them for good.
  await russian.getByRole('button', { name: 'Очистить результаты' }).click();
  await page.reload();
  await russian.getByTestId('outcome').waitFor({ state: 'attached' });
  await page.waitForTimeout(500);
  assert.equal(await russian.locator('table.results tr[data-variant]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('leaving with other machines\' files loaded asks first, even by the language menu', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  await panel.getByRole('button', { name: 'Share and export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download JSON', exact: true }).click()]);
  const compare = panel.getByTestId('compare');
  await compare.locator('summary').click();
  await compare.getByLabel('Load results files').setInputFiles([await download.path()]);
  await compare.getByTestId('compare-files').locator('li').first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.labCompared), 'true');
  await page.locator('details.language-menu summary').click();
  await page.locator('details.language-menu a[hreflang="ru"]').click();
  await page.waitForURL(/\/ru\/chapters\/sum/);
  assert.equal(page.leavePrompts, 1, 'loaded files are not kept: the page asked');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
