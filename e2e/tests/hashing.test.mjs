// The hashing chapter: generated data hashed on 1 and 2 workers gives the right digest (checked
// against an independent JavaScript version of the generator and Node's own SHA-256), a picked
// file gives its sha256sum, and Stop works mid-run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertWorkersUsed, clickAndWait, launch, newPage, serve, waitForOutcome, ENGINE_SINGLE, SHA256_OF_GENERATED_2MB } from '../lib.mjs';

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

/** The generated data, written again from its documented definition: word n is splitmix64 of the key plus (n + 1) × γ. */
function generatedBytes(length, seed) {
  const M = (1n << 64n) - 1n;
  const mix = (z) => {
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M;
    return z ^ (z >> 31n);
  };
  const key = mix(BigInt(seed) ^ 0x6A09E667F3BCC908n);
  const out = Buffer.alloc(length);
  for (let word = 0; word * 8 < length; word++) {
    const value = mix((key + ((BigInt(word) + 1n) * 0x9E3779B97F4A7C15n)) & M);
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64LE(value);
    bytes.copy(out, word * 8, 0, Math.min(8, length - word * 8));
  }
  return out;
}

const DEFAULT_SEED = 0x00c0ffee;

/** What the native `lab hash --mb 2` prints (crates/lab/tests/cli.rs checks the same value). */
const NATIVE_2MB_SHA256 = SHA256_OF_GENERATED_2MB;

test('generated data hashed as a loop and on 2 workers gives the right digest every time', async () => {
  const expected = crypto.createHash('sha256').update(generatedBytes(2 * 1024 * 1024, DEFAULT_SEED)).digest('hex');
  assert.equal(expected, NATIVE_2MB_SHA256, 'the JavaScript generator and the native CLI agree');
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/hashing?mb=2&hashes=4&workers=2&autorun=1`);
  const panel = page.locator('section[data-experiment="hashing"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const digest = panel.getByTestId('digest');
  assert.equal(await digest.getAttribute('data-digest'), expected);
  assert.equal(await digest.getAttribute('data-agree'), 'true');
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.result)), [expected, expected]);
  const lanes = panel.getByTestId('hash-timeline').locator('table.timeline-workers tbody tr');
  // Four hashes of 2 MB each: long enough for both workers of the pool to take some.
  assertWorkersUsed(await lanes.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker))), 2, 4);
  const mbps = await panel.getByTestId('throughput').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.mbps)));
  assert.ok(mbps.every((v) => v > 0));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a file picked through the file input is hashed to its sha256sum', async () => {
  const file = path.join(os.tmpdir(), `lab-hash-${process.pid}.bin`);
  const content = crypto.randomBytes(5 * 1024 * 1024 + 123);
  fs.writeFileSync(file, content);
  const expected = crypto.createHash('sha256').update(content).digest('hex');
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/hashing?hashes=3&workers=2`);
  const panel = page.locator('section[data-experiment="hashing"]');
  await panel.getByRole('radio', { name: 'A file from your computer' }).check();
  await panel.getByLabel('Choose a file').setInputFiles(file);
  assert.match(await panel.getByTestId('file-chosen').innerText(), /lab-hash-.*\.bin: 5.0\sMB/);
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.equal(await panel.getByTestId('digest').getAttribute('data-digest'), expected);
  assert.equal(await panel.getByTestId('digest').getAttribute('data-agree'), 'true');
  // The download's rows name the file's size: rows of another file are another problem to compare.
  await panel.getByRole('button', { name: 'Share and export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download JSON', exact: true }).click(),
  ]);
  const rows = JSON.parse(fs.readFileSync(await download.path(), 'utf8')).results;
  assert.ok(rows.length >= 2 && rows.every((r) => r.settings.file_bytes === String(content.length)), JSON.stringify(rows.map((r) => r.settings)));
  fs.rmSync(file);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Stop ends a long hashing run', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/hashing?mb=2048&hashes=8&workers=2`);
  const panel = page.locator('section[data-experiment="hashing"]');
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await panel.locator('.run-status progress').waitFor();
  await page.waitForTimeout(800);
  const started = Date.now();
  await panel.getByRole('button', { name: 'Stop' }).click();
  assert.equal(await waitForOutcome(panel, 10_000), 'stopped');
  console.log(`# stopping a 2 GB hashing run took ${Date.now() - started} ms`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an address asking to hash terabytes by itself waits for Run, and says how much one Run hashes', async () => {
  const page = await newPage(browser);
  // 4,096 MB × 64 hashes × 10 repetitions, as a loop and on workers: 5,120 GB.
  await page.goto(`${server.url}/chapters/hashing?mb=4096&hashes=64&reps=10&workers=2&autorun=1`);
  const panel = page.locator('section[data-experiment="hashing"]');
  const note = panel.getByTestId('big-run');
  await note.waitFor();
  assert.match(await note.innerText(), /One Run hashes 5,120\.0 GB.*asked to start it by itself/s);
  // Nothing starts: after a while the Run button is still there and no row was measured.
  await page.waitForTimeout(3_000);
  assert.equal(await panel.getByRole('button', { name: 'Stop' }).getAttribute('aria-disabled'), 'true', 'no run under way');
  assert.equal(await panel.locator('.run-status progress').count(), 0, 'no progress');
  assert.equal(await panel.locator('table.results tr[data-variant]').count(), 0, 'no row measured');
  // Smaller settings: the note goes; a Run of them works.
  await panel.getByLabel('Size (MB)').fill('2');
  await panel.getByLabel('Size (MB)').press('Tab');
  await note.waitFor({ state: 'detached' });
  // The same address at a size an autorun may start runs by itself, with no note.
  await page.goto(`${server.url}/chapters/hashing?mb=2&hashes=4&reps=1&workers=2&autorun=1`);
  assert.equal(await waitForOutcome(panel, 60_000), 'finished');
  assert.equal(await panel.getByTestId('big-run').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('without cross-origin isolation a picked file is hashed on message-passing workers', async () => {
  const plain = await serve('none');
  const file = path.join(os.tmpdir(), `lab-hash-plain-${process.pid}.bin`);
  try {
    const content = crypto.randomBytes(3 * 1024 * 1024 + 77);
    fs.writeFileSync(file, content);
    const expected = crypto.createHash('sha256').update(content).digest('hex');
    const page = await newPage(browser);
    await page.goto(`${plain.url}/chapters/hashing?hashes=4&workers=2`);
    const panel = page.locator('section[data-experiment="hashing"]');
    assert.match(await page.getByTestId('single-worker-banner').innerText(), /share no memory/);
    await panel.getByRole('radio', { name: 'A file from your computer' }).check();
    await panel.getByLabel('Choose a file').setInputFiles(file);
    assert.equal(await clickAndWait(panel, 'Run'), 'finished');
    assert.equal(await panel.getByTestId('digest').getAttribute('data-digest'), expected);
    assert.equal(await panel.getByTestId('digest').getAttribute('data-agree'), 'true');
    // The four hashes ran on the two workers asked for: two lanes in the timeline.
    const lanes = panel.getByTestId('hash-timeline').locator('table.timeline-workers tbody tr');
    assert.deepEqual(await lanes.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.worker))), [0, 1]);
    assert.ok(plain.requests.some((url) => url.startsWith(`/${ENGINE_SINGLE}/message-worker.js`)));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    fs.rmSync(file, { force: true });
    await plain.close();
  }
});
