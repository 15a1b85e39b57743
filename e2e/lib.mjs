// Shared helpers for the end-to-end tests and benchmarks: start the static server, launch
// Debian's Chromium through playwright-core, and collect page errors so tests can assert on them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

export const SITE_DIR = process.env.SITE_DIR || path.resolve(import.meta.dirname, '../dist');

/**
 * The folder of an engine ('engine' or 'engine-single') in the built site `dir`: `cargo xtask
 * build` names it after the engine's build (`engine-<build>`, the id every page carries in
 * `<meta name="lab-engine-build">`); a site that is not stamped keeps the plain name.
 */
export function engineFolder(name, dir = SITE_DIR) {
  // No site yet: the plain name (a test then says itself that the site is missing).
  const index = path.join(dir, 'index.html');
  const page = fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : '';
  const build = page.match(/<meta name="lab-engine-build" content="([0-9a-f]+)"/)?.[1];
  return build ? `${name}-${build}` : name;
}
/** The threaded engine's and the single-worker engine's folders in the site the tests serve. */
export const ENGINE = engineFolder('engine');
export const ENGINE_SINGLE = engineFolder('engine-single');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Flags every launch uses: no sandbox (root in CI), no GPU, no calls home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // performance.measureUserAgentSpecificMemory() answers at once instead of at the next GC.
  '--enable-blink-features=ForceEagerMeasureMemory',
];

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export async function serve(mode = 'isolated', options = {}) {
  return startServer({ root: SITE_DIR, mode, ...options });
}

/**
 * A new page that records uncaught errors and console errors in `page.problems`.
 * Tests assert it stays empty: a crash in the page must fail the test even when the UI looks fine.
 */
export async function newPage(browser, { viewport = { width: 1280, height: 900 }, reducedMotion, serviceWorkers } = {}) {
  const context = await browser.newContext({ viewport, reducedMotion, ...(serviceWorkers ? { serviceWorkers } : {}) });
  const page = await context.newPage();
  page.problems = [];
  // Leaving a page with results not downloaded asks first (www/keep.js): tests that move on accept,
  // and `page.leavePrompts` counts how often the page asked.
  page.leavePrompts = 0;
  page.on('dialog', (dialog) => {
    if (dialog.type() !== 'beforeunload') return dialog.dismiss();
    page.leavePrompts += 1;
    return dialog.accept();
  });
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  return page;
}

/** How many runs of this experiment panel have ended so far. */
export async function runsEnded(panel) {
  return Number(await panel.getByTestId('outcome').getAttribute('data-runs-ended'));
}

/**
 * Wait until the panel has seen more than `before` runs end (default: at least one), and return
 * how the last one ended: "finished", "stopped" or "failed".
 */
export async function waitForOutcome(panel, timeout = 120_000, before = 0) {
  const outcome = panel.getByTestId('outcome');
  await outcome.waitFor({ state: 'attached', timeout });
  // Evaluate in the panel's own frame (it may be inside an iframe).
  const element = await outcome.elementHandle();
  const frame = await element.ownerFrame();
  await frame.waitForFunction(
    ([el, count]) => Number(el.dataset.runsEnded) > count,
    [element, before],
    { timeout, polling: 50 },
  );
  const ended = await outcome.getAttribute('data-outcome');
  if (ended === 'failed') {
    // Said in the test's output, so that a run that fails where a test wants it to finish can be
    // read from a CI log (tests that expect a failure check its words themselves).
    const words = await outcome.innerText().catch(() => '');
    const detail = await panel.locator('[data-testid="failure-detail"] code').allTextContents().catch(() => []);
    console.log(`# a run failed: ${[words, ...detail].join(' | ').replace(/\s+/g, ' ')}`);
  }
  return ended;
}

/** Click the button called `name` in `panel` and wait for the run it starts to end. */
export async function clickAndWait(panel, name, timeout = 120_000) {
  const before = await runsEnded(panel);
  await panel.getByRole('button', { name, exact: true }).click();
  return waitForOutcome(panel, timeout, before);
}

/**
 * Check the workers that ran tasks (worker indices from a trace) against a pool of `workers` and a
 * job of `tasks` tasks. Scheduling decides how many take part (a busy machine can let one worker
 * take every task, even long ones: it happened in a full run, "only worker 0 took any of 2 long
 * tasks"), so this never asks for exactly min(workers, tasks), nor for more than one: at least one
 * and at most that many, all of them inside the pool, each once. When `longTasks` (each task long
 * enough for the others to wake up and steal) and only one worker took them, the test output says
 * so, as a note, not a failure.
 */
export function assertWorkersUsed(used, workers, tasks, { longTasks = true } = {}) {
  const most = Math.min(workers, tasks);
  assert.ok(used.length >= 1 && used.length <= most, `${used.length} workers took tasks; at most ${most} can`);
  assert.ok(used.every((w) => Number.isInteger(w) && w >= 0 && w < workers), `workers ${used} of a pool of ${workers}`);
  assert.equal(new Set(used).size, used.length, `each worker once: ${used}`);
  if (longTasks && most >= 2 && used.length < 2) {
    console.log(`# only worker ${used} took any of ${tasks} long tasks on a pool of ${workers} (a busy machine can do this)`);
  }
}

/**
 * The experiment catalog (`experiments::catalog`), as `cargo xtask catalog` writes it (the build
 * does too): `{experiments: [{name, chapter, runs, modes, quick, knobs, …}], chapters: [{slug,
 * experiments}]}`. Tests take their lists of experiments and chapters from it, never their own.
 */
export const CATALOG = (() => {
  const file = path.resolve(import.meta.dirname, 'catalog.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`cargo xtask catalog\` (or \`cargo xtask build\`)`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
})();

/** The selector of experiment `name`'s panel. */
export const panelOf = (name) => `section[data-experiment="${name}"]`;

/** What SHA-256 gives for the 2 MB the hashing chapter generates by default (what the native `lab
 * hash --mb 2` prints; hashing.test.mjs derives it again from the generator's definition). */
export const SHA256_OF_GENERATED_2MB = 'da6da518594c39a97a81b93a9b99d5f0bbfe1160be5f674018366fe67ccc43e4';

/** The catalog's entry of the experiment called `name`. */
export function experimentNamed(name) {
  const found = CATALOG.experiments.find((e) => e.name === name);
  if (!found) throw new Error(`the catalog has no experiment called ${name}`);
  return found;
}

/** Every chapter's slug and its first experiment (the one its "Try it" link reaches), in reading order. */
export const CHAPTER_FIRST_EXPERIMENTS = CATALOG.chapters.map((chapter) => [chapter.slug, chapter.experiments[0]]);

/** Open chapter `slug` from the header's chapter menu (a link inside the app: no reload). */
export async function openFromChapterMenu(page, slug) {
  const menu = page.locator('details.chapter-menu');
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  await menu.locator(`a[href$="/chapters/${slug}"]`).click();
}

/** A new page at `url` and the panel of `experiment` on it, once that panel is there. */
export async function openPanel(browser, url, experiment) {
  const page = await newPage(browser);
  await page.goto(url);
  const panel = page.locator(`section[data-experiment="${experiment}"]`);
  await panel.waitFor();
  return { page, panel };
}
