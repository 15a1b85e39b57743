// WebKit (Safari's engine) for the cross-browser tests: Debian's WebKitGTK MiniBrowser, driven over
// classic WebDriver by its own WebKitWebDriver (started under Xvfb, as it needs a display) through
// npm's selenium-webdriver. That build isolates pages but has no SharedArrayBuffer, so the lab takes
// its paths without shared memory there: message workers, or one worker.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { Builder } from 'selenium-webdriver';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** A free TCP port on loopback. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * Start WebKitWebDriver under `xvfb-run` and open a MiniBrowser session on it. Returns the driver
 * and `close()`, which ends the session and the driver's whole process group.
 */
export async function launchWebKit() {
  const port = await freePort();
  const process_ = spawn('xvfb-run', ['-a', WEBKIT_DRIVER, `--port=${port}`], { stdio: 'ignore', detached: true });
  const url = `http://127.0.0.1:${port}`;
  // Ready once its status answers.
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${url}/status`)).ok) break;
    } catch {
      // not listening yet
    }
    if (tries > 100) throw new Error(`WebKitWebDriver did not answer on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const driver = await new Builder()
    .usingServer(url)
    .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } })
    .build();
  return {
    driver,
    async close() {
      await driver.quit().catch(() => {});
      try {
        process.kill(-process_.pid);
      } catch {
        // already gone
      }
    },
  };
}

/** Poll `script` (run in the page, with `args`) until it returns a truthy value; return that value. */
export async function waitInPage(driver, script, args = [], { timeout = 60_000, what = 'a condition' } = {}) {
  const until = Date.now() + timeout;
  for (;;) {
    const value = await driver.executeScript(script, ...args).catch(() => null);
    if (value) return value;
    if (Date.now() > until) throw new Error(`WebKit: ${what} did not hold within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many runs of the panel `panel` (a selector) have ended so far. */
export async function runsEndedWebKit(driver, panel) {
  return Number(
    await driver.executeScript((s) => document.querySelector(`${s} [data-testid="outcome"]`)?.dataset.runsEnded ?? -1, panel),
  );
}

/** Wait until more than `before` runs of `panel` have ended, and return how the last one ended. */
export async function waitForOutcomeWebKit(driver, panel, { before = 0, timeout = 120_000 } = {}) {
  await waitInPage(
    driver,
    (s, count) => Number(document.querySelector(`${s} [data-testid="outcome"]`)?.dataset.runsEnded) > count,
    [panel, before],
    { timeout, what: `a run of ${panel} ending` },
  );
  const [outcome, words] = await driver.executeScript((s) => {
    const el = document.querySelector(`${s} [data-testid="outcome"]`);
    return [el.dataset.outcome, el.innerText];
  }, panel);
  if (outcome === 'failed') console.log(`# a run failed in WebKit: ${words.replace(/\s+/g, ' ')}`);
  return outcome;
}

/** Click the enabled button whose accessible text is `name` (exactly) inside `panel`. */
export async function clickButtonWebKit(driver, panel, name) {
  const found = await driver.executeScript(
    (s, wanted) => {
      const button = [...document.querySelectorAll(`${s} button`)].find(
        (b) => (b.getAttribute('aria-label') ?? b.innerText).trim() === wanted && !b.disabled,
      );
      button?.click();
      return Boolean(button);
    },
    panel,
    name,
  );
  if (!found) throw new Error(`no enabled button "${name}" in ${panel}`);
}

/**
 * Records the page's errors in `window.__labErrors`: uncaught errors, rejected promises and
 * console.error. WebKitWebDriver gives no console log, so the tests serve pages with this first in
 * their `<head>` (the server's `headScript`).
 */
export const ERROR_RECORDER = `window.__labErrors = [];
addEventListener('error', (e) => window.__labErrors.push('error: ' + (e.message || e.target?.src || e.type)), true);
addEventListener('unhandledrejection', (e) => window.__labErrors.push('rejection: ' + e.reason));
const consoleError = console.error.bind(console);
console.error = (...args) => { window.__labErrors.push('console: ' + args.join(' ')); consoleError(...args); };`;

/** The errors the page recorded (see ERROR_RECORDER), and the app's own alerts (a failed run, a prose that did not load). */
export async function pageErrorsWebKit(driver) {
  return driver.executeScript(() => [
    ...(window.__labErrors ?? ['the error recorder is missing']),
    ...[...document.querySelectorAll('[role="alert"]')].map((el) => 'alert: ' + el.innerText.replace(/\s+/g, ' ').slice(0, 200)),
  ]);
}
