// The accessibility audit of issue 18: axe-core (npm, pinned in package-lock.json) on the landing
// page, every chapter and every experiment's embed, in the light and the dark colour scheme, after
// a run where the page has one (so results tables, charts' data tables and timelines are there).
// The bar: no violation axe rates serious or critical. Each violation is reported with the rule, the
// elements and axe's own explanation, so a failure says what to fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CATALOG, CHAPTER_FIRST_EXPERIMENTS, experimentNamed, launch, newPage, serve, waitForOutcome } from '../lib.mjs';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser;
let server;
before(async () => {
  server = await serve('isolated');
  browser = await launch();
});
// What was audited, printed at the end for the README's figures: audits run, and the rules that
// applied and passed.
const audits = { pages: new Set(), runs: 0, passed: new Set() };
after(async () => {
  await browser?.close();
  await server?.close();
  if (audits.runs) {
    console.log(`axe: ${audits.pages.size} pages, ${audits.runs} audits (light and dark), ${audits.passed.size} rules applied and passed`);
  }
});

/**
 * Each experiment's page query: the catalog's quick settings, run once on load where the engine
 * runs it (`experiment` is then the panel whose run is awaited); a model the page plays out only
 * shows its settings.
 */
const ON_LOAD = (name) => {
  const experiment = experimentNamed(name);
  return experiment.runs === 'engine' ? { query: `?${experiment.quick}&autorun=1`, awaited: name } : { query: `?${experiment.quick}`, awaited: null };
};
/** Every chapter and the experiment it shows first. */
const CHAPTERS = CHAPTER_FIRST_EXPERIMENTS;
/** Every experiment, each in an embed of its own. */
const EMBEDS = CATALOG.experiments.map((e) => e.name);

/** axe's serious and critical violations on the page as it is now, in words. */
async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  const { violations, passes } = await page.evaluate(async () => {
    const result = await window.axe.run(document);
    const violations = result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
    return { violations, passes: result.passes.map((p) => p.id) };
  });
  audits.runs += 1;
  audits.pages.add(new URL(page.url()).pathname);
  for (const id of passes) audits.passed.add(id);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.join(' | ')}`);
}

/** Open `path`, wait for `experiment`'s run (if any) to end, then audit light and dark. */
async function auditPage(path, experiment) {
  const page = await newPage(browser);
  try {
    await page.goto(`${server.url}${path}`);
    await page.locator('main, .embed').first().waitFor();
    if (experiment) {
      const outcome = await waitForOutcome(page.locator(`section[data-experiment="${experiment}"]`), 120_000);
      assert.equal(outcome, 'finished', `${path}: the run ended ${outcome}`);
    } else {
      await page.locator('section.experiment, main h1').first().waitFor();
      // A page of prose only (the landing text, How the lab works) is audited with its prose; an
      // experiment embed has none.
      if (!path.includes('/embed/')) await page.locator('main .prose').first().waitFor();
    }
    const problems = [];
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      problems.push(...(await audit(page)).map((p) => `${scheme}: ${p}`));
    }
    assert.deepEqual(page.problems, [], `${path}: page errors`);
    return problems;
  } finally {
    await page.context().close();
  }
}

test('the landing page and every chapter, after a run, light and dark: no serious or critical axe violation', { timeout: 600_000 }, async () => {
  const problems = [];
  for (const path of ['/', '/how-the-lab-works']) problems.push(...(await auditPage(path, null)).map((p) => `${path} ${p}`));
  for (const [slug, first] of CHAPTERS) {
    const { query, awaited } = ON_LOAD(first);
    const path = `/chapters/${slug}${query}`;
    problems.push(...(await auditPage(path, awaited)).map((p) => `/chapters/${slug} ${p}`));
  }
  assert.deepEqual(problems, []);
});

test('every experiment embed, after a run where it has one, light and dark: no serious or critical axe violation', { timeout: 600_000 }, async () => {
  const problems = [];
  for (const name of EMBEDS) {
    const { query, awaited } = ON_LOAD(name);
    const path = `/embed/experiments/${name}${query}`;
    problems.push(...(await auditPage(path, awaited)).map((p) => `${path} ${p}`));
  }
  assert.deepEqual(problems, []);
});

test('keyboard alone: focus follows the reading order, and the Go replay steps and announces each step', async () => {
  const page = await newPage(browser, { reducedMotion: 'reduce' });
  try {
    await page.goto(`${server.url}/chapters/go-scheduler${ON_LOAD('go-scheduler').query}`);
    const panel = page.locator('section[data-experiment="go-scheduler"]');
    assert.equal(await waitForOutcome(panel, 120_000), 'finished');
    assert.equal(await page.locator('[tabindex]:not([tabindex="0"]):not([tabindex="-1"])').count(), 0, 'no positive tabindex');
    // Tab through the whole page: every stop comes later in the document than the one before.
    await page.evaluate(() => {
      window.__stops = [];
      document.activeElement?.blur();
    });
    for (let i = 0; i < 400; i++) {
      await page.keyboard.press('Tab');
      const done = await page.evaluate(() => {
        const here = document.activeElement;
        if (!here || here === document.body || window.__stops.includes(here)) return true;
        window.__stops.push(here);
        return false;
      });
      if (done) break;
    }
    const { count, backwards } = await page.evaluate(() => {
      const stops = window.__stops;
      const backwards = [];
      for (let i = 1; i < stops.length; i++) {
        if (stops[i - 1].compareDocumentPosition(stops[i]) & Node.DOCUMENT_POSITION_PRECEDING) {
          const e = stops[i];
          backwards.push(`${e.tagName.toLowerCase()} "${(e.innerText || e.getAttribute('aria-label') || '').slice(0, 40)}"`);
        }
      }
      return { count: stops.length, backwards };
    });
    assert.ok(count > 20, `${count} tab stops`);
    assert.deepEqual(backwards, [], 'these stops come before the one Tab left');

    // The replay by keyboard: Step forward with Enter, and its status line (aria-live) says where it is.
    const replay = panel.getByTestId('replay');
    const status = panel.getByTestId('replay-status');
    assert.equal(await status.getAttribute('aria-live'), 'polite');
    const before = await status.innerText();
    await replay.getByRole('button', { name: 'Step forward' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    const after = await status.innerText();
    assert.notEqual(after, before, 'the status follows the steps');
    assert.match(after, /^Step \d+ of \d+/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});
