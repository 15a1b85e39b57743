// Predict, then run (issue 16, item 2): every experiment asks an optional question before its run;
// after the run one sentence names the reader's answer, the measured number (the same the panel's
// table shows) and the answer it falls in. Without an answer nothing extra appears; `predict=0`
// removes the question on chapters and embeds; the answer survives a reload (localStorage).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, clickAndWait, launch, newPage, serve } from '../lib.mjs';

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

/** The number in a table cell or line, as shown ("1.62×" → "1.62", "1,234 B" → "1,234"). */
async function shownNumber(locator, pattern = /[\d][\d,.]*/) {
  const text = await locator.first().innerText();
  const match = text.match(pattern);
  assert.ok(match, `a number in "${text}"`);
  return match[0];
}

/** The ratio column of the first results row of `variant` (optionally with `workers` workers). */
function ratioCell(panel, variant, workers) {
  let rows = panel.locator(`table[data-testid="results"] tbody tr[data-variant="${variant}"]`);
  if (workers !== undefined) rows = rows.filter({ has: panel.page().locator('td[data-col="workers"]', { hasText: new RegExp(`^${workers}$`) }) });
  return rows.first().locator('td[data-col="speedup"] .value');
}

// Each experiment the engine runs, by name: a quick setup, the button that runs it, and where its
// panel shows the number the sentence must quote. (The OS scheduler's model asks through its quiz
// instead.)
const CHECKS = {
  demo: { query: 'workers=2&tasks=4', button: 'Run both',
    number: (panel) => shownNumber(ratioCell(panel, 'many-workers')) },
  sum: { query: 'workers=2&tasks=8&n=100000&reps=1', button: 'Run',
    number: (panel) => shownNumber(ratioCell(panel, 'tasks')) },
  'shared-total': { query: 'workers=2&n=100000&reps=1', button: 'Measure the three totals',
    number: (panel) => shownNumber(ratioCell(panel, 'one-shared')) },
  'bubble-sort': { query: 'workers=2&tasks=4&n=1500&reps=1', button: 'Run',
    number: (panel) => shownNumber(ratioCell(panel, 'chunked')) },
  'cpu-vs-io': { query: 'kind=io&workers=2&tasks=8&reps=1', button: 'Run',
    number: (panel) => shownNumber(ratioCell(panel, 'goroutines')) },
  'document-search': { query: 'workers=2&tasks=4&docs=100&latency=1&reps=1', button: 'Run',
    number: (panel) => shownNumber(ratioCell(panel, 'goroutines')) },
  hashing: { query: 'mb=2&hashes=4&workers=2&reps=1', button: 'Run',
    number: (panel) => shownNumber(ratioCell(panel, 'tasks')) },
  'task-granularity': { query: 'tasks=1000&workers=2&reps=1', button: 'Measure every task size',
    number: (panel) => shownNumber(ratioCell(panel, 'goroutines', 1)) },
  'task-memory': { query: 'parked=1000', button: 'Measure memory',
    number: (panel) => shownNumber(panel.getByTestId('bytes-per-task'), /[\d][\d,]* B/) },
  'task-switch': { query: 'trips=5000&reps=3', button: 'Measure switches',
    number: (panel) => shownNumber(panel.getByTestId('switch-ratio')) },
  qps: { query: 'requests=200&c=20&wait=10&work=50&threads=2&workers=2&reps=1', button: 'Run',
    number: (panel) => shownNumber(panel.getByTestId('qps-ratio')) },
  'go-scheduler': { query: 'scenario=spawn-on-one&workers=4&tasks=16', button: 'Record a run',
    // The replay counts steals itself; the sentence's total must be the run's task count.
    number: async () => 'of 16 tasks' },
};
/** The catalog's experiments that the engine runs, each with its check; one without a check fails. */
const EXPERIMENTS = CATALOG.experiments
  .filter((e) => e.runs === 'engine')
  .map((e) => {
    if (!CHECKS[e.name]) throw new Error(`predict: say how ${e.name}'s panel shows the number its sentence quotes`);
    return { name: e.name, chapter: e.chapter, ...CHECKS[e.name] };
  });
const SUM = EXPERIMENTS.find((e) => e.name === 'sum');

async function openPanel(page, experiment, extra = '') {
  await page.goto(`${server.url}/chapters/${experiment.chapter}?${experiment.query}${extra}`);
  const panel = page.locator(`section[data-experiment="${experiment.name}"]`);
  await panel.waitFor();
  return panel;
}

test('every experiment: a chosen answer is set against the measured number after the run', async () => {
  const page = await newPage(browser);
  for (const [index, experiment] of EXPERIMENTS.entries()) {
    const panel = await openPanel(page, experiment);
    const prediction = panel.getByTestId('prediction');
    await prediction.waitFor();
    const fieldset = prediction.locator('fieldset');
    assert.ok((await fieldset.locator('legend').innerText()).length > 10, `${experiment.name}: the question has a legend`);
    const radios = fieldset.getByRole('radio');
    const count = await radios.count();
    assert.ok(count >= 3 && count <= 4, `${experiment.name}: ${count} answers`);
    // Half by keyboard (focus the first answer, arrow to the second), half by a click on the third.
    const chosen = index % 2 === 0 ? 1 : 2;
    if (index % 2 === 0) {
      await radios.first().focus();
      await page.keyboard.press('ArrowDown');
    } else {
      await fieldset.locator('label').nth(chosen).click();
    }
    assert.ok(await radios.nth(chosen).isChecked(), `${experiment.name}: answer ${chosen} is checked`);
    const chosenLabel = (await fieldset.locator('label').nth(chosen).innerText()).trim();
    const result = prediction.getByTestId('prediction-result');
    if (experiment.button) {
      assert.equal(await result.innerText(), '', `${experiment.name}: no sentence before the run`);
      assert.equal(await clickAndWait(panel, experiment.button, 180_000), 'finished', experiment.name);
      assert.ok(await radios.nth(chosen).isDisabled(), `${experiment.name}: the answer stands after the run`);
    }
    await page.waitForFunction((el) => el.textContent.length > 0, await result.elementHandle(), { timeout: 10_000 });
    const sentence = await result.innerText();
    assert.ok(sentence.includes(`“${chosenLabel}”`), `${experiment.name}: "${sentence}" names "${chosenLabel}"`);
    const number = await experiment.number(panel);
    assert.ok(sentence.includes(number), `${experiment.name}: "${sentence}" quotes the panel's ${number}`);
    assert.equal(await result.getAttribute('data-chosen'), String(chosen), experiment.name);
    const measured = Number(await result.getAttribute('data-measured'));
    const measuredLabel = (await fieldset.locator('label').nth(measured).innerText()).trim();
    assert.ok(sentence.includes(`which is “${measuredLabel}”`), `${experiment.name}: "${sentence}" names the measured answer`);
    if (experiment.name === 'go-scheduler') {
      const stolen = Number(sentence.match(/(\d+) of 16 tasks stolen/)?.[1]);
      assert.equal(measured, stolen === 0 ? 0 : 2 * stolen < 16 ? 1 : 2, `go-scheduler: ${stolen} stolen`);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('without an answer the run shows nothing extra', async () => {
  const page = await newPage(browser);
  const panel = await openPanel(page, SUM);
  const prediction = panel.getByTestId('prediction');
  assert.ok(await prediction.isVisible(), 'the question shows before the run');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.ok(await panel.locator('table[data-testid="results"] tr[data-variant="tasks"]').count() > 0);
  assert.equal(await prediction.isVisible(), false, 'an unanswered question goes away after the run');
  assert.equal(await panel.getByTestId('prediction-result').innerText(), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('predict=0 removes the question on a chapter and on an embed; other values keep it', async () => {
  const page = await newPage(browser);
  let panel = await openPanel(page, SUM, '&predict=0');
  await panel.getByRole('button', { name: 'Run', exact: true }).waitFor();
  assert.equal(await panel.getByTestId('prediction').count(), 0, 'chapter with predict=0');
  assert.equal(await clickAndWait(panel, 'Run'), 'finished');
  assert.equal(await panel.getByTestId('prediction').count(), 0, 'still none after the run');
  assert.equal(new URL(page.url()).searchParams.get('predict'), '0', 'the setting stays in the address for a reload');

  for (const [query, shown] of [['?predict=0', 0], ['?predict=off', 0], ['', 1], ['?predict=banana', 1]]) {
    await page.goto(`${server.url}/embed/experiments/sum${query}`);
    panel = page.locator('section[data-experiment="sum"]');
    await panel.getByRole('button', { name: 'Run', exact: true }).waitFor();
    assert.equal(await panel.getByTestId('prediction').count(), shown, `embed ${query || 'without a parameter'}`);
  }
  // The OS scheduler's model asks through its Solve-then-reveal quiz only, and predict=0 removes it.
  await page.goto(`${server.url}/chapters/os-scheduler`);
  await page.locator('section[data-experiment="os-scheduler"] [data-testid="os-totals"]').waitFor();
  assert.equal(await page.getByTestId('prediction').count(), 0, 'no second question beside the quiz');
  assert.equal(await page.getByTestId('os-quiz-toggle').count(), 1, 'the quiz is the question');
  await page.goto(`${server.url}/chapters/os-scheduler?predict=0`);
  await page.locator('section[data-experiment="os-scheduler"] [data-testid="os-totals"]').waitFor();
  assert.equal(await page.getByTestId('os-quiz-toggle').count(), 0, 'a model obeys predict=0 too');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the answer survives a reload, and only in localStorage', async () => {
  const page = await newPage(browser);
  const panel = await openPanel(page, SUM);
  const radios = panel.getByTestId('prediction').getByRole('radio');
  await radios.nth(3).check();
  await page.reload();
  await panel.getByTestId('prediction').waitFor();
  assert.ok(await radios.nth(3).isChecked(), 'the answer is back after a reload');
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('predict')));
  assert.deepEqual(stored, ['concurrency-lab.predict.sum']);
  assert.equal(await page.evaluate(() => document.cookie), '', 'no cookie');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
