// Class results, compared: two results files downloaded from the Sum experiment (one page cross-origin
// isolated, one not: two "machines" on one computer) are loaded into a third page, by the file
// picker and by drag and drop, and overlay its speedup chart and sit beside its own rows. Corrupt,
// hostile and mismatched files are refused with a message, and the page keeps working.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickAndWait, launch, newPage, serve } from '../lib.mjs';

let browser;
let isolated;
let plain;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-compare-'));
before(async () => {
  browser = await launch();
  isolated = await serve('isolated');
  plain = await serve('none');
});
after(async () => {
  await browser?.close();
  await isolated?.close();
  await plain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SETTINGS = 'tasks=4&n=1000000&reps=1';

/** Sweep the Sum experiment on `server` and download its results as JSON; returns the file's path. */
async function sweepAndDownload(server, name) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&${SETTINGS}`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  await panel.getByRole('button', { name: 'Share and export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download JSON', exact: true }).click(),
  ]);
  const file = path.join(dir, name);
  fs.copyFileSync(await download.path(), file);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  return file;
}

test("two machines' downloads overlay the chart and the table; bad files are refused with a reason", async () => {
  const fromIsolated = await sweepAndDownload(isolated, 'isolated.json');
  const fromPlain = await sweepAndDownload(plain, 'not-isolated.json');
  const plainRows = JSON.parse(fs.readFileSync(fromPlain, 'utf8')).results.length;
  const isolatedRows = JSON.parse(fs.readFileSync(fromIsolated, 'utf8')).results.length;

  const page = await newPage(browser);
  // Other worker counts than the files' are fine: the problem (n) is the same.
  await page.goto(`${isolated.url}/chapters/sum?workers=1&${SETTINGS}`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  const compare = panel.getByTestId('compare');
  await compare.locator('summary').click();
  const picker = compare.getByLabel('Load results files');
  assert.equal(await picker.getAttribute('multiple'), '');

  // The picker: one file.
  await picker.setInputFiles([fromIsolated]);
  const files = compare.getByTestId('compare-files').locator('li');
  await files.first().waitFor();
  assert.match(await files.first().innerText(), /^■ \d+ logical processors?, .+, isolated \(isolated\.json\)/);

  // Drag and drop: the other, as a browser hands a dropped file to the page.
  const text = fs.readFileSync(fromPlain, 'utf8');
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'not-isolated.json', { type: 'application/json' }));
    return transfer;
  }, text);
  await compare.getByTestId('compare-drop').dispatchEvent('drop', { dataTransfer });
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="compare-files"] li').length === 2 || document.querySelector('[data-testid="compare-refusal"]'),
  );
  assert.deepEqual(await compare.getByTestId('compare-refusal').allInnerTexts(), [], 'the dropped file is loaded');
  assert.match(await files.nth(1).innerText(), /^▲ \d+ logical processors?, .+, not isolated \(not-isolated\.json\)/);

  // The table: the reader's own rows, then every loaded row, each labelled by its machine.
  const table = compare.getByTestId('compared');
  assert.equal(await table.locator('tbody tr[data-origin="own"]').count(), 2);
  assert.equal(await table.locator('tbody tr[data-origin="loaded"]').count(), isolatedRows + plainRows);
  const ownCell = table.locator('tbody tr[data-origin="own"] td').first();
  assert.equal(await ownCell.innerText(), '● This machine');
  assert.match(await ownCell.getAttribute('title'), /^\d+ logical processors?, .+, isolated$/);
  const loadedCell = table.locator('tbody tr[data-origin="loaded"] td').first();
  assert.equal(await loadedCell.innerText(), '■ isolated.json');
  assert.match(await loadedCell.getAttribute('title'), /^\d+ logical processors?, .+, isolated$/);

  // The chart: each file's sweep is a line (a shape of its own), in the legend and the chart's data table.
  const chart = panel.getByTestId('sweep');
  const legend = await chart.locator('ul.legend li').allInnerTexts();
  assert.ok(legend.some((l) => /^■ .*isolated: /.test(l)), legend.join(' / '));
  assert.ok(legend.some((l) => /^▲ .*not isolated: /.test(l)), legend.join(' / '));
  const seriesRows = await chart.locator('table.chart-data tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.series));
  assert.ok(seriesRows.filter((s) => s.startsWith('▲')).length >= 1, 'the not-isolated sweep has points');
  assert.ok(seriesRows.filter((s) => s.startsWith('■')).length >= 1, 'the isolated sweep has points');

  // Removing one leaves the other.
  await files.first().getByRole('button', { name: /^Remove / }).click();
  assert.equal(await files.count(), 1);
  assert.equal(await table.locator('tbody tr[data-origin="loaded"]').count(), plainRows);

  // Bad files: each refused with its reason; nothing else changes.
  const good = JSON.parse(fs.readFileSync(fromIsolated, 'utf8'));
  const bad = {
    'garbage.json': 'this is not JSON {',
    'deep.json': '['.repeat(200_000),
    'hashing.json': JSON.stringify({ ...good, experiment: 'hashing' }),
    'bigger.json': JSON.stringify({ ...good, results: good.results.map((r) => ({ ...r, settings: { ...r.settings, n: '2000000' } })) }),
    // A file written before rows carried their settings: its own settings are every row's.
    'older.json': JSON.stringify({
      ...good,
      settings: { ...good.settings, n: '2000000' },
      results: good.results.map(({ settings, ...r }) => r),
    }),
    'negative.json': JSON.stringify({ ...good, results: good.results.map((r) => ({ ...r, median_ms: -1 })) }),
    'empty.json': JSON.stringify({ ...good, results: [] }),
  };
  const paths = Object.entries(bad).map(([name, body]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return file;
  });
  await picker.setInputFiles(paths);
  const refusals = compare.getByTestId('compare-refusal');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="compare-refusal"]').length === n, paths.length);
  const said = await refusals.allInnerTexts();
  assert.match(said[0], /^garbage\.json was not loaded: it is not a results download of this lab/);
  assert.match(said[1], /^deep\.json was not loaded: it is not a results download/);
  assert.match(said[2], /^hashing\.json was not loaded: it holds results of another experiment \(hashing\)/);
  assert.match(said[3], /^bigger\.json was not loaded: it measured another problem \(n = 2000000 there, 1000000 here\)/);
  assert.match(said[4], /^older\.json was not loaded: it measured another problem \(n = 2000000 there, 1000000 here\)/);
  assert.match(said[5], /^negative\.json was not loaded: it holds a value no measurement can have/);
  assert.match(said[6], /^empty\.json was not loaded: it holds no results/);
  assert.equal(await files.count(), 1, 'the loaded file stays');

  // Caps. Ten copies of a file of 60 rows, each row a kind of job of its own, dropped as two loads
  // at once (the second starts while the first is still reading): 8 files at most, the others
  // refused by name; the table shows 300 rows and says how many there are; the chart draws at
  // most 8 lines a file.
  const wide = {
    ...good,
    results: Array.from({ length: 60 }, (_, i) => ({ ...good.results[i % good.results.length], sweep: true, run: 1, kind: `kind-${i}`, speedup: 1 + i / 100 })),
  };
  // Two drops in one go, as a reader dropping a second batch while the first is still being read:
  // both loads start before either has added a file.
  const body = JSON.stringify(wide);
  await page.evaluate((body) => {
    const zone = document.querySelector('[data-testid="compare-drop"]');
    for (const batch of [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]) {
      const transfer = new DataTransfer();
      for (const i of batch) transfer.items.add(new File([body], `copy-${i}.json`, { type: 'application/json' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, body);
  const settled = (n) =>
    document.querySelectorAll('[data-testid="compare-files"] li').length +
      document.querySelectorAll('[data-testid="compare-refusal"]').length >= n;
  // Each load clears the refusals shown before it: the bad files' are gone.
  await page.waitForFunction(settled, 1 + 10).catch(async (error) => {
    const seen = [await files.count(), await refusals.allInnerTexts()];
    throw new Error(`${error.message}; files and refusals: ${JSON.stringify(seen)}`);
  });
  assert.equal(await files.count(), 8, 'at most 8 files, however they arrive');
  const capped = await refusals.allInnerTexts();
  assert.equal(capped.length, 3, capped.join(' / '));
  assert.ok(capped.every((t) => /^copy-\d\.json was not loaded: at most 8 files are compared at once/.test(t)), capped.join(' / '));
  assert.equal(await table.locator('tbody tr').count(), 300);
  assert.match(await compare.getByTestId('compare-capped').innerText(), /300/);
  const lines = await chart.locator('ul.legend li').count();
  assert.ok(lines <= 1 + 8 * 8, `${lines} lines in the legend`);

  // And the page still measures.
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
