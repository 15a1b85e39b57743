// Embedding in a course page: a parent page on another origin WITHOUT isolation headers frames an
// embed URL. With Document-Isolation-Policy (Chromium) the experiment gets threads; without it the
// single-worker engine runs and says so. The parent receives both kinds of resize message, and the
// snippet from the Embed dialog works when pasted into a page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertWorkersUsed, clickAndWait, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A course page on its own origin, with no isolation headers, holding `body`. */
async function coursePage(body) {
  const html = `<!doctype html><meta charset=utf-8><title>Course page</title><link rel="icon" href="data:,">
<script>window.__messages = []; addEventListener('message', (e) => window.__messages.push(e.data));</script>
<h1>Week 3: concurrency</h1>${body}`;
  return serve('none', { overrides: { '/course.html': html } });
}

async function frameOf(page) {
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle.contentFrame();
  await frame.waitForLoadState();
  return frame;
}

test('inside a non-isolated course page, Chromium runs the embed with threads via Document-Isolation-Policy', async () => {
  const app = await serve('dip');
  const src = `${app.url}/embed/experiments/sum?workers=2&tasks=2&n=20000000&reps=1&autorun=1`;
  const course = await coursePage(`<iframe src="${src}" title="Sum" width="100%" height="900"></iframe>`);
  const page = await newPage(browser);
  await page.goto(`${course.url}/course.html`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), false, 'the course page itself is not isolated');
  const frame = await frameOf(page);
  assert.equal(await frame.evaluate(() => crossOriginIsolated), true, 'the embed is isolated on its own');
  const panel = frame.locator('section[data-experiment="sum"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.equal(await frame.getByTestId('single-worker-banner').count(), 0);
  const lanes = panel.getByTestId('sum-timeline').locator('table.timeline-workers tbody tr');
  // Real threads: the lanes are workers of the pool of two (isolated, no single-worker banner). Whether
  // both took a task is the scheduler's call on a busy machine, so it is not asserted here.
  assertWorkersUsed(await lanes.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker))), 2, 2, { longTasks: false });
  // No site chrome in the embed, and a way out to the full lesson.
  assert.equal(await frame.locator('header.site-header').count(), 0);
  assert.ok(await frame.getByRole('link', { name: 'Open the full lesson' }).isVisible());
  // The course page heard the height, in both forms. The first may be the height of the line shown
  // while the panel's code loads; the height of the panel follows.
  await page.waitForFunction(() => window.__messages.some((m) => m && m.type === 'resize')
    && window.__messages.some((m) => m && m.subject === 'lti.frameResize'));
  await page.waitForFunction(() => window.__messages.some((m) => m && m.type === 'resize' && m.height > 500), null, { timeout: 10_000 })
    .catch(() => {});
  const messages = await page.evaluate(() => window.__messages);
  const resize = messages.filter((m) => m.type === 'resize').at(-1);
  assert.ok(resize.height > 500, `height ${resize.height} (${messages.map((m) => m.height).join(', ')})`);
  for (const m of messages) assert.deepEqual(Object.keys(m).sort(), m.type ? ['height', 'type'] : ['height', 'subject']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await app.close();
  await course.close();
});

test('an embed reports the height of its content, so a frame taller than that can shrink', async () => {
  const app = await serve('dip');
  const src = `${app.url}/embed/experiments/sum?workers=1&tasks=1&n=100000&reps=1`;
  const course = await coursePage(`<iframe src="${src}" title="Sum" width="100%" height="6000"></iframe>`);
  const page = await newPage(browser);
  await page.goto(`${course.url}/course.html`);
  const frame = await frameOf(page);
  await frame.locator('section[data-experiment="sum"]').waitFor();
  await page.waitForFunction(() => window.__messages.some((m) => m && m.type === 'resize'));
  // Let the layout settle, then read the latest report.
  await page.waitForTimeout(500);
  const heights = await page.evaluate(() => window.__messages.filter((m) => m && m.type === 'resize').map((m) => m.height));
  const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const last = heights.at(-1);
  assert.ok(last < 6000, `the frame is 6000 px tall, the content ${content} px, the report said ${last}`);
  assert.ok(Math.abs(last - content) <= 2, `reported ${last}, content ${content}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await app.close();
  await course.close();
});

test('without the isolation policy the embed runs on one worker and says so', async () => {
  const app = await serve('none');
  const src = `${app.url}/embed/experiments/document-search?workers=1&tasks=8&docs=100&latency=1&reps=1&autorun=1`;
  const course = await coursePage(`<iframe src="${src}" title="Search" width="100%" height="900"></iframe>`);
  const page = await newPage(browser);
  await page.goto(`${course.url}/course.html`);
  const frame = await frameOf(page);
  assert.equal(await frame.evaluate(() => crossOriginIsolated), false);
  const banner = frame.getByTestId('single-worker-banner');
  await banner.waitFor();
  assert.match(await banner.getByRole('link', { name: /own tab/ }).getAttribute('href'), /\/chapters\/document-search\?/);
  const panel = frame.locator('section[data-experiment="document-search"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 3);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await app.close();
  await course.close();
});

test('the Embed dialog gives a snippet that works when pasted into a course page', async () => {
  const app = await serve('dip');
  const page = await newPage(browser);
  await page.goto(`${app.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  // The four actions sit behind one disclosure button, which says whether it is open.
  const share = panel.getByRole('button', { name: 'Share and export' });
  assert.equal(await share.getAttribute('aria-expanded'), 'false');
  assert.equal(await panel.getByRole('button', { name: 'Embed…' }).count(), 0, 'the actions are hidden until asked for');
  await share.click();
  assert.equal(await share.getAttribute('aria-expanded'), 'true');
  await panel.getByRole('button', { name: 'Embed…' }).click();
  const snippet = await panel.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="[^"]+\/embed\/experiments\/sum\?workers=2&amp;tasks=4&amp;n=100000&amp;reps=1" title="Adding up ten million numbers" loading="lazy" width="100%" height="\d+"/);
  assert.match(await panel.getByTestId('plain-link').getAttribute('href'), /\/chapters\/sum\?workers=2/);
  await panel.getByRole('button', { name: 'Close' }).click();
  // Paste it into a course page: it loads, with the same settings.
  const course = await coursePage(snippet);
  const parent = await newPage(browser);
  await parent.goto(`${course.url}/course.html`);
  await parent.locator('iframe').scrollIntoViewIfNeeded();
  const frame = await frameOf(parent);
  const embedded = frame.locator('section[data-experiment="sum"]');
  await embedded.waitFor();
  assert.equal(await embedded.getByLabel('Tasks', { exact: true }).inputValue(), '4');
  assert.equal(await clickAndWait(embedded, 'Run'), 'finished');
  assert.deepEqual(page.problems, []);
  assert.deepEqual(parent.problems, []);
  await page.context().close();
  await parent.context().close();
  await app.close();
  await course.close();
});

test('results download as CSV and JSON, with the machine and the settings', async () => {
  const app = await serve('isolated');
  const page = await newPage(browser);
  await page.goto(`${app.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=2&autorun=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  // Opened by keyboard: Enter on the button shows the actions, Escape hides them and returns the focus.
  const share = panel.getByRole('button', { name: 'Share and export' });
  await share.focus();
  await page.keyboard.press('Enter');
  assert.equal(await share.getAttribute('aria-expanded'), 'true');
  await panel.getByRole('button', { name: 'Copy link' }).focus();
  await page.keyboard.press('Escape');
  assert.equal(await share.getAttribute('aria-expanded'), 'false');
  assert.equal(await share.evaluate((b) => b === document.activeElement), true, 'Escape returns the focus to the button');
  await share.click();
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.equal(csvDownload.suggestedFilename(), 'sum-results.csv');
  const csv = await (await csvDownload.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
  const lines = csv.trim().split('\n');
  assert.equal(lines.length, 3, 'a header and one line per variant');
  assert.match(lines[0], /^experiment,run,sweep,variant,workers,tasks,median_ms/);
  // A Run's rows are not a sweep's.
  assert.match(lines[2], /^sum,1,false,Concurrent: 4 tasks on 2 workers,2,4,[0-9.]+,/);
  // The machine and the row's own settings, by column (a cell with a comma, a note, is quoted).
  const fieldsOf = (line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((f) => f.replace(/,$/, ''));
  const header = fieldsOf(lines[0]);
  const cells = fieldsOf(lines[2]);
  const cell = (name) => cells[header.indexOf(name)];
  assert.equal(cell('correct'), 'true');
  assert.match(cell('logical_processors'), /^\d+$/);
  assert.ok(cell('browser').length > 0);
  assert.equal(cell('isolated'), 'true');
  assert.match(cell('url'), /^http.*n=100000/);
  assert.equal(cell('settings'), 'workers=2&tasks=4&n=100000&reps=2');
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download JSON' }).click()]);
  const json = JSON.parse(await (await jsonDownload.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  assert.equal(json.experiment, 'sum');
  assert.deepEqual(json.settings, { workers: '2', tasks: '4', n: '100000', reps: '2' });
  assert.ok(json.results.every((r) => JSON.stringify(r.settings) === JSON.stringify(json.settings)), 'each row carries them too');
  assert.equal(json.machine.cross_origin_isolated, true);
  assert.ok(json.machine.logical_processors >= 1);
  assert.equal(json.results.length, 2);
  assert.ok(json.results.every((r) => r.correct && r.median_ms > 0 && r.sweep === false));
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await app.close();
});

test("an embedded chapter opens its prose's links in a new tab (pages that are not embeds refuse to be framed)", async () => {
  const app = await serve('isolated');
  const page = await newPage(browser);
  await page.goto(`${app.url}/embed/chapters/sum`);
  await page.locator('.prose a[href]').first().waitFor({ state: 'attached' });
  const links = await page.locator('.prose a[href]').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.target, a.rel]));
  assert.ok(links.length > 0);
  for (const [href, target, rel] of links) {
    if (href.startsWith('#')) assert.equal(target, '', `${href} stays in the page`);
    else assert.deepEqual([target, rel], ['_blank', 'noopener'], `${href} opens a tab of its own`);
  }
  // The chapter itself keeps its links in the tab.
  await page.goto(`${app.url}/chapters/sum`);
  await page.locator('.prose a[href]').first().waitFor({ state: 'attached' });
  assert.deepEqual(await page.locator('.prose a[target]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await app.close();
});
