// Fuzzed preset URLs: 200 addresses spread over every chapter, every chapter embed and every
// experiment embed, with query values a reader (or an attacker's link) might send: huge, negative,
// NaN, empty, repeated keys, unicode, markup and script payloads, and sometimes `autorun`. Every page
// must load without an error, without an element or handler taken from the URL, and with every
// range and number control inside its own min..max.
//
// The URLs come from a seeded PRNG: FUZZ_SEED=<n> repeats a run (the seed is printed, and every
// failure names it with its URL and its case number, which FUZZ_ONLY=<i> tries alone); FUZZ_URLS=<n>
// changes how many addresses are tried.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, launch, newPage, serve } from '../lib.mjs';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
const URLS = Number(process.env.FUZZ_URLS || 200);
/** Pages loading at once (one browser). */
const PAGES = Number(process.env.FUZZ_PAGES || 3);
/** After a page has rendered its panels, how long to wait for late errors (effects, workers starting). */
const SETTLE_MS = 150;

/** Mulberry32: a small, fast, seedable PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)], chance: (p) => next() < p };
}

/** Each chapter and the experiment panels it places (the catalog's), by slug: a seed keeps its URLs. */
const CHAPTERS = [...CATALOG.chapters].sort((a, b) => a.slug.localeCompare(b.slug));

/** The URL keys each panel reads (the catalog's knobs): numbers, and words with their options. */
const KEYS = Object.fromEntries(
  CATALOG.experiments.map((e) => [
    e.name,
    {
      numbers: e.knobs.filter((k) => !k.options).map((k) => k.key),
      words: Object.fromEntries(e.knobs.filter((k) => k.options).map((k) => [k.key, k.options])),
    },
  ]),
);
/** Keys whose value sets the size of a run: with `autorun`, they are only ever set low. */
const HEAVY = new Set(['tasks', 'n', 'reps', 'units', 'parked', 'trips', 'mb', 'hashes', 'requests', 'c', 'wait', 'work', 'threads', 'docs', 'latency', 'workers']);

/** Payloads that must only ever show as text. Each marks itself so an injection is easy to find. */
const PAYLOADS = [
  '<script>window.__fuzzed=1</script>',
  '"><img src=x id=fuzz-img onerror="window.__fuzzed=1">',
  "'><svg id=fuzz-svg onload=window.__fuzzed=1>",
  '<b id="fuzz-b">bold</b>',
  '<iframe id=fuzz-frame src="javascript:window.__fuzzed=1"></iframe>',
  '</textarea><a id=fuzz-a href="javascript:window.__fuzzed=1">x</a>',
  'javascript:window.__fuzzed=1',
  '{{7*7}}${7*7}',
];

/** Raw values of every kind, each a function of the PRNG. */
const VALUES = {
  huge: (r) => r.pick(['1e308', '1e400', '99999999999999999999999', '18446744073709551616', String(2 ** 53 + 1), '9'.repeat(400)]),
  negative: (r) => r.pick(['-1', '-0', '-1e9', '-99999999999', '-0.5', String(-r.int(1000))]),
  notANumber: (r) => r.pick(['NaN', 'nan', 'Infinity', '-Infinity', 'inf', '0x10', '1e', '.', '1..2', 'null', 'undefined', 'true']),
  empty: (r) => r.pick(['', ' ', '   ']),
  number: (r) => {
    const v = r.pick([r.int(10), r.int(100), r.int(10_000), r.int(100_000_000)]);
    return r.pick([String(v), `${v}.${r.int(10)}`, v.toLocaleString('en-US'), String(v).replace(/\B(?=(\d{3})+$)/g, '_'), v.toExponential(), ` ${v} `]);
  },
  unicode: (r) => r.pick(['١٢٣', '１２３', '💥', 'é', '\u200b5', '5\u200b', '\u202e8', 'x\u0301', '\ufeff7', '∞', '−5', '二十']),
  payload: (r) => r.pick(PAYLOADS),
  long: (r) => r.pick(['x'.repeat(3000), '<'.repeat(500), '%'.repeat(50)]),
  random: (r) => {
    const alphabet = 'abcXYZ019 -+.,_<>"\'&=%#/\\é💥';
    return Array.from({ length: r.int(20) }, () => r.pick([...alphabet])).join('');
  },
};
const KINDS = Object.keys(VALUES);

/** A value that can only make a run small (below every minimum, or not a number at all: a minimum or default). */
function lightValue(r) {
  return r.pick(['0', '-1', '-1e9', '1', '-0.5', '']);
}

/** Query-string encoding, sometimes leaving markup characters as they are (the browser encodes them). */
function encode(r, text) {
  const encoded = encodeURIComponent(text);
  if (!r.chance(0.3)) return encoded;
  return encoded.replace(/%3C/g, '<').replace(/%3E/g, '>').replace(/%22/g, '"').replace(/%27/g, "'").replace(/%20/g, '+');
}

/** Every address kind: chapter pages, chapter embeds, experiment embeds. */
function targets() {
  const all = [];
  for (const chapter of CHAPTERS) {
    all.push({ path: `/chapters/${chapter.slug}`, experiments: chapter.experiments });
    all.push({ path: `/embed/chapters/${chapter.slug}`, experiments: chapter.experiments });
    for (const name of chapter.experiments) all.push({ path: `/embed/experiments/${name}`, experiments: [name] });
  }
  return all;
}

/** The i-th fuzzed address (spread evenly over the targets) and whether it asks for a run. */
function fuzzedUrl(r, i, all) {
  const target = all[i % all.length];
  // Now and then the path itself carries a payload: the page must say "not found", as text.
  if (r.chance(0.03)) {
    const where = r.pick(['/chapters/', '/embed/experiments/', '/embed/chapters/']);
    // No dot: a static server (this one, or a host) answers 404 itself for a path with an extension.
    const payload = r.pick(PAYLOADS).replaceAll('.', '');
    return { path: where + encodeURIComponent(payload), query: '', autorun: false, experiments: [] };
  }
  const autorun = r.chance(0.15);
  const pairs = [];
  for (const name of target.experiments) {
    const { numbers, words } = KEYS[name];
    for (const key of numbers) {
      if (autorun && HEAVY.has(key)) {
        pairs.push([key, lightValue(r)]);
      } else if (r.chance(0.7)) {
        pairs.push([key, VALUES[r.pick(KINDS)](r)]);
      }
    }
    for (const [key, options] of Object.entries(words)) {
      if (r.chance(0.7)) {
        const word = r.pick(options);
        pairs.push([key, r.pick([word, word.toUpperCase(), ` ${word} `, VALUES[r.pick(KINDS)](r)])]);
      }
    }
  }
  // Unknown keys, and repeated ones.
  for (let n = r.int(3); n > 0; n--) pairs.push([r.pick(['x', 'fuzz', '<b>', 'autorun2', 'üñí']), VALUES[r.pick(KINDS)](r)]);
  for (let n = r.int(3); n > 0 && pairs.length; n--) {
    const [key] = r.pick(pairs);
    if (!(autorun && HEAVY.has(key))) pairs.push([key, VALUES[r.pick(KINDS)](r)]);
  }
  if (autorun) pairs.push(['autorun', r.pick(['1', 'true', 'on', ...target.experiments])]);
  else if (r.chance(0.1)) pairs.push(['autorun', r.pick(['0', 'no', VALUES.payload(r), VALUES.random(r)])]);
  // Shuffle, so no key is always first.
  for (let k = pairs.length - 1; k > 0; k--) {
    const j = r.int(k + 1);
    [pairs[k], pairs[j]] = [pairs[j], pairs[k]];
  }
  const query = pairs.map(([k, v]) => `${encode(r, k)}=${encode(r, v)}`).join('&');
  return { path: target.path, query, autorun, experiments: target.experiments };
}

/** The paths of the scripts an HTML document was served with. */
function scriptsOf(html) {
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/gi)].map((m) => new URL(m[1], 'http://site/').pathname);
}

/**
 * What the page holds (run in the page): injected markup or handlers, scripts other than
 * `appScripts` (those the page was served with), and controls out of their range.
 */
function inspect(appScripts) {
  const out = { injected: [], scripts: [], controls: [], fuzzed: window.__fuzzed ?? null };
  for (const el of document.querySelectorAll('*')) {
    for (const attribute of el.attributes) {
      if (/^on/i.test(attribute.name)) out.injected.push(`<${el.localName} ${attribute.name}>`);
      if (/^\s*javascript:/i.test(attribute.value)) out.injected.push(`<${el.localName} ${attribute.name}="${attribute.value.slice(0, 40)}">`);
    }
  }
  for (const el of document.querySelectorAll('[id^="fuzz-"], iframe, object, embed')) out.injected.push(el.outerHTML.slice(0, 120));
  for (const script of document.scripts) {
    const src = script.getAttribute('src');
    if (!src || !appScripts.includes(new URL(src, document.baseURI).pathname)) out.scripts.push(script.outerHTML.slice(0, 120));
  }
  for (const input of document.querySelectorAll('input[type="range"], input[type="number"]')) {
    const [value, min, max] = [input.value, input.min, input.max].map((s) => (s === '' ? NaN : Number(s)));
    const label = input.labels?.[0]?.textContent ?? input.id;
    if (!(Number.isFinite(value) && Number.isFinite(min) && Number.isFinite(max) && min <= value && value <= max)) {
      out.controls.push(`${label}: value "${input.value}" outside [${input.min}, ${input.max}]`);
    }
  }
  return out;
}

let browser;
let isolated;
let plain;
before(async () => {
  browser = await launch();
  isolated = await serve('isolated');
  plain = await serve('none');
});
after(async () => {
  await browser?.close();
  await isolated?.close();
  await plain?.close();
});

test(`${URLS} fuzzed preset URLs over every chapter and embed: no error, no injection, every control in range (seed ${SEED})`, async (t) => {
  t.diagnostic(`FUZZ_SEED=${SEED} FUZZ_URLS=${URLS}`);
  const r = prng(SEED);
  const all = targets();
  assert.ok(all.length >= 30, `${all.length} targets`);
  // Built first, from the seed alone, so the same seed gives the same addresses whatever the timing.
  const cases = Array.from({ length: URLS }, (_, i) => {
    const url = fuzzedUrl(r, i, all);
    // A quarter of the pages have no cross-origin isolation: the single-worker limits apply there.
    return { ...url, index: i, server: r.chance(0.25) ? 'none' : 'isolated' };
  });
  // FUZZ_ONLY=<i> tries case i alone (same seed, same address).
  const chosen = process.env.FUZZ_ONLY ? [cases[Number(process.env.FUZZ_ONLY)]] : cases;

  // The checks can fail: planted markup, a script and a control out of range are all found.
  const probe = await newPage(browser);
  const served = await probe.goto(isolated.url + '/');
  const appScripts = scriptsOf(await served.text());
  assert.ok(appScripts.length >= 1, 'the app is loaded by a script');
  await probe.waitForSelector('#boot', { state: 'detached' });
  await probe.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<b id="fuzz-b">x</b><p onclick="1">y</p><input type="range" min="1" max="4" value="3">');
    const input = document.querySelector('input[type="range"][max="4"]');
    input.min = '5';
    const script = document.createElement('script');
    script.textContent = '1';
    document.body.append(script);
  });
  const planted = await probe.evaluate(inspect, appScripts);
  assert.equal(planted.injected.length, 2, JSON.stringify(planted.injected));
  assert.equal(planted.scripts.length, 1, JSON.stringify(planted.scripts));
  assert.equal(planted.controls.length, 1, JSON.stringify(planted.controls));
  await probe.context().close();

  const failures = [];
  let autoruns = 0;
  let done = 0;
  async function visit(page, c) {
    const server = c.server === 'none' ? plain : isolated;
    const url = `${server.url}${c.path}${c.query ? '?' + c.query : ''}`;
    const problems = [];
    page.problems.length = 0;
    try {
      const response = await page.goto(url, { waitUntil: 'load' });
      const appScripts = scriptsOf(await response.text());
      await page.waitForSelector('#boot', { state: 'detached', timeout: 20_000 });
      if (c.experiments.length) {
        await page.waitForFunction((n) => document.querySelectorAll('section[data-experiment]').length >= n, c.experiments.length, { timeout: 20_000 });
      } else {
        await page.getByTestId('not-found').waitFor({ timeout: 20_000 });
      }
      await page.waitForTimeout(SETTLE_MS);
      const found = await page.evaluate(inspect, appScripts);
      const panels = await page.locator('section[data-experiment]').evaluateAll((els) => els.map((el) => el.dataset.experiment));
      if (JSON.stringify(panels) !== JSON.stringify(c.experiments)) problems.push(`panels ${panels} instead of ${c.experiments}`);
      if (found.fuzzed !== null) problems.push(`a payload ran (window.__fuzzed = ${found.fuzzed})`);
      for (const what of found.injected) problems.push(`injected: ${what}`);
      for (const what of found.scripts) problems.push(`script not the app's: ${what}`);
      for (const what of found.controls) problems.push(`control out of range: ${what}`);
    } catch (error) {
      problems.push(`did not render: ${error.message.split('\n')[0]}`);
    }
    problems.push(...page.problems);
    if (c.autorun) autoruns++;
    if (problems.length) {
      const shown = url.length > 600 ? `${url.slice(0, 600)}… (${url.length} characters)` : url;
      failures.push({ case: c.index, url: shown, problems });
      t.diagnostic(`FAIL FUZZ_SEED=${SEED} FUZZ_ONLY=${c.index}: ${shown}\n  ${problems.join('\n  ')}`);
    }
    done++;
  }

  const pages = await Promise.all(Array.from({ length: PAGES }, () => newPage(browser)));
  let next = 0;
  await Promise.all(
    pages.map(async (page) => {
      while (next < chosen.length) await visit(page, chosen[next++]);
      // Leave: whatever an autorun started ends with the page.
      await page.goto('about:blank');
      await page.context().close();
    }),
  );
  t.diagnostic(`${done} URLs, ${autoruns} with autorun, ${failures.length} failed (FUZZ_SEED=${SEED})`);
  assert.equal(done, chosen.length);
  assert.deepEqual(failures, [], `FUZZ_SEED=${SEED}: ${failures.length} of ${chosen.length} fuzzed URLs failed`);
});
