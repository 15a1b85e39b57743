// Firefox for the cross-browser tests: Debian's firefox-esr driven headless by puppeteer-core over
// WebDriver BiDi (Playwright drives only its own patched Firefox, which cannot be downloaded here),
// with pages that record their errors, and the few page helpers the tests need in puppeteer's terms.
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

/** Firefox headless, with no calls home (the machine's network is closed). */
export async function launchFirefox() {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
}

/**
 * A new page (in a context of its own) that records uncaught errors and console errors in
 * `page.problems`, and accepts the prompt a page with results not downloaded shows on leaving.
 */
export async function newFirefoxPage(browser, { width = 1280, height = 900 } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height });
  page.problems = [];
  page.on('dialog', (dialog) => (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()));
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message ?? error}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  return page;
}

/** How many runs of the panel `panel` (a selector) in `frame` have ended so far. */
export async function runsEndedIn(frame, panel) {
  return frame.$eval(`${panel} [data-testid="outcome"]`, (el) => Number(el.dataset.runsEnded));
}

/**
 * Wait until the panel has seen more than `before` runs end, and return how the last one ended:
 * "finished", "stopped" or "failed" (with its words in the test output when it failed).
 */
export async function waitForOutcomeIn(frame, panel, { before = 0, timeout = 120_000 } = {}) {
  const selector = `${panel} [data-testid="outcome"]`;
  // Polled from here rather than with waitForFunction, which did not always return in a frame of
  // another origin over BiDi (seen with puppeteer-core 24.43 and Firefox 153: the run had ended).
  const until = Date.now() + timeout;
  for (;;) {
    const ended = await frame.$eval(selector, (el) => Number(el.dataset.runsEnded)).catch(() => NaN);
    if (ended > before) break;
    if (Date.now() > until) throw new Error(`no run ended in ${timeout} ms (${selector})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [outcome, words] = await frame.$eval(selector, (el) => [el.dataset.outcome, el.innerText]);
  if (outcome === 'failed') console.log(`# a run failed in Firefox: ${words.replace(/\s+/g, ' ')}`);
  return outcome;
}

/** Click the button whose accessible text is `name` (exactly) inside `panel`. */
export async function clickButton(frame, panel, name) {
  const found = await frame.$$eval(
    `${panel} button`,
    (buttons, wanted) => {
      const button = buttons.find((b) => (b.getAttribute('aria-label') ?? b.innerText).trim() === wanted && !b.disabled);
      button?.click();
      return Boolean(button);
    },
    name,
  );
  if (!found) throw new Error(`no enabled button "${name}" in ${panel}`);
}

/** Each result row of the panel: its variant, its result and its check cell's words. */
export async function resultRows(frame, panel) {
  return frame.$$eval(`${panel} table.results tbody tr[data-variant]`, (rows) =>
    rows.map((tr) => ({
      variant: tr.dataset.variant,
      result: tr.dataset.result,
      check: tr.querySelector('td.check, td[data-col="check"]')?.innerText ?? '',
      workers: tr.querySelector('td[data-col="workers"]')?.innerText ?? '',
      samples: (tr.dataset.samples ?? '').split(' ').filter(Boolean).map(Number),
    })),
  );
}

/** The worker indices of a timeline's lanes (`testid` names the timeline). */
export async function timelineWorkers(frame, panel, testid) {
  return frame.$$eval(`${panel} [data-testid="${testid}"] table.timeline-workers tbody tr`, (trs) =>
    trs.map((tr) => Number(tr.dataset.worker)),
  );
}
