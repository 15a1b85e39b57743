// The bubble sort chapter: four sorts from a preset, each checked sorted by the engine; Stop ends a
// long bubble sort; a sweep fits Amdahl's law to each parallel sort.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clickAndWait, launch, openPanel, serve, waitForOutcome } from '../lib.mjs';

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

async function open(query) {
  return openPanel(browser, `${server.url}/chapters/bubble-sort${query}`, 'bubble-sort');
}

test('all four sorts run from a preset and every result is checked sorted', async () => {
  const { page, panel } = await open('?workers=2&tasks=4&n=3000&reps=2&autorun=1');
  assert.equal(await waitForOutcome(panel), 'finished');
  const rows = panel.locator('table.results tbody tr[data-variant]');
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.variant)), ['bubble', 'chunked', 'odd-even', 'merge']);
  assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.result)), ['sorted', 'sorted', 'sorted', 'sorted']);
  for (const text of await rows.locator('td.check').allInnerTexts()) assert.match(text, /sorted correct/);
  // Odd–even meets at a barrier once a phase, up to 3,000 times: when that is more often than every
  // 50 µs of its median (read off the row's own samples), its row notes that another run may differ
  // a lot, without a warning sign; the sorts that meet only at the end never carry the note.
  const shown = await rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const samples = tr.dataset.samples.split(' ').map(Number).sort((a, b) => a - b);
      // A note shows one line (its summary); its full sentences open from it.
      const noteRow = tr.nextElementSibling?.classList.contains('row-note') ? tr.nextElementSibling : null;
      const short = noteRow?.querySelector('summary')?.innerText ?? '';
      const note = noteRow?.querySelector('details')?.textContent ?? '';
      const spread = samples[samples.length - 1] / samples[0];
      return { variant: tr.dataset.variant, varies: tr.dataset.varies, median: samples[(samples.length - 1) >> 1], spread, note, short };
    }),
  );
  for (const row of shown) {
    const barriersClose = row.variant === 'odd-even' && (row.median * 1000) / 3000 < 50;
    // The other "varies": tasks of a few µs on 2 workers whose repetitions spread beyond 1.3×
    // (a pass waits on both workers many times over); said with its figures, never on the loop.
    const smallTasksVary = /(^|· |⚠ )varies: tasks of [\d,]+\sµs, spread [\d.]+×/.test(row.short);
    if (smallTasksVary) {
      assert.ok(row.variant !== 'bubble' && row.spread > 1.3, `${row.variant}: spread ${row.spread}, note "${row.note}"`);
      assert.match(row.note, /its tasks took about [\d,]+\sµs each/);
    }
    assert.equal(row.varies, String(barriersClose || smallTasksVary), `${row.variant}: ${row.median} ms, note "${row.note}"`);
    if (barriersClose) {
      assert.match(row.note, /varies from run to run: the workers meet at a barrier up to 3,000\stimes, about every [\d.]+\sµs/);
      assert.match(row.short, /varies: a barrier every [\d.]+\sµs/, 'the one-line note names it with its figure');
      assert.doesNotMatch(row.short, /^⚠ varies/, 'a note, not a warning');
    } else if (!smallTasksVary) {
      assert.doesNotMatch(row.note, /varies from run to run/);
    }
  }
  assert.ok(shown.some((row) => row.varies === 'true'), `odd–even of 3,000 numbers on 2 workers meets at barriers microseconds apart: ${JSON.stringify(shown)}`);
  // A note takes one line until opened, on a desktop and on a phone; opened, it says it all.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const lines = await panel.locator('tr.row-note summary').evaluateAll((summaries) => summaries.map((summary) =>
      summary.getBoundingClientRect().height / parseFloat(getComputedStyle(summary).lineHeight)));
    assert.ok(lines.length > 0 && lines.every((n) => n < 1.5), `${width} px: note heights in lines ${lines}`);
  }
  const firstNote = panel.locator('tr.row-note').first();
  await firstNote.locator('summary').press('Enter');
  assert.match(await firstNote.locator('details').innerText(), /varies from run to run|noisy|busy|slowed|workers/);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The chunked sort's timeline: 4 chunk tasks, then the bubble sort of the whole list (task 4).
  const timeline = panel.getByTestId('sort-timeline');
  const tasks = await timeline.locator('table.timeline-tasks tbody tr th').allTextContents();

  assert.deepEqual(tasks.slice().sort(), ['T0', 'T1', 'T2', 'T3', 'T4']);
  // Odd-even's timeline has many more slices: one per phase per task, capped with a visible note.
  await panel.getByLabel('Sort in the timeline').selectOption('odd-even');
  await timeline.getByTestId('timeline-truncated').waitFor();
  assert.equal(await panel.locator('[data-testid="slow-warning"]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Stop ends a long bubble sort, and large sizes carry a warning', async () => {
  const { page, panel } = await open('?workers=2&n=50000&reps=20');
  await panel.getByTestId('slow-warning').waitFor();
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await panel.locator('.progress-text', { hasText: 'Bubble sort' }).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const started = Date.now();
  await panel.getByRole('button', { name: 'Stop' }).click();
  assert.equal(await waitForOutcome(panel, 10_000), 'stopped');
  console.log(`# stopping a 50,000-number bubble sort took ${Date.now() - started} ms`);
  assert.ok(Date.now() - started < 3_000);
  assert.equal(await panel.locator('table.results tbody tr[data-variant]').count(), 0, 'nothing half-measured is shown');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a sweep over workers fits a serial fraction to each parallel sort', async () => {
  const { page, panel } = await open('?tasks=4&n=1500&reps=1');
  assert.equal(await clickAndWait(panel, 'Sweep workers'), 'finished');
  const fits = panel.getByTestId('sort-amdahl').getByTestId('amdahl-fit').locator('tbody tr');
  const rows = await fits.evaluateAll((trs) =>
    trs.map((tr) => ({ name: tr.dataset.series, fit: tr.dataset.fit, serial: tr.dataset.serial, text: tr.innerText })),
  );
  assert.deepEqual(rows.map((row) => row.name), ['Chunked bubble sort', 'Odd–even transposition', 'Merge sort']);
  for (const { name, fit, serial, text } of rows) {
    if (fit === 'serial') {
      // A fraction between 0 and 1, and the ceiling it gives.
      assert.ok(Number(serial) >= 0 && Number(serial) <= 1, `${name}: s = ${serial}`);
      assert.match(text, /%[^]*(×|∞)/, `${name}: ${text}`);
    } else {
      // A line that more workers made no faster (odd–even often is, on two cores) claims no serial
      // fraction: no s, and the table says why.
      assert.equal(fit, 'no-faster', `${name}: ${fit}`);
      assert.equal(serial, undefined, `${name}: no s for a line that got no faster`);
      assert.match(text, /No fit: no faster with more workers/);
    }
  }
  const timeRows = await panel.getByTestId('sort-time').locator('table.chart-data tbody tr').count();
  assert.ok(timeRows >= 3 * 5, `${timeRows} measured points`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
