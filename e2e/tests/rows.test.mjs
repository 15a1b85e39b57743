// Every row is self-describing (issue 34): a row carries its own run's settings, mode, build and
// time, so a download, a link and a comparison read the rows' settings, never the page's current
// ones; rows of two problems in one log are grouped, never relabelled; each task-cost panel keeps
// its own settings; and a CSV cell can never be a spreadsheet formula.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

let browser;
let server;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-rows-'));
before(async () => {
  server = await serve('isolated');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The rows of a CSV text, quoted cells and all (RFC 4180). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function downloadText(page, panel, button) {
  const share = panel.getByRole('button', { name: 'Share and export' });
  if ((await share.getAttribute('aria-expanded')) !== 'true') await share.click();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: button, exact: true }).click()]);
  return (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
}

test('rows of two sizes keep their own settings in the downloads, the link and the comparison', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const numbers = panel.getByLabel('Numbers', { exact: true });
  await numbers.fill('200000');
  await numbers.press('Tab');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');

  const json = JSON.parse(await downloadText(page, panel, 'Download JSON'));
  assert.deepEqual(json.results.map((r) => [r.run, r.settings.n]), [[1, '100000'], [1, '100000'], [2, '200000'], [2, '200000']]);
  assert.equal(json.settings, undefined, 'mixed settings are never given one label for the whole file');
  for (const r of json.results) {
    assert.equal(r.mode, 'shared_memory');
    assert.ok(r.logical_processors >= 1);
    assert.match(r.measured_at, /^\d{4}-\d\d-\d\dT/);
    assert.ok(Array.isArray(r.samples_ms) && r.samples_ms.length === 1, 'its raw repetition');
    assert.match(r.url, new RegExp(`n=${r.settings.n}`));
  }
  assert.notEqual(json.results[0].measured_at, undefined);

  const csv = parseCsv(await downloadText(page, panel, 'Download CSV'));
  const [header, ...lines] = csv;
  const column = (name) => header.indexOf(name);
  assert.ok(column('settings') > 0 && column('samples_ms') > 0 && column('mode') > 0 && column('measured_at') > 0, header.join(','));
  assert.deepEqual(lines.map((l) => new URLSearchParams(l[column('settings')]).get('n')), ['100000', '100000', '200000', '200000']);

  // The link names the latest run's settings, whatever the controls say now.
  await numbers.fill('300000');
  await numbers.press('Tab');
  await panel.getByRole('button', { name: 'Embed…' }).click();
  const link = await panel.getByTestId('plain-link').innerText();
  assert.match(link, /[?&]n=200000(&|$)/);
  await page.keyboard.press('Escape');

  // A page of the first size compares with the file's rows of that size only, and says so.
  const file = path.join(dir, 'two-sizes.json');
  fs.writeFileSync(file, JSON.stringify(json));
  const other = await newPage(browser);
  await other.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
  const second = other.locator('section[data-experiment="sum"]');
  const compare = second.getByTestId('compare');
  await compare.waitFor();
  await compare.locator('summary').click();
  await compare.getByLabel('Load results files').setInputFiles([file]);
  await compare.getByTestId('compare-files').locator('li').first().waitFor();
  const loaded = await compare.getByTestId('compared').locator('tbody tr[data-origin="loaded"]').count();
  assert.equal(loaded, 2, 'the two rows of 100,000 numbers');
  assert.match((await compare.getByTestId('compare-refusal').allInnerTexts()).join(' '), /two-sizes\.json: 2 rows were measured on another problem than yours and left out/);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(other.problems, []);
  await page.context().close();
  await other.context().close();
});

test('each task-cost panel keeps its own settings', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/task-costs?tasks=1000&workers=2&reps=1&trips=5000`);
  const granularity = page.locator('section[data-experiment="task-granularity"]');
  const switches = page.locator('section[data-experiment="task-switch"]');
  assert.equal(await clickAndWait(granularity, 'Measure every task size'), 'finished');
  assert.equal(await clickAndWait(switches, 'Measure switches'), 'finished');
  const json = JSON.parse(await downloadText(page, granularity, 'Download JSON'));
  for (const r of json.results) {
    assert.ok(!('trips' in r.settings), `a granularity row names only its panel's settings: ${JSON.stringify(r.settings)}`);
    assert.equal(r.settings.tasks, '1000');
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
