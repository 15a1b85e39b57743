// Teaching aids (issue 16): the chapters in their reading order (old slugs still load), the
// "Check yourself" questions at every chapter's end with answers folded away, the glossary as a deep
// link with every chapter's glossary link landing on a term, and the OS scheduler's "Solve, then
// reveal", whose verdict must agree with the simulation's own result as the page shows it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CHAPTER_FIRST_EXPERIMENTS, launch, newPage, serve } from '../lib.mjs';

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

/** The reading order issue 16 asks for, by slug (slugs never change, so old links keep working). */
const ORDER = [
  'concurrency-vs-parallelism',
  'os-scheduler',
  'sum',
  'bubble-sort',
  'hashing',
  'cpu-vs-io',
  'document-search',
  'go-scheduler',
  'task-costs',
  'high-concurrency',
];

const slugOf = (href) => new URL(href).pathname.replace(/^.*\/chapters\//, '').replace(/\/$/, '');

test('the landing page, the chapter menu and the Next links follow the reading order', async () => {
  assert.deepEqual(CHAPTER_FIRST_EXPERIMENTS.map(([slug]) => slug), ORDER, 'e2e/lib.mjs lists the chapters in order');
  const page = await newPage(browser);
  await page.goto(server.url + '/');
  await page.locator('.chapter-list a').first().waitFor();
  const listed = await page.locator('.chapter-list a').evaluateAll((links) => links.map((a) => a.href));
  assert.deepEqual(listed.map(slugOf), ORDER, 'landing list');
  const menu = await page.locator('.chapter-menu ol a').evaluateAll((links) => links.map((a) => a.href));
  assert.deepEqual(menu.map(slugOf), ORDER, 'chapter menu');
  // Walk the whole book with the Next links: each chapter says its number.
  await page.goto(`${server.url}/chapters/${ORDER[0]}`);
  for (const [i, slug] of ORDER.entries()) {
    // A panel may write its settings into the query (the OS scheduler does on arrival).
    await page.waitForURL(new RegExp(`/chapters/${slug}(\\?.*)?$`));
    await page.locator(`article.chapter[data-chapter="${slug}"]`).waitFor();
    assert.equal(await page.locator('article.chapter .chapter-number').innerText(), `Chapter ${i + 1}`);
    const next = page.locator('nav.chapter-nav a[rel="next"]');
    if (i + 1 < ORDER.length) await next.click();
    else assert.equal(await next.count(), 0, 'the last chapter has no Next');
  }
  // Every slug still loads directly.
  for (const slug of ORDER) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator(`article.chapter[data-chapter="${slug}"] h1`).waitFor();
    assert.equal(await page.getByTestId('not-found').count(), 0, slug);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every chapter ends with Check yourself: 2 or 3 answers, folded, opening from the keyboard', async () => {
  const page = await newPage(browser);
  for (const slug of ORDER) {
    await page.goto(`${server.url}/chapters/${slug}`);
    const heading = page.getByRole('heading', { level: 2, name: 'Check yourself' });
    await heading.waitFor();
    // The answer folds after the heading, in page order.
    const found = await page.evaluate(() => {
      const h = [...document.querySelectorAll('article.chapter h2')].find((e) => e.textContent.trim() === 'Check yourself');
      const after = [...document.querySelectorAll('article.chapter details.fold')].filter(
        (d) => h.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING,
      );
      const laterHeadings = [...document.querySelectorAll('article.chapter h2')].filter(
        (e) => h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING,
      );
      after.forEach((d, i) => d.setAttribute('data-answer-fold', String(i)));
      return { count: after.length, open: after.map((d) => d.open), summaries: after.map((d) => d.querySelector('summary').textContent.trim()), laterHeadings: laterHeadings.length };
    });
    assert.equal(found.laterHeadings, 0, `${slug}: Check yourself is the last section`);
    assert.ok(found.count >= 2 && found.count <= 3, `${slug}: ${found.count} answers`);
    assert.ok(found.summaries.every((s) => s === 'Answer'), `${slug}: ${found.summaries}`);
    assert.ok(found.open.every((open) => !open), `${slug}: answers start closed`);
    const last = page.locator(`details[data-answer-fold="${found.count - 1}"]`);
    assert.equal(await last.evaluate((d) => d.querySelector(':scope > :not(summary)').checkVisibility()), false);
    await last.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await last.evaluate((d) => d.open), true, `${slug}: Enter opens an answer`);
    assert.ok((await last.locator(':scope > :not(summary)').first().innerText()).length > 40, `${slug}: the answer says something`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the glossary loads as a deep link, and every glossary link in the chapters lands on a term', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/glossary#park`);
  await page.getByRole('heading', { level: 1, name: 'Glossary' }).waitFor();
  assert.match(await page.title(), /^Glossary · /);
  const park = page.locator('#park');
  await park.waitFor();
  await page.waitForFunction(() => {
    const box = document.getElementById('park').getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight;
  });
  const ids = new Set(await page.locator('[data-testid="glossary"] :is(h2, h3)[id]').evaluateAll((hs) => hs.map((h) => h.id)));
  assert.ok(ids.size >= 25, `${ids.size} terms`);
  // The header links the glossary on every page; the landing text does too.
  assert.equal(await page.locator('header.site-header').getByRole('link', { name: 'Glossary' }).count(), 1);
  await page.goto(server.url + '/');
  await page.locator('.landing .prose a[href*="glossary"]').first().waitFor();
  let links = 0;
  for (const slug of ORDER) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator('article.chapter .prose').first().waitFor();
    const hrefs = await page.locator('article.chapter .prose a[href*="glossary"]').evaluateAll((as) => as.map((a) => a.href));
    for (const href of hrefs) {
      const url = new URL(href);
      assert.equal(url.origin + url.pathname, `${server.url}/glossary`, `${slug}: ${href}`);
      assert.ok(ids.has(url.hash.slice(1)), `${slug}: ${href} names no glossary term`);
    }
    links += hrefs.length;
  }
  assert.ok(links >= 20, `only ${links} glossary links in the chapters`);
  // Following one inside the app shows the glossary at that term.
  await page.goto(`${server.url}/chapters/document-search`);
  await page.locator('article.chapter .prose a[href$="glossary#park"]').first().click();
  await page.waitForURL(/\/glossary#park$/);
  await page.locator('#park').waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('"How the lab works" loads as a deep link, the chapter menu links it, and every chapter links to one of its sections', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/how-the-lab-works#trace-files`);
  await page.getByRole('heading', { level: 1, name: 'How the lab works' }).waitFor();
  assert.match(await page.title(), /^How the lab works · /);
  await page.locator('#trace-files').waitFor();
  await page.waitForFunction(() => {
    const box = document.getElementById('trace-files').getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight;
  });
  const ids = new Set(await page.locator('[data-testid="how-the-lab-works"] h2[id]').evaluateAll((hs) => hs.map((h) => h.id)));
  for (const id of ['isolation', 'without-isolation', 'engine', 'measuring', 'why-numbers-vary', 'trace-files', 'embedding']) {
    assert.ok(ids.has(id), `a section #${id}`);
  }
  // The chapter menu ends with it, after the numbered chapters (which stay the reading order).
  const menu = page.locator('details.chapter-menu');
  await menu.locator('summary').click();
  assert.equal(await menu.locator('ol a[href$="/how-the-lab-works"]').count(), 0);
  assert.equal(await menu.locator('.menu-more a[href$="/how-the-lab-works"]').innerText(), 'How the lab works');
  await page.goto(server.url + '/');
  await page.locator('.landing .prose a[href$="how-the-lab-works"]').first().waitFor();
  for (const slug of ORDER) {
    await page.goto(`${server.url}/chapters/${slug}`);
    await page.locator('article.chapter .prose').first().waitFor();
    const hrefs = await page.locator('article.chapter .prose a[href*="how-the-lab-works"]').evaluateAll((as) => as.map((a) => a.href));
    assert.ok(hrefs.length >= 1, `${slug} links to How the lab works`);
    for (const href of hrefs) {
      const url = new URL(href);
      assert.equal(url.origin + url.pathname, `${server.url}/how-the-lab-works`, `${slug}: ${href}`);
      assert.ok(url.hash === '' || ids.has(url.hash.slice(1)), `${slug}: ${href} names no section`);
    }
  }
  // Following one inside the app shows the page at that section.
  await page.goto(`${server.url}/chapters/sum`);
  await page.locator('article.chapter .prose a[href$="how-the-lab-works#measuring"]').first().click();
  await page.waitForURL(/\/how-the-lab-works#measuring$/);
  await page.locator('#measuring').waitFor();
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** Each simulated thread's finish time (µs), read from the revealed per-thread table. */
async function finishes(panel) {
  return panel.getByTestId('os-threads').locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.finishUs)));
}

/** The threads that finish at the earliest or latest moment. */
function ends(times) {
  const pick = (moment) => times.flatMap((t, i) => (t === moment ? [i] : []));
  return { first: pick(Math.min(...times)), last: pick(Math.max(...times)) };
}

test('Solve, then reveal: the schedule hides, the prediction is judged by the simulation itself', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/chapters/os-scheduler?threads=5&cores=2&quantum=4&mix=cpu&seed=7`);
  const panel = page.locator('section[data-experiment="os-scheduler"]');
  await panel.getByTestId('os-totals').waitFor();
  const toggle = panel.getByRole('button', { name: 'Solve, then reveal' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.focus();
  await page.keyboard.press('Space');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const quiz = panel.getByTestId('os-quiz');
  await quiz.waitFor();
  assert.equal(await panel.getByTestId('os-totals').count(), 0, 'the schedule is hidden while predicting');
  assert.equal(await panel.getByTestId('os-gantt').count(), 0);
  assert.equal(await quiz.locator('table.os-quiz-threads tbody tr').count(), 5, 'each thread shows its bursts');
  // A prediction: thread 0 first, thread 4 last, chosen by label; Reveal by keyboard.
  await quiz.getByLabel('Which thread finishes first?').selectOption('0');
  await quiz.getByLabel('Which thread finishes last?').selectOption('4');
  await quiz.getByRole('button', { name: 'Reveal' }).focus();
  await page.keyboard.press('Enter');
  await panel.getByTestId('os-threads').waitFor();
  const truth = ends(await finishes(panel));
  const verdict = quiz.getByTestId('os-quiz-verdict');
  for (const [question, chosen] of [['first', 0], ['last', 4]]) {
    const line = verdict.locator(`[data-question="${question}"]`);
    assert.equal(await line.getAttribute('data-answer'), truth[question].join(','), question);
    assert.equal(await line.getAttribute('data-right'), String(truth[question].includes(chosen)), question);
    const text = await line.innerText();
    assert.match(text, truth[question].includes(chosen) ? /^Right\./ : /^Not this time\./);
    for (const i of truth[question]) assert.match(text, new RegExp(`\\bT${i}\\b`), `${question}: names T${i}`);
  }
  // Again with the right answers, read from the page: both judged right.
  await toggle.click();
  await toggle.click();
  await quiz.waitFor();
  assert.equal(await panel.getByTestId('os-totals').count(), 0);
  await quiz.getByLabel('Which thread finishes first?').selectOption(String(truth.first[0]));
  await quiz.getByLabel('Which thread finishes last?').selectOption(String(truth.last[0]));
  await quiz.getByRole('button', { name: 'Reveal' }).click();
  assert.equal(await verdict.locator('[data-right="true"]').count(), 2);
  // Next seed: a new question, hidden again, with the seed in the address.
  await quiz.getByRole('button', { name: 'Next seed' }).click();
  await page.waitForURL(/seed=8/);
  await quiz.getByRole('button', { name: 'Reveal' }).waitFor();
  assert.equal(await panel.getByTestId('os-totals').count(), 0);
  assert.equal(await quiz.getByLabel('Which thread finishes first?').inputValue(), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
