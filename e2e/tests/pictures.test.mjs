// The pictures chapters place with `<!-- picture: NAME -->` (crates/app/src/pictures): each renders
// on its own chapter, and only there; one pass of bubble sort steps by keyboard and says what each
// step did, with no Play button when the reader asks for reduced motion; the G/M/P figure has an
// accessible name; Little's law computes L / W from its sliders, as the test does; every lane
// picture redraws from its sliders, its sentence (the drawing's name) stating the model's figures,
// worked out here by hand, and its labels fit inside it in every language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SITE_DIR, launch, newPage, serve } from '../lib.mjs';

/** Every lane picture: its chapter, its name, and its figures at the sliders' start and after the
 * test moves one slider to an end (`key` on the slider labelled `slider`), worked out by hand from
 * the model's rules (crates/app/src/pictures/schedules.rs). */
const LANE_PICTURES = [
  // 3 tasks of 4 steps: one core ends at 12; 2 cores at 8 (tasks 0 and 2 share core 1); 4 cores at 4.
  ['concurrency-vs-parallelism', 'interleave', /last one ends at step 12\. On 2 cores, the last one ends at step 8\./, 'Cores', 'End', /On 4 cores, the last one ends at step 4\./],
  // 3 threads of 12 ms in 2 ms slices: 18 slices, 17 switches; thread 1's 6th slice ends at 32 ms.
  // A 12 ms slice: each runs to its end, 2 switches, the first ends at 12 ms.
  ['os-scheduler', 'time-slices', /works for 36\u00a0ms.*17 switches.*ends at 32\u00a0ms/, 'Time slice (ms)', 'End', /2 switches.*ends at 12\u00a0ms/],
  // 8 slices on 2 workers: 4 each; on 1 worker: all 8.
  ['sum', 'sum-split', /8 slices on 2 workers: .*at most 4 here/, 'Workers', 'Home', /8 slices on 1 worker: .*at most 8 here/],
  // s = 10 %: 1/(0.1 + 0.9/n): 1.82, 3.08, 6.40, ceiling 10; s = 0: n itself, no ceiling.
  ['bubble-sort', 'amdahl', /1\.82× on 2 workers, 3\.08× on 4, 6\.40× on 16, and never more than 10×/, 'Serial share s (%)', 'Home', /2\.00× on 2 workers, 4\.00× on 4, 16\.00× on 16\. Nothing is serial/],
  // 30 hashes on 4 workers: 8 rounds, 2 busy in the last, 30/8 = 3.75; on 16: 2 rounds, 14 busy, 15.
  ['hashing', 'hash-rounds', /30 hashes take 8 rounds on 4 workers, the last round with 2 busy: at best 3\.75×/, 'Workers', 'End', /2 rounds on 16 workers, the last round with 14 busy: at best 15\.00×/],
  // 4 tasks, wait 3 then compute 2: the loop 4 × 5 = 20; parked, 3 + 4 × 2 = 11; no wait: 8 and 8.
  ['cpu-vs-io', 'compute-wait', /loop ends at step 20, the goroutines at step 11: 1\.82×/, 'Wait per task (steps)', 'Home', /loop ends at step 8, the goroutines at step 8: 1\.00×/],
  // 4 documents, read 4 then parse 1: blocking 20, parked 4 + 4 = 8; 8 documents: 40 and 12.
  ['document-search', 'reads', /done at step 20\. .*done at step 8, 2\.50× as fast/, 'Documents', 'End', /done at step 40\. .*done at step 12, 3\.33× as fast/],
  // 48 steps in 8 tasks on 2 workers: tasks of 1 + 6, 4 rounds, 28; overhead 8 of 56 busy = 14 %.
  // 48 tasks: 1 + 1 each, 24 rounds, 48: no gain, half the busy time overhead.
  ['task-costs', 'task-overhead', /loop ends at step 48, the tasks at step 28: a speedup of 1\.71×\. Overhead is 14%/, 'Tasks', 'End', /tasks at step 48: a speedup of 1\.00×\. Overhead is 50%/],
  // 8 requests, wait 4 then compute 1: a pool of 2 answers in 4 rounds of 5 = 20; parked 4 + 8 = 12.
  // A pool of 6: 2 rounds, 10, sooner than one worker's goroutines: no ratio is claimed.
  ['high-concurrency', 'pool-or-park', /last request at step 20, the goroutines at step 12\./, 'Pool threads', 'End', /last request at step 10, the goroutines at step 12\./],
  // 8 goroutines on P0: alone, 8 steps; P1 steals 4 at once, 4 steps. Four Ps: P1 takes 4, P2 2
  // of P0's, P3 2 of P1's: 2 steps, 3 steals.
  ['go-scheduler', 'work-stealing', /ends at step 8; with stealing, at step 4, after 1 steal\./, 'Ps (GOMAXPROCS)', 'End', /ends at step 8; with stealing, at step 2, after 3 steals\./],
  // 4 workers of 4 steps on 2 cores: 16 steps of work in 8; the last two wait 4 steps each. On 4
  // cores nobody waits.
  ['concurrency-vs-parallelism', 'more-workers', /yet the last ends at step 8, and one waited 4 steps for a core/, 'Cores', 'End', /yet the last ends at step 4, and one waited 0 steps for a core/],
  // Four 8-byte counters 8 bytes apart fill 32 bytes of one 64-byte line; 128 apart, a line each.
  ['sum', 'cache-line', /8 bytes apart, the 4 counters sit in 1 cache line, up to 4 in one/, 'Bytes between the counters', 'End', /128 bytes apart, each counter has a cache line of its own/],
];

/** The pictures that do not move: their chapter, their name, and what their drawing is named. */
const STILL_PICTURES = [
  ['os-scheduler', 'thread-states', /^Three states: running on a core, runnable in the queue, waiting for data\./],
  ['hashing', 'hash-chain', /^One digest: blocks B1 to B6 in a chain/],
  ['cpu-vs-io', 'cpu-or-io', /^The CPU-bound task computes for all 12 steps.*computes for 3 of its 12 steps and waits for 9/],
];

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

/** The build's files per split (app-<hash>/chunks.json). */
function chunks() {
  const folder = fs.readdirSync(SITE_DIR).find((f) => /^app-[0-9a-f]{16}$/.test(f));
  assert.ok(folder, `no app-<hash>/ folder in ${SITE_DIR}`);
  return JSON.parse(fs.readFileSync(path.join(SITE_DIR, folder, 'chunks.json'), 'utf8'));
}

/** A page that records the names of the app's chunk files it fetches. */
async function recordingPage(options) {
  const page = await newPage(browser, options);
  page.fetchedChunks = [];
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.match(/\/app-[0-9a-f]{16}\/((?:split|chunk|bundle)_[^/]+\.wasm)$/)?.[1];
    if (name) page.fetchedChunks.push(name);
  });
  return page;
}

/** Whether `first` comes before `second` in the page. */
async function comesBefore(first, second) {
  const handle = await second.elementHandle();
  return first.evaluate((a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING), handle);
}

/** The bubble pass's values, in the order the picture places them (each box's `data-at`). */
async function bubbleOrder(figure) {
  return figure.locator('.bubble-cell').evaluateAll((cells) =>
    cells
      .map((cell) => [Number(cell.dataset.at), Number(cell.textContent)])
      .sort((a, b) => a[0] - b[0])
      .map(([, value]) => value),
  );
}

test('each picture renders on its chapter, where its prose places it (G/M/P before the replay, the bubble pass and Little’s law after their panels), and a page without pictures loads none', async () => {
  const needs = chunks();
  const splits = Object.keys(needs);
  const named = [...LANE_PICTURES, ...STILL_PICTURES].map(([, name]) => `picture_${name.replaceAll('-', '_')}`);
  for (const picture of ['picture_bubble_pass', 'picture_gmp', 'picture_littles_law', ...named]) {
    assert.ok(needs[picture]?.length > 0, `a split of its own: ${picture} in ${splits.join(', ')}`);
  }
  // The files only pictures need: a chapter without pictures never fetches them.
  const others = Object.entries(needs).filter(([split]) => !split.startsWith('picture_')).flatMap(([, files]) => files);
  const pictureOnly = Object.entries(needs)
    .filter(([split]) => split.startsWith('picture_'))
    .flatMap(([, files]) => files)
    .filter((file) => !others.includes(file));
  assert.ok(pictureOnly.length > 0, 'the pictures have code of their own');

  const page = await recordingPage();
  await page.goto(`${server.url}/glossary`);
  await page.locator('.prose').first().waitFor();
  assert.equal(await page.locator('figure.picture').count(), 0);
  assert.deepEqual(page.fetchedChunks.filter((f) => pictureOnly.includes(f)), [], 'the glossary loads no picture');

  await page.goto(`${server.url}/chapters/bubble-sort`);
  const bubble = page.getByTestId('picture-bubble-pass');
  await bubble.waitFor();
  assert.match(await bubble.locator('figcaption').innerText(), /One pass of bubble sort/);
  // After the panel, where the chapter reads its timelines: the opening stays short (chapter-openings).
  assert.ok(await comesBefore(page.locator('section[data-experiment="bubble-sort"]'), bubble), 'after the panel');

  await page.goto(`${server.url}/chapters/go-scheduler`);
  const gmp = page.getByTestId('picture-gmp');
  await gmp.waitFor();
  assert.ok(await comesBefore(gmp, page.locator('section[data-experiment="go-scheduler"]')), 'before the replay');

  await page.goto(`${server.url}/chapters/high-concurrency`);
  const law = page.getByTestId('picture-littles-law');
  await law.waitFor();
  assert.ok(await comesBefore(page.locator('section[data-experiment="qps"]'), law), 'after the QPS panel, which it names as above');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('one bubble-sort pass steps by keyboard: each step said, the largest value last, the smallest one place on', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/bubble-sort`);
  const figure = page.getByTestId('picture-bubble-pass');
  await figure.waitFor();
  const status = figure.getByTestId('bubble-status');
  const step = figure.getByRole('button', { name: 'Step', exact: true });
  assert.equal(await status.getAttribute('aria-live'), 'polite');
  assert.match(await status.innerText(), /Press Step/);
  assert.equal(await figure.getByRole('button', { name: 'Play' }).count(), 1, 'Play, without reduced motion');
  assert.equal(await figure.getByRole('button', { name: 'Reset' }).count(), 1);
  const start = await bubbleOrder(figure);
  const row = figure.getByRole('img');
  assert.equal(await row.getAttribute('aria-label'), `The list: ${start.join(', ')}`, 'the row says its values');

  await step.focus();
  await page.keyboard.press('Enter');
  await figure.getByText(`Compare ${start[0]} and ${start[1]}:`).waitFor();
  const first = await status.innerText();
  assert.match(first, start[0] > start[1] ? /: swap\.$/ : /no swap/);
  await page.keyboard.press('Space');
  await page.waitForFunction((before) => document.querySelector('[data-testid="bubble-status"]').textContent !== before, first);
  assert.match(await status.innerText(), /^Compare \d+ and \d+:/);
  // The rest of the pass, by keyboard, the focus staying on Step.
  for (let i = 2; i < start.length - 1; i++) await page.keyboard.press('Enter');
  await figure.getByText(/^Pass done/).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'bubble-step');
  const end = await bubbleOrder(figure);
  const largest = Math.max(...start);
  const smallest = Math.min(...start);
  assert.equal(end.at(-1), largest, `the largest value ends last: ${end}`);
  assert.equal(start.indexOf(smallest) - end.indexOf(smallest), 1, `the smallest moved one place: ${start} → ${end}`);
  for (const value of start) assert.ok(end.indexOf(value) >= start.indexOf(value) - 1, `${value} moved at most one place left`);
  assert.match(await status.innerText(), new RegExp(`${largest} rode to the end, but ${smallest} moved one place left`));
  assert.equal(await row.getAttribute('aria-label'), `The list: ${end.join(', ')}`);
  // Step at the end does nothing; Reset starts again.
  await page.keyboard.press('Enter');
  assert.match(await status.innerText(), /^Pass done/);
  await figure.getByRole('button', { name: 'Reset' }).click();
  await figure.getByText(/Press Step/).waitFor();
  assert.deepEqual(await bubbleOrder(figure), start);
  // Play runs the pass to its end by itself.
  await figure.getByRole('button', { name: 'Play' }).click();
  await figure.getByText(/^Pass done/).waitFor({ timeout: 30_000 });
  assert.deepEqual(await bubbleOrder(figure), end);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('with reduced motion the bubble pass has no Play button and nothing slides; stepping still works', async () => {
  const page = await newPage(browser, { reducedMotion: 'reduce' });
  await page.goto(`${server.url}/chapters/bubble-sort`);
  const figure = page.getByTestId('picture-bubble-pass');
  await figure.waitFor();
  assert.equal(await figure.getByRole('button', { name: 'Play' }).count(), 0);
  assert.match(await figure.innerText(), /reduced motion/);
  const transition = await figure.locator('.bubble-cell').first().evaluate((cell) => getComputedStyle(cell).transitionDuration);
  assert.match(transition, /^0s(, 0s)*$/, `no transition: ${transition}`);
  const step = figure.getByRole('button', { name: 'Step', exact: true });
  await step.focus();
  await page.keyboard.press('Space');
  await figure.getByText(/^Compare \d+ and \d+:/).waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the G/M/P figure has an accessible name, a text description and a caption that tells the two Ms apart', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/go-scheduler`);
  const figure = page.getByTestId('picture-gmp');
  await figure.waitFor();
  const image = figure.getByRole('img', { name: /Go.s scheduler: goroutines \(G\)/ });
  assert.equal(await image.count(), 1);
  assert.match(await image.locator('desc').textContent(), /blocked in a system call with G4 and has handed P1 to thread M2/);
  const caption = await figure.locator('figcaption').innerText();
  assert.match(caption, /M: an operating system thread/);
  assert.match(caption, /in G\/M\/P, M is a thread; in the lab.s “M:N”, M counts tasks/);
  // Every label of the picture is inside it, not cut off at its edges.
  const box = await image.boundingBox();
  for (const label of await image.locator('text').all()) {
    const b = await label.boundingBox();
    assert.ok(b.x >= box.x - 1 && b.x + b.width <= box.x + box.width + 1, `${await label.textContent()} fits`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('Little’s law: the throughput follows the sliders and is L / W, and a pool of T threads min(L, T) / W', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/high-concurrency`);
  const figure = page.getByTestId('picture-littles-law');
  await figure.waitFor();
  assert.match(await figure.locator('figcaption').innerText(), /computed.*not a measurement/);
  const inFlight = figure.getByLabel('Requests in flight (L)');
  const time = figure.getByLabel('Time per request (W, ms)');
  const threads = figure.getByLabel('Pool threads (T)');
  const parking = figure.getByTestId('littles-law-parking');
  const pool = figure.getByTestId('littles-law-pool');
  /** The figure a sentence states, digits only (the page groups them for its language). */
  const stated = async (output) => Number((await output.innerText()).split('=').at(-1).replace(/\D/g, ''));
  const check = async () => {
    const [l, w, t] = await Promise.all([inFlight, time, threads].map(async (s) => Number(await s.inputValue())));
    assert.equal(await stated(parking), Math.round((l * 1000) / w), `L = ${l}, W = ${w} ms`);
    assert.equal(await stated(pool), Math.round((Math.min(l, t) * 1000) / w), `L = ${l}, T = ${t}, W = ${w} ms`);
    return [l, w, t];
  };
  const [l] = await check();
  const before = await parking.innerText();
  await inFlight.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((text) => document.querySelector('[data-testid="littles-law-parking"]').textContent !== text, before);
  const [l2] = await check();
  assert.equal(l2, l + 1);
  // A longer wait lowers both; fewer threads than requests cap the pool at T / W.
  await time.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await check();
  await threads.focus();
  await page.keyboard.press('Home');
  const [, w, t] = await check();
  assert.equal(t, 1);
  assert.equal(await stated(pool), Math.round(1000 / w), 'one thread: one request per W');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every lane picture redraws from its sliders: its sentence names the drawing and states the model’s figures, before and after a slider moves', async () => {
  const page = await newPage(browser);
  for (const [chapter, name, first, label, key, moved] of LANE_PICTURES) {
    await page.goto(`${server.url}/chapters/${chapter}`);
    const figure = page.getByTestId(`picture-${name}`);
    await figure.waitFor();
    assert.match(await figure.locator('figcaption').innerText(), /not a measurement|not measured/, `${name}: says it is a model`);
    const sentence = figure.getByTestId(`picture-${name}-sentence`);
    const image = figure.locator('svg[role="img"]');
    const said = await sentence.textContent();
    assert.match(said, first, `${name} at its start`);
    assert.equal(await image.getAttribute('aria-label'), said, `${name}: the drawing is named by its sentence`);
    const drawn = await image.innerHTML();
    const slider = figure.getByLabel(label, { exact: true });
    await slider.focus();
    await page.keyboard.press(key);
    await page.waitForFunction(([id, text]) => document.querySelector(`[data-testid="${id}"]`)?.textContent !== text, [`picture-${name}-sentence`, said]);
    const now = await sentence.textContent();
    assert.match(now, moved, `${name} after ${key} on ${label}`);
    assert.notEqual(await image.innerHTML(), drawn, `${name}: the drawing changed with the slider`);
    assert.equal(await image.getAttribute('aria-label'), now);
  }
  // Sixteen workers draw sixteen lanes under the one worker's lane.
  await page.goto(`${server.url}/chapters/hashing`);
  const rounds = page.getByTestId('picture-hash-rounds');
  await rounds.getByLabel('Workers', { exact: true }).focus();
  await page.keyboard.press('End');
  await rounds.getByText(/on 16 workers/).first().waitFor();
  assert.equal(await rounds.locator('.lanes-track').count(), 17);
  assert.equal(await rounds.locator('.lanes-run').count(), 60, 'thirty hashes in each group');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the still pictures are named in words: a thread’s three states with the four moves, and one digest’s chain beside independent ones', async () => {
  const page = await newPage(browser);
  for (const [chapter, name, label] of STILL_PICTURES) {
    await page.goto(`${server.url}/chapters/${chapter}`);
    const image = page.getByTestId(`picture-${name}`).getByRole('img');
    await image.waitFor();
    assert.match(await image.getAttribute('aria-label'), label, name);
  }
  await page.goto(`${server.url}/chapters/os-scheduler`);
  const states = page.getByTestId('picture-thread-states');
  await states.waitFor();
  const words = await states.locator('svg text').allTextContents();
  for (const word of ['Running', 'Runnable', 'Waiting', 'scheduled', 'slice over', 'asks for data', 'data arrives']) {
    assert.ok(words.includes(word), `“${word}” in ${words.join(' | ')}`);
  }
  assert.equal(await states.locator('svg path.head').count(), 4, 'four moves, each with its arrowhead');
  await page.goto(`${server.url}/chapters/hashing`);
  const chain = page.getByTestId('picture-hash-chain');
  await chain.waitFor();
  assert.equal(await chain.locator('svg rect.lanes-run').count(), 6 + 3 * 4, 'one chain of six blocks, three of four');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every drawn picture keeps its labels inside its drawing, in English, Russian and Hindi, on a phone too', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await newPage(browser, { viewport: { width, height } });
    for (const prefix of ['', '/ru', '/hi']) {
      for (const [chapter, name] of [...LANE_PICTURES, ...STILL_PICTURES]) {
        await page.goto(`${server.url}${prefix}/chapters/${chapter}`);
        const image = page.getByTestId(`picture-${name}`).locator('svg[role="img"]');
        await image.waitFor();
        const box = await image.boundingBox();
        for (const label of await image.locator('text').all()) {
          const b = await label.boundingBox();
          const words = await label.textContent();
          assert.ok(b.x >= box.x - 1 && b.x + b.width <= box.x + box.width + 1, `${prefix || '/en'} ${name} at ${width} px: “${words}” fits`);
        }
      }
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
