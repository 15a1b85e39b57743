// The course cartridge, opened the way a course site shows it: `cargo xtask cartridge` makes a
// Russian cartridge of two chapters for the locally served site, its pages are served from another
// origin with no isolation headers (a course site), and each page, opened in Chromium, must show
// its chapter's embed (isolated on its own by Document-Isolation-Policy), in the cartridge's
// language, with a run that finishes, and a link to the chapter's own page that the site serves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { launch, newPage, serve, waitForOutcome } from '../lib.mjs';
import { startServer } from '../server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The deployable site (`cargo xtask dist`'s output, with a page per route and language). */
const DIST_SITE_DIR = process.env.DIST_SITE_DIR || path.join(ROOT, 'target/site');
/** The chapters of the cartridge, and the experiment each one's embed must show first. */
const CHAPTERS = [['sum', 'sum'], ['hashing', 'hashing']];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The files of a zip archive, by name (stored or deflated entries, as the cartridge writes them). */
function unzip(bytes) {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'the cartridge is a zip (it has an end of central directory)');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const files = new Map();
  for (let i = 0; i < count; i += 1) {
    assert.equal(bytes.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const data = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const stored = bytes.subarray(data, data + size);
    assert.ok(method === 0 || method === 8, `${name}: compression method ${method}`);
    files.set(name, (method === 8 ? zlib.inflateRawSync(stored) : stored).toString('utf8'));
    at += 46 + skip;
  }
  return files;
}

/** The manifest's pages in module order: [item title, page file]. Each page's item is followed by
 * its chapter's quiz (an assessment, checked by the cartridge's native tests), left out here. */
function pagesOf(manifest) {
  const items = [...manifest.matchAll(/<item identifier="[^"]+" identifierref="([^"]+)">\s*<title>([^<]+)<\/title>/g)];
  return items.flatMap(([, reference, title]) => {
    const resource = manifest.match(new RegExp(`<resource identifier="${reference}" type="([^"]+)"[^>]*>`));
    assert.ok(resource, `the manifest has the resource ${reference}`);
    if (resource[1] !== 'webcontent') return [];
    const href = resource[0].match(/ href="([^"]+)"/);
    assert.ok(href, `the page ${reference} names its file`);
    return [[title, href[1]]];
  });
}

test('a Russian cartridge of two chapters: each page, on a course origin, opens its embed and runs', async () => {
  // The lab's host sends what `_headers` asks for embeds (Document-Isolation-Policy); the service
  // worker, which would do the same on a host without headers, stays out of the way.
  const app = await startServer({ root: DIST_SITE_DIR, mode: 'dip' });
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cartridge-')), 'ru.imscc');
  execFileSync('cargo', ['xtask', 'cartridge', '--site', `${app.url}/`, '--lang', 'ru', '--chapters', CHAPTERS.map(([slug]) => slug).join(','), '--out', out], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const files = unzip(fs.readFileSync(out));
  const pages = pagesOf(files.get('imsmanifest.xml'));
  assert.equal(pages.length, CHAPTERS.length, `one page per chapter: ${JSON.stringify(pages)}`);
  // The course site serves the cartridge's pages, as it would after the import.
  const overrides = Object.fromEntries(pages.map(([, file]) => {
    assert.ok(files.has(file), `${file} is in the cartridge`);
    return [`/${file}`, files.get(file)];
  }));
  // (A course site has its own icon; the browser asks for one.)
  overrides['/favicon.ico'] = { status: 204, body: '' };
  const course = await serve('none', { overrides });
  for (const [index, [title, file]] of pages.entries()) {
    const [slug, experiment] = CHAPTERS[index];
    const page = await newPage(browser, { serviceWorkers: 'block' });
    await page.goto(`${course.url}/${file}`);
    assert.equal(await page.evaluate(() => crossOriginIsolated), false, `${file}: the course page is not isolated`);
    assert.equal(await page.locator('h1').innerText(), title, `${file}: the page is the manifest's item`);
    const frameElement = page.locator('iframe');
    assert.equal(await frameElement.getAttribute('src'), `${app.url}/ru/embed/chapters/${slug}`, `${file}: the chapter's embed`);
    await frameElement.scrollIntoViewIfNeeded();
    const frame = await (await frameElement.elementHandle()).contentFrame();
    const panel = frame.locator(`section[data-experiment="${experiment}"]`);
    await panel.waitFor({ timeout: 60_000 });
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'ru', `${file}: the embed speaks Russian`);
    assert.equal(await frame.evaluate(() => crossOriginIsolated), true, `${file}: the embed is isolated on its own`);
    if (index === 0) {
      await panel.locator('form.controls button[type="submit"]').click();
      assert.equal(await waitForOutcome(panel, 120_000), 'finished', `${file}: a run in the embed`);
    }
    // The link to the chapter's own tab is a page the site serves, in Russian.
    const link = page.locator('a[target="_blank"]');
    assert.equal(await link.getAttribute('href'), `${app.url}/ru/chapters/${slug}`);
    const own = await page.request.get(`${app.url}/ru/chapters/${slug}`);
    assert.equal(own.status(), 200, `${file}: the chapter's own page`);
    assert.match(await own.text(), /<html[^>]* lang="ru"/);
    assert.deepEqual(page.problems, [], file);
    await page.context().close();
  }
  await course.close();
  await app.close();
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});
