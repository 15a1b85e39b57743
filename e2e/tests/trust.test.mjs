// Numbers a reader can trust (issue 34): every sample of a run lasts long enough for the clock, the
// loop and its tasks are timed in turns, the table says what the run found in a sentence and fits
// the screen, no default or answer offers more parallelism than the machine has, lanes beyond the
// cores say so, and the Run button keeps the keyboard focus.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, serve, waitForOutcome } from '../lib.mjs';

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

/** Before any script of the page: keep every measurement the engine posts to it. */
function recordMeasurements() {
  window.__measured = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ({ data }) => {
        try {
          const message = typeof data === 'string' ? JSON.parse(data) : data;
          if (message && typeof message === 'object' && message.measured) window.__measured.push(message.measured.measurement);
        } catch {
          // not a JSON message of the engine
        }
      });
    }
  };
}

test('a run times the loop and its tasks in turns, each sample at least 100 ms, and says what it found', async () => {
  const page = await newPage(browser);
  await page.addInitScript(recordMeasurements);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=8&n=1000000&reps=3&autorun=1`);
  const panel = page.locator('section[data-experiment="sum"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const measured = await page.evaluate(() => window.__measured);
  assert.equal(measured.length, 2);
  for (const m of measured) {
    assert.equal(m.samples_ms.length, 3, 'three repetitions');
    assert.equal(m.interleaved, true, 'the loop and its tasks took turns');
    // A sum of a million numbers takes about a millisecond: each sample repeats it to last 100 ms.
    assert.equal(m.sample_passes.length, 3);
    for (const [i, passes] of m.sample_passes.entries()) {
      assert.ok(passes > 1, `sample ${i} of ${m.job.variant}: ${passes} passes`);
      assert.ok(passes * m.samples_ms[i] >= 50, `sample ${i} of ${m.job.variant}: ${passes} passes of ${m.samples_ms[i]} ms`);
    }
  }
  // Every raw repetition is in the table's row, not only the median.
  const rows = panel.locator('table.results tr[data-variant]');
  const samples = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.samples.split(' ').map(Number)));
  assert.equal(samples.length, measured.length);
  for (const [i, shown] of samples.entries()) {
    assert.equal(shown.length, measured[i].samples_ms.length);
    for (const [j, ms] of shown.entries()) assert.ok(Math.abs(ms - measured[i].samples_ms[j]) < 1e-9, `row ${i}, sample ${j}: ${ms}`);
  }
  // One sentence above the table says what the run found, in words.
  const found = await panel.getByTestId('results-found').innerText();
  assert.match(found, /^Run 1: “Concurrent: 8 tasks on 2 workers” (ran [\d.]+× as fast as|took [\d.]+× as long as) “Sequential: one loop on one worker”\./);
  const speedup = Number(await rows.nth(1).getAttribute('data-speedup'));
  assert.ok(found.includes(`${speedup >= 1 ? speedup.toFixed(2) : (1 / speedup).toFixed(2)}×`), `${found} quotes ${speedup}`);
  // How it was timed, under the table.
  assert.match(await panel.getByTestId('method-line').innerText(), /until 100\sms have passed.*\(\d[\d,–]* passes per repetition here\)\. The jobs took turns/);
  // The speedup sits next to the variant.
  const headings = await panel.locator('table.results thead th').allInnerTexts();
  assert.deepEqual(headings.slice(0, 3), ['Run', 'Variant', 'Speedup']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`the results table fits a ${width} px screen, the speedup in view`, async () => {
    const page = await newPage(browser, { viewport: { width, height } });
    await page.goto(`${server.url}/chapters/sum?workers=2&tasks=8&n=1000000&reps=2&autorun=1`);
    const panel = page.locator('section[data-experiment="sum"]');
    assert.equal(await waitForOutcome(panel), 'finished');
    const box = panel.locator('.table-scroll').filter({ has: page.locator('table.results') }).first();
    const { scroll, client } = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(scroll <= client + 1, `the table is ${scroll} px wide in a ${client} px box`);
    for (const cell of await panel.locator('table.results tr[data-variant] td[data-col="speedup"]').all()) {
      const b = await cell.boundingBox();
      assert.ok(b && b.x >= 0 && b.x + b.width <= width, `the speedup cell at ${b?.x}+${b?.width} is inside ${width} px`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('Run keeps the keyboard focus while it runs and after', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/sum?workers=2&tasks=8&n=1000000&reps=2`);
  const panel = page.locator('section[data-experiment="sum"]');
  const run = panel.getByRole('button', { name: 'Run', exact: true });
  await run.focus();
  await page.keyboard.press('Enter');
  await panel.locator('[data-outcome="running"]').waitFor({ state: 'attached' });
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  assert.equal(await focused(), 'Run', 'the focus stays on Run while it runs');
  assert.equal(await run.getAttribute('aria-disabled'), 'true', 'and Run says it is unavailable');
  // Enter again while it runs starts nothing.
  await page.keyboard.press('Enter');
  assert.equal(await waitForOutcome(panel), 'finished');
  assert.equal(await focused(), 'Run', 'the focus is still on Run after the run');
  assert.equal(await panel.locator('[data-testid="row-run"]').evaluateAll((cells) => new Set(cells.map((c) => c.innerText)).size), 1, 'one run');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('chapter 1 starts with no more workers than cores, and lanes beyond the cores say they share them', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/concurrency-vs-parallelism`);
  const panel = page.locator('section[data-experiment="demo"]');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const workers = Number(await panel.getByLabel('Workers', { exact: true }).inputValue());
  assert.equal(workers, Math.min(4, cores), `${workers} workers on ${cores} cores`);
  await page.context().close();

  const more = cores + 2;
  const busy = await newPage(browser);
  await busy.goto(`${server.url}/chapters/concurrency-vs-parallelism?workers=${more}&tasks=8&units=2000&autorun=1`);
  const demo = busy.locator('section[data-experiment="demo"]');
  assert.equal(await waitForOutcome(demo), 'finished');
  const note = demo.getByTestId('demo-timeline-many').getByTestId('timeline-shared-cores');
  assert.match(await note.innerText(), new RegExp(`^${more} workers shared this machine's ${cores} logical processors?: at most ${cores} ran at any moment`));
  assert.equal(await demo.getByTestId('demo-timeline-one').getByTestId('timeline-shared-cores').count(), 0, 'one worker shares nothing');
  assert.deepEqual(busy.problems, []);
  await busy.context().close();
});

test('the speedup question offers no more than the workers that can run at once', async () => {
  const page = await newPage(browser);
  const cores = 2;
  await page.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), cores);
  await page.goto(`${server.url}/chapters/sum?workers=8&tasks=8`);
  const panel = page.locator('section[data-experiment="sum"]');
  await panel.locator('.prediction-question label').first().waitFor();
  const options = await panel.locator('.prediction-question label').allInnerTexts();
  assert.equal(options.length, 4);
  const named = options.flatMap((o) => [...o.matchAll(/([\d.]+)×/g)].map((m) => Number(m[1])));
  assert.ok(named.length > 0, `the options name speedups: ${options}`);
  assert.ok(Math.max(...named) <= cores, `on ${cores} cores, 8 workers: ${options.join(' | ')}`);
  // Reads that wait can beat the workers: on one worker the bands still leave room for "faster"
  // (no empty "up to about 1×" beside "about the same: 0.9× to 1.5×").
  await page.goto(`${server.url}/chapters/document-search?workers=1&tasks=64`);
  const search = page.locator('section[data-experiment="document-search"]');
  await search.locator('.prediction-question label').first().waitFor();
  const waits = await search.locator('.prediction-question label').allInnerTexts();
  assert.equal(waits.length, 4);
  const bands = waits.map((o) => [...o.matchAll(/([\d.]+)×/g)].map((m) => Number(m[1])).pop());
  assert.ok(bands[2] >= 2 && bands[3] >= 2, `one worker, waiting reads: ${waits.join(' | ')}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
