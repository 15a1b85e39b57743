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

/** Where the panel shows the number its sentence quotes, as the prediction says (`data-quotes`). */
async function quotedNumber(panel, quotes) {
  const [kind, what] = quotes.split(':');
  if (kind === 'row') {
    const [variant, workers] = what.split('@');
    return shownNumber(ratioCell(panel, variant, workers));
  }
  if (kind === 'testid') return shownNumber(panel.getByTestId(what), /[\d][\d,.]*(?:\s?B\b)?/);
  throw new Error(`predict: no reading for data-quotes="${quotes}"`);
}

// Every experiment the engine runs, at the catalog's quick settings, run by its panel's primary
// button. (The OS scheduler's model asks through its quiz instead.)
const EXPERIMENTS = CATALOG.experiments
  .filter((e) => e.runs === 'engine')
  .map((e) => ({ name: e.name, chapter: e.chapter, query: e.quick }));
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
    const quotes = await prediction.getAttribute('data-quotes');
    assert.ok(quotes, `${experiment.name}: the prediction says where its number is shown`);
    const button = (await panel.locator('.actions button.primary').first().innerText()).trim();
    assert.equal(await result.innerText(), '', `${experiment.name}: no sentence before the run`);
    assert.equal(await clickAndWait(panel, button, 180_000), 'finished', experiment.name);
    assert.ok(await radios.nth(chosen).isDisabled(), `${experiment.name}: the answer stands after the run`);
    await page.waitForFunction((el) => el.textContent.length > 0, await result.elementHandle(), { timeout: 10_000 });
    const sentence = await result.innerText();
    assert.ok(sentence.includes(`“${chosenLabel}”`), `${experiment.name}: "${sentence}" names "${chosenLabel}"`);
    if (quotes === 'steals') {
      // The replay counts steals itself; the sentence's total must be the run's task count.
      const tasks = Number(new URLSearchParams(experiment.query).get('tasks'));
      const stolen = Number(sentence.match(new RegExp(`(\\d+) of ${tasks} tasks stolen`))?.[1]);
      assert.ok(Number.isInteger(stolen), `${experiment.name}: "${sentence}" counts the steals of ${tasks} tasks`);
    } else {
      const number = await quotedNumber(panel, quotes);
      assert.ok(sentence.includes(number), `${experiment.name}: "${sentence}" quotes the panel's ${number}`);
    }
    assert.equal(await result.getAttribute('data-chosen'), String(chosen), experiment.name);
    const measured = Number(await result.getAttribute('data-measured'));
    const measuredLabel = (await fieldset.locator('label').nth(measured).innerText()).trim();
    assert.ok(sentence.includes(`which is “${measuredLabel}”`), `${experiment.name}: "${sentence}" names the measured answer`);
    if (quotes === 'steals') {
      const [, stolen, total] = sentence.match(/(\d+) of (\d+) tasks stolen/).map(Number);
      assert.equal(measured, stolen === 0 ? 0 : 2 * stolen < total ? 1 : 2, `${experiment.name}: ${stolen} of ${total} stolen`);
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
