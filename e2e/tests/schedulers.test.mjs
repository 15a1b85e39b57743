// The two scheduler chapters: the OS simulation recomputes live and deterministically (even on a
// page without threads), and the Go scheduler replay loads a preset scenario and steps both ways.
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

async function totals(panel) {
  const table = panel.getByTestId('os-totals');
  return {
    utilisation: Number(await table.locator('td[data-value]').first().getAttribute('data-value')),
    switches: Number(await table.locator('td[data-value]').nth(1).getAttribute('data-value')),
    text: await table.innerText(),
  };
}

test('the OS scheduler simulation follows its controls and is deterministic per seed', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/os-scheduler?threads=4&cores=1&quantum=1&mix=cpu&seed=3`);
  const panel = page.locator('section[data-experiment="os-scheduler"]');
  await panel.getByTestId('os-totals').waitFor();
  const fine = await totals(panel);
  assert.equal(await panel.getByRole('radio', { name: 'CPU-bound' }).isChecked(), true);
  assert.equal(await panel.getByTestId('os-threads').locator('tbody tr').count(), 4);
  // A longer time slice preempts less: fewer context switches for the same work.
  await panel.getByLabel('Time slice (ms)').fill('50');
  await page.waitForFunction((before) => {
    const cell = document.querySelectorAll('[data-testid="os-totals"] td[data-value]')[1];
    return cell && Number(cell.dataset.value) < before;
  }, fine.switches);
  // More cores: the same threads finish sooner in parallel.
  await panel.getByLabel('Cores', { exact: true }).fill('4');
  await page.waitForFunction(() => document.querySelector('[data-testid="os-summary"]').innerText.startsWith('4 threads on 4 cores'));
  assert.match(page.url(), /quantum=50/);
  // The same URL gives the same schedule, to the digit.
  const again = await newPage(browser);
  await again.goto(`${server.url}/chapters/os-scheduler?threads=4&cores=1&quantum=1&mix=cpu&seed=3`);
  await again.getByTestId('os-totals').waitFor();
  assert.equal((await totals(again.locator('section[data-experiment="os-scheduler"]'))).text, fine.text);
  // The Gantt chart is drawn and described.
  assert.match(await panel.getByTestId('os-gantt').getAttribute('aria-label'), /4 threads on 4 cores for /);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await page.context().close();
  await again.context().close();
});

test('the OS scheduler simulation runs on a page without cross-origin isolation', async () => {
  const plain = await serve('none');
  const page = await newPage(browser);
  await page.goto(`${plain.url}/chapters/os-scheduler?threads=3`);
  await page.getByTestId('os-totals').waitFor();
  assert.equal(await page.getByTestId('os-threads').locator('tbody tr').count(), 3);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await plain.close();
});

async function queueState(panel) {
  return panel.getByTestId('replay').locator('table.replay-state tbody tr').evaluateAll((rows) =>
    rows.map((row) => row.querySelector('td.queue').innerText + ' | ' + row.querySelector('td.running').innerText));
}

test('a recorded scenario replays step by step, forwards and back', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/go-scheduler?scenario=spawn-on-one&workers=4&tasks=16&autorun=1`);
  const panel = page.locator('section[data-experiment="go-scheduler"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const replay = panel.getByTestId('replay');
  const status = panel.getByTestId('replay-status');
  assert.equal(await panel.locator('[role="alert"]').count(), 0, 'the recording replays consistently');
  assert.match(await status.innerText(), /Before the first event/);
  const empty = await queueState(panel);
  const forward = replay.getByRole('button', { name: 'Step forward' });
  const back = replay.getByRole('button', { name: 'Step back' });
  const strip = replay.getByTestId('replay-strip');
  const playhead = async () => Number(await strip.getAttribute('data-playhead'));
  const columnWidths = () => replay.locator('table.replay-state thead th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width));
  const widthsAtStart = await columnWidths();
  assert.equal(await playhead(), 0, 'the playhead starts at the left');
  assert.ok((await strip.locator('rect.bar').count()) > 0, 'the strip draws what the workers ran');
  assert.match(await replay.getByTestId('replay-speed-value').innerText(), /^\d+ per second$/);
  for (let i = 0; i < 5; i++) await forward.click();
  assert.match(await status.innerText(), /^Step 5 of \d+/);
  assert.match(await replay.getByTestId('replay-step-value').innerText(), /^5 of \d+$/, 'the step slider shows its value');
  assert.equal(await strip.getAttribute('data-playhead-step'), '5');
  const atFive = await playhead();
  assert.ok(atFive >= 0 && atFive <= 1, `the playhead is on the strip: ${atFive}`);
  const drawnAt = parseFloat(await strip.locator('line.playhead').getAttribute('x1'));
  assert.ok(Math.abs(drawnAt - atFive * 100) < 0.01, `the playhead is drawn where it stands: ${drawnAt}% for ${atFive}`);
  // Tasks on screen at once have colours of their own.
  const chipColours = await replay.locator('.chip').evaluateAll((chips) => chips.map((c) => [c.textContent, getComputedStyle(c).backgroundColor]));
  const colourOf = new Map(chipColours);
  assert.equal(new Set(colourOf.values()).size, colourOf.size, `distinct tasks, distinct colours: ${JSON.stringify(chipColours)}`);
  const afterFive = await queueState(panel);
  assert.notDeepEqual(afterFive, empty, 'spawned tasks fill a local queue');
  // Which tasks are still waiting depends on timing (a thief may already have run T0), but some
  // spawned task is in a queue or running.
  assert.ok(afterFive.some((row) => /T\d+/.test(row)), afterFive.join('\n'));
  await forward.click();
  await back.click();
  assert.deepEqual(await queueState(panel), afterFive, 'one step forward and one back is where we were');
  // Somewhere in the run another worker steals from the spawning worker.
  const steps = Number((await status.innerText()).match(/of (\d+)/)[1]);
  const slider = replay.getByLabel('Step', { exact: true });
  let stole = false;
  for (let step = 1; step <= steps && !stole; step++) {
    await slider.fill(String(step));
    stole = /steals/.test(await status.innerText());
  }
  assert.ok(stole, 'a steal was replayed');
  await replay.getByRole('button', { name: 'Last step' }).click();
  assert.match(await panel.getByTestId('replay').innerText(), /Finished: 16 of 16/);
  assert.equal(await playhead(), 1, 'the last step puts the playhead at the right end');
  assert.deepEqual(await columnWidths(), widthsAtStart, 'the columns keep their widths as the queues change');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('parked tasks show up in the IO mix, and reduced motion offers steps only', async () => {
  const page = await newPage(browser, { reducedMotion: 'reduce' });
  await page.goto(`${server.url}/chapters/go-scheduler?scenario=io-mix&workers=2&tasks=6&autorun=1&step=3`);
  const panel = page.locator('section[data-experiment="go-scheduler"]');
  assert.equal(await waitForOutcome(panel), 'finished');
  const replay = panel.getByTestId('replay');
  assert.equal(await panel.locator('[role="alert"]').count(), 0, 'the recording replays consistently');
  assert.match(await panel.getByTestId('replay-status').innerText(), /^Step 3 of/, 'the URL picks the step');
  assert.equal(await replay.getByRole('button', { name: 'Play' }).count(), 0);
  assert.match(await replay.innerText(), /reduced motion/);
  let parked = false;
  const forward = replay.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 60 && !parked; i++) {
    await forward.click();
    parked = (await panel.getByTestId('parked').locator('.chip').count()) > 0;
  }
  assert.ok(parked, 'some task was parked while waiting');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('choosing another scenario says when it moved the workers and tasks sliders', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/go-scheduler?scenario=spawn-on-one&workers=4&tasks=16`);
  const panel = page.locator('section[data-experiment="go-scheduler"]');
  await panel.waitFor();
  const note = panel.getByTestId('scenario-reset');
  assert.equal(await note.innerText(), '', 'nothing to say before a choice');
  const workers = panel.getByRole('slider', { name: 'Workers' });
  const tasks = panel.getByRole('slider', { name: 'Tasks' });
  await panel.getByRole('radio', { name: 'An IO-heavy mix' }).check();
  const [k, t] = [await workers.inputValue(), await tasks.inputValue()];
  assert.notDeepEqual([k, t], ['4', '16'], 'this scenario starts elsewhere');
  const said = await note.innerText();
  assert.match(said, new RegExp(`${k} workers? and ${t} tasks?`), `the note names the new values: ${said}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
