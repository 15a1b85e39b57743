// Failure injection: each file the engine loads is served broken in turn (a 404, the wrong MIME
// type, a syntax error, an answer held back for 45 s). Every run then ends as failed within 30 s
// with a message naming the problem, Stop works meanwhile, and the next run works once the file is
// served again. The times measured are printed, for the README's Reliability section.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, newPage, serve, ENGINE, ENGINE_SINGLE } from '../lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const HELD_MS = 45_000;
const FAULTS = {
  404: () => ({ status: 404, type: 'text/plain; charset=utf-8', body: 'not found' }),
  mime: () => ({ type: 'text/plain; charset=utf-8' }),
  syntax: (file) => ({ body: file.endsWith('.wasm') ? 'this is not WebAssembly' : 'this is not a script(' }),
  delay: () => ({ delayMs: HELD_MS }),
};

/** What the failure message must say, by file and fault (a regex), or 'works' when the browser copes. */
const EXPECTED = {
  [`${ENGINE}/coordinator.js`]: {
    404: /engine-[0-9a-f]{16}\/coordinator\.js answered 404/,
    mime: /engine-[0-9a-f]{16}\/coordinator\.js is served as text\/plain/,
    syntax: /SyntaxError|may be broken/,
    delay: /did not start within 15\ss: engine-[0-9a-f]{16}\/coordinator\.js did not arrive/,
  },
  [`${ENGINE}/engine.js`]: {
    404: /engine-[0-9a-f]{16}\/engine\.js answered 404/,
    mime: /engine-[0-9a-f]{16}\/engine\.js is served as text\/plain/,
    syntax: /SyntaxError|may be broken/,
    delay: /did not start within 15\ss: engine-[0-9a-f]{16}\/engine\.js did not arrive/,
  },
  [`${ENGINE}/engine_bg.wasm`]: {
    404: /could not start: .*engine-[0-9a-f]{16}\/engine_bg\.wasm answered 404/,
    // WebAssembly that arrives with the wrong type is still compiled (wasm-bindgen reads the bytes).
    mime: 'works',
    syntax: /could not start: .*(CompileError|WebAssembly)/,
    delay: /did not start within 15\ss: engine-[0-9a-f]{16}\/engine_bg\.wasm did not arrive/,
  },
  [`${ENGINE}/pool-worker.js`]: {
    404: /a worker crashed: engine-[0-9a-f]{16}\/pool-worker\.js answered 404.* \| a worker of the pool could not be loaded/,
    mime: /a worker crashed: engine-[0-9a-f]{16}\/pool-worker\.js is served as text\/plain.* \| a worker of the pool could not be loaded/,
    syntax: /a worker of the pool (failed: .*SyntaxError|could not be loaded)/,
    delay: /starting the workers .* took longer than 20\ss/,
  },
};

const times = [];
after(() => {
  if (times.length) console.log(`failure injection: ${times.map(([c, ms]) => `${c} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
});

/** Run the Sum experiment on `page` and return how it ended, its message (the status line, then
 * the technical detail under it, if any), and how long it took. */
async function runSum(page, timeout) {
  const panel = page.locator('section[data-experiment="sum"]');
  const started = Date.now();
  const outcome = await clickAndWait(panel, 'Run', timeout);
  const status = await panel.getByTestId('outcome').innerText();
  const detail = await panel.locator('[data-testid="failure-detail"] code').allTextContents();
  return { outcome, ms: Date.now() - started, message: [status, ...detail].join(' | ') };
}

for (const [file, faults] of Object.entries(EXPECTED)) {
  test(`${file} served broken in four ways: each run fails within 30 s naming the problem, and the next works`, async () => {
    const server = await serve('isolated');
    try {
      for (const [fault, expected] of Object.entries(faults)) {
        // A fresh page per fault, so nothing is left from the last one.
        const page = await newPage(browser);
        server.overrides[`/${file}`] = FAULTS[fault](file);
        await page.goto(`${server.url}/chapters/sum?workers=2&tasks=2&n=100000&reps=1`);
        const broken = await runSum(page, 40_000);
        times.push([`${file} ${fault}`, broken.ms]);
        if (expected === 'works') {
          assert.equal(broken.outcome, 'finished', `${file} ${fault}: ${broken.message}`);
        } else {
          assert.equal(broken.outcome, 'failed', `${file} ${fault}: ${broken.message}`);
          assert.ok(broken.ms < 30_000, `${file} ${fault}: failed after ${broken.ms} ms`);
          assert.match(broken.message, expected, `${file} ${fault}`);
        }
        delete server.overrides[`/${file}`];
        // The server recovers: answers it held back go out now (the browser waits for those before
        // asking for the same file again).
        server.releaseHeld();
        const fixed = await runSum(page, 60_000);
        assert.equal(fixed.outcome, 'finished', `${file} ${fault}, served again: ${fixed.message}`);
        await page.context().close();
      }
    } finally {
      await server.close();
    }
  });
}

test('message-worker.js served broken in four ways: runs without shared memory fail naming it, the next works', async () => {
  const server = await serve('none');
  const expected = {
    404: /message worker \d could not start: message-worker\.js could not be loaded/,
    mime: /message worker \d could not start: message-worker\.js could not be loaded/,
    syntax: /message worker \d could not start: .*(SyntaxError|could not be loaded)/,
    delay: /only 0 of 2 message workers loaded the engine within 20\ss/,
  };
  try {
    for (const [fault, pattern] of Object.entries(expected)) {
      const page = await newPage(browser);
      server.overrides[`/${ENGINE_SINGLE}/message-worker.js`] = FAULTS[fault]('message-worker.js');
      await page.goto(`${server.url}/chapters/sum?workers=2&tasks=4&n=100000&reps=1`);
      const broken = await runSum(page, 40_000);
      times.push([`${ENGINE_SINGLE}/message-worker.js ${fault}`, broken.ms]);
      assert.equal(broken.outcome, 'failed', `${fault}: ${broken.message}`);
      assert.ok(broken.ms < 30_000, `${fault}: failed after ${broken.ms} ms`);
      assert.match(broken.message, pattern);
      delete server.overrides[`/${ENGINE_SINGLE}/message-worker.js`];
      server.releaseHeld();
      const fixed = await runSum(page, 60_000);
      assert.equal(fixed.outcome, 'finished', `${fault}, served again: ${fixed.message}`);
      await page.context().close();
    }
  } finally {
    await server.close();
  }
});

test('idle-worker.js served broken: the memory experiment says why a worker could not be weighed, and ends', async () => {
  const server = await serve('isolated');
  const expected = {
    404: /could not be started \(idle-worker\.js could not be loaded\)/,
    mime: /could not be started \(idle-worker\.js could not be loaded\)/,
    syntax: /could not be started \(idle-worker\.js could not be loaded\)/,
    delay: /could not be started \(idle-worker\.js did not start within 10\ss\)/,
  };
  try {
    for (const [fault, pattern] of Object.entries(expected)) {
      const page = await newPage(browser);
      server.overrides[`/${ENGINE}/idle-worker.js`] = FAULTS[fault]('idle-worker.js');
      await page.goto(`${server.url}/chapters/task-costs?parked=1000`);
      const panel = page.locator('section[data-experiment="task-memory"]');
      const started = Date.now();
      assert.equal(await clickAndWait(panel, 'Measure memory', 40_000), 'finished', fault);
      times.push([`${ENGINE}/idle-worker.js ${fault}`, Date.now() - started]);
      const said = panel.getByTestId('bytes-per-worker-unavailable');
      // Without a memory figure from the browser nothing is weighed at all, and the page says that instead.
      assert.match(await said.innerText(), new RegExp(`${pattern.source}|cannot be measured here`), fault);
      assert.ok(Date.now() - started < 30_000);
      await page.context().close();
    }
  } finally {
    await server.close();
  }
});

test('Stop works while the engine or its workers are still loading', async () => {
  const server = await serve('isolated');
  try {
    for (const file of [`${ENGINE}/coordinator.js`, `${ENGINE}/pool-worker.js`]) {
      const page = await newPage(browser);
      server.overrides[`/${file}`] = FAULTS.delay(file);
      await page.goto(`${server.url}/chapters/sum?workers=2&tasks=2&n=100000&reps=1`);
      const panel = page.locator('section[data-experiment="sum"]');
      await panel.getByRole('button', { name: 'Run', exact: true }).click();
      await page.waitForTimeout(1_500);
      const outcome = panel.getByTestId('outcome');
      const before = Number(await outcome.getAttribute('data-runs-ended'));
      const stopped = Date.now();
      await panel.getByRole('button', { name: 'Stop' }).click();
      await page.waitForFunction(
        ([count]) => Number(document.querySelector('[data-testid="outcome"]').dataset.runsEnded) > count,
        [before],
        { timeout: 10_000, polling: 20 },
      );
      const took = Date.now() - stopped;
      times.push([`Stop while ${file} loads`, took]);
      assert.equal(await outcome.getAttribute('data-outcome'), 'stopped', file);
      // A wide bound: the engine is restarted 0.7 s after Stop at the latest.
      assert.ok(took < 3_000, `${file}: stopped ${took} ms after Stop`);
      delete server.overrides[`/${file}`];
      server.releaseHeld();
      const fixed = await runSum(page, 60_000);
      assert.equal(fixed.outcome, 'finished', `${file}, served again: ${fixed.message}`);
      await page.context().close();
    }
  } finally {
    await server.close();
  }
});
