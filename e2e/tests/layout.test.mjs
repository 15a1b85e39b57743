// Layout at a phone's 390 px and a desktop's 1280 px, after a run, in every chapter: no page
// scrolls sideways, no table is cut off (a table wider than its box sits in a scroll box that
// shows a shadow cue, and is never cut in height), captions stay within the screen, and a chart's
// data table sits below its chart at full width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CHAPTER_FIRST_EXPERIMENTS, clickAndWait, experimentNamed, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

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

// What else to do in a chapter after its first run, by experiment: press a second button, or (a
// model the page plays out, which has no run) wait for a part of the panel.
const AFTER_RUN = { 'document-search': { then: 'Sweep tasks' } };
const READY = { 'os-scheduler': 'os-totals' };
// Each chapter (the catalog's) with its first experiment's quick settings, run on load where the
// engine runs it.
const CHAPTERS = CHAPTER_FIRST_EXPERIMENTS.map(([slug, name]) => {
  const experiment = experimentNamed(name);
  const onPage = experiment.runs === 'page';
  if (onPage && !READY[name]) throw new Error(`layout: say which part of ${name}'s panel shows it is ready`);
  return {
    slug,
    experiment: name,
    query: `?${experiment.quick}${onPage ? '' : '&autorun=1'}`,
    ready: READY[name],
    ...AFTER_RUN[name],
  };
});

/** Every layout problem on the page, in words (empty when there is none). */
function layoutProblems() {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push(`the page scrolls sideways: ${root.scrollWidth} px in ${root.clientWidth} px`);
  // Open every disclosure, so tables shown on demand are checked too.
  for (const details of document.querySelectorAll('details')) details.open = true;
  const name = (table) => table.className || table.querySelector('caption')?.textContent.slice(0, 40) || 'a table';
  for (const table of document.querySelectorAll('main table')) {
    const rect = table.getBoundingClientRect();
    if (rect.width === 0) continue;
    let box = table.parentElement;
    while (box && box !== document.body && getComputedStyle(box).overflowX === 'visible' && getComputedStyle(box).overflowY === 'visible') box = box.parentElement;
    if (!box || box === document.body || box.tagName === 'MAIN') {
      if (rect.right > root.clientWidth + 1) problems.push(`${name(table)} runs off the screen (right edge ${Math.round(rect.right)} px)`);
      continue;
    }
    const style = getComputedStyle(box);
    if (box.scrollHeight > box.clientHeight + 1 && style.overflowY !== 'visible') problems.push(`${name(table)} is cut in height: ${box.scrollHeight} px in ${box.clientHeight} px`);
    if (box.scrollWidth > box.clientWidth + 1) {
      if (!['auto', 'scroll'].includes(style.overflowX)) problems.push(`${name(table)} is cut off and cannot scroll`);
      else if (!style.backgroundImage.includes('gradient')) problems.push(`${name(table)} scrolls sideways with no cue`);
      const key = table.querySelector('tbody th[scope="row"]');
      if (key && table.classList.contains('results') && getComputedStyle(key).position !== 'sticky') problems.push(`${name(table)} scrolls its variant out of view`);
    }
    const caption = table.querySelector('caption');
    if (caption && caption.getBoundingClientRect().right > Math.min(box.getBoundingClientRect().right, root.clientWidth) + 1) {
      problems.push(`the caption of ${name(table)} is cut off`);
    }
  }
  // A display formula wider than its box scrolls with the same cue as a table.
  for (const formula of document.querySelectorAll('main math[display="block"]')) {
    if (formula.scrollWidth > formula.clientWidth + 1 && !getComputedStyle(formula).backgroundImage.includes('gradient')) {
      problems.push(`the formula "${formula.textContent.slice(0, 40)}" is cut off with no cue that it scrolls`);
    }
  }
  // A column heading never breaks after a hyphen ("GOMAXPROCS (-" above "cpu)").
  for (const th of document.querySelectorAll('main table thead th')) {
    if (th.getBoundingClientRect().width === 0) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const topOf = (i) => { range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().top; };
      for (let i = 0; i + 1 < text.length; i++) {
        if ('-\u2010\u2011'.includes(text.data[i]) && topOf(i + 1) > topOf(i) + 2) problems.push(`the heading "${text.data}" breaks after its hyphen`);
      }
    }
  }
  // A chart's data table sits below the chart, as wide as the figure.
  for (const figure of document.querySelectorAll('figure.chart')) {
    const canvas = figure.querySelector('canvas');
    const data = figure.querySelector('table.chart-data');
    if (!canvas || !data) continue;
    const [c, d, f] = [canvas.getBoundingClientRect(), data.closest('details, .table-scroll').getBoundingClientRect(), figure.getBoundingClientRect()];
    if (d.top < c.bottom - 1) problems.push(`the data of "${figure.querySelector('figcaption')?.textContent.slice(0, 40)}" sits beside its chart, not below`);
    if (d.width < f.width - 2) problems.push(`the data of "${figure.querySelector('figcaption')?.textContent.slice(0, 40)}" is narrower than its chart (${Math.round(d.width)} of ${Math.round(f.width)} px)`);
  }
  return problems;
}

for (const [label, viewport] of [['390 px', { width: 390, height: 844 }], ['1280 px', { width: 1280, height: 900 }]]) {
  test(`at ${label}, after a run, no chapter scrolls sideways or cuts a table off`, async () => {
    const found = [];
    for (const chapter of CHAPTERS) {
      const page = await newPage(browser, { viewport });
      await page.goto(`${server.url}/chapters/${chapter.slug}${chapter.query}`);
      const panel = page.locator(`section[data-experiment="${chapter.experiment}"]`);
      await panel.waitFor();
      if (chapter.ready) await panel.getByTestId(chapter.ready).waitFor();
      else assert.equal(await waitForOutcome(panel), 'finished', chapter.slug);
      if (chapter.then) assert.equal(await clickAndWait(panel, chapter.then), 'finished', `${chapter.slug}: ${chapter.then}`);
      await page.waitForTimeout(200);
      for (const problem of await page.evaluate(layoutProblems)) found.push(`${chapter.slug}: ${problem}`);
      assert.deepEqual(page.problems, [], chapter.slug);
      await page.context().close();
    }
    assert.deepEqual(found, []);
  });
}

test('the share menu is one button on a phone, and its actions fit the screen when open', async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1&autorun=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const share = panel.getByRole('button', { name: 'Share and export' });
  for (const name of ['Copy link', 'Embed…', 'Download CSV', 'Download JSON']) {
    assert.equal(await panel.getByRole('button', { name }).count(), 0, `${name} waits behind the menu`);
  }
  await share.click();
  for (const name of ['Copy link', 'Embed…', 'Download CSV', 'Download JSON']) {
    const box = await panel.getByRole('button', { name }).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${name} is on the screen`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('before any run, no caption or line quotes a number it does not have yet ("took — ms")', async () => {
  const page = await newPage(browser);
  const found = [];
  for (const chapter of CHAPTERS) {
    await page.goto(`${server.url}/chapters/${chapter.slug}`);
    const panel = page.locator(`section[data-experiment="${chapter.experiment}"]`);
    await panel.waitFor();
    await page.waitForTimeout(500);
    for (const text of await page.locator('main figcaption, main p').allInnerTexts()) {
      if (/—\s*(ms|×|%)/.test(text)) found.push(`${chapter.slug}: "${text.slice(0, 80)}"`);
    }
  }
  assert.deepEqual(found, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
