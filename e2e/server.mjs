// A tiny static server for tests and benchmarks: serves a built site with a chosen set of
// isolation headers, falls back to index.html for client-side routes, and logs every request.
// Usage as a program: node server.mjs <root> <port> [isolated|none|dip]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Header sets by isolation mode. */
export const MODES = {
  // Classic cross-origin isolation of the whole page.
  isolated: {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
  },
  // No isolation at all: what most course sites and static hosts give.
  none: {},
  // Chromium's per-document isolation, which works inside a non-isolated parent frame.
  dip: {
    'Document-Isolation-Policy': 'isolate-and-require-corp',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  },
};

/** Sent with every response, whatever the mode: no browser may guess a file's type from its bytes. */
const ALWAYS = { 'X-Content-Type-Options': 'nosniff' };

/**
 * The rules of the site's `_headers` file (Netlify and Cloudflare Pages syntax: a path pattern, `*`
 * matching anything, then indented `Name: value` lines), as { path (as written), pattern: RegExp,
 * headers } in file order; none when the site has no such file.
 */
export function headersFileRules(root) {
  let text;
  try {
    text = fs.readFileSync(path.join(root, '_headers'), 'utf8');
  } catch {
    return [];
  }
  const rules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
      rules.push({ path: line.trim(), pattern: new RegExp(`^${source}$`), headers: {} });
      continue;
    }
    const [name, ...value] = line.trim().split(':');
    if (rules.length) rules.at(-1).headers[name] = value.join(':').trim();
  }
  return rules;
}

/**
 * The headers a host that reads `_headers` (Netlify, Cloudflare Pages) sends for `pathname`, given
 * the file's `rules`: every matching rule's, in file order, a name given twice joined by ", "
 * (Cloudflare Pages documents this; for a Content-Security-Policy it makes two policies).
 */
export function headersForPath(rules, pathname) {
  const headers = {};
  for (const rule of rules.filter((r) => r.pattern.test(pathname))) {
    for (const [name, value] of Object.entries(rule.headers)) {
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
  }
  return headers;
}

/**
 * Serve `root` on 127.0.0.1. `overrides` maps a path to what is served instead of the file (tests
 * use it to break one script on purpose); it can be changed while the server runs. An override is a
 * body (string), or `{ status, type, body, delayMs }`: any of these replaces what the file would
 * have had (`body` defaults to the file itself), and `delayMs` holds the answer back that long.
 *
 * `link` makes files arrive as over a slow link, for the bench: `{ rttMs, bytesPerSecond }` holds
 * each answer back one round trip, then sends every body through ONE shared pipe of that
 * throughput (parallel downloads share it, as on a real link). It also does what a static host
 * does: files are sent gzip-compressed (to a browser that accepts it), with an ETag, and a request
 * that brings the same ETag back gets a 304 without the body. Its `Cache-Control` is the one the
 * site's `_headers` gives the path (content-hashed files: cached for good), else `no-cache`.
 *
 * `headersFile` serves every answer with what the site's `_headers` gives its path as well, as
 * Netlify or Cloudflare Pages would (`headersForPath`; its caching only over the `link`).
 *
 * `headScript` (JavaScript) goes first into the `<head>` of every HTML page served from `root`: the
 * tests of a browser whose driver reports no console errors (WebKit's) record the page's errors with it.
 */
export function startServer({ root: given, port = 0, mode = 'isolated', extraHeaders = {}, overrides = {}, link = null, headersFile = false, headScript = null }) {
  // Absolute, so the containment check below also holds for a relative root like ../dist.
  const root = path.resolve(given);
  const common = { ...ALWAYS, ...MODES[mode], ...extraHeaders };
  const fileRules = headersFile ? headersFileRules(root) : [];
  if (headersFile && !fileRules.length) throw new Error(`${root}/_headers sets nothing`);
  const requests = [];
  // Answers held back by a `delayMs` override, by timer.
  const held = new Map();
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    const url = new URL(req.url, 'http://localhost');
    const { 'Cache-Control': _caching, ...fromFile } = headersForPath(fileRules, url.pathname);
    const headers = { ...common, ...fromFile };
    if (Object.hasOwn(overrides, url.pathname)) {
      const given = overrides[url.pathname];
      const override = typeof given === 'string' ? { body: given } : given;
      const answer = () => {
        if (res.destroyed) return;
        const type = override.type || TYPES[path.extname(url.pathname)] || 'application/octet-stream';
        const body = override.body ?? fs.readFileSync(path.join(root, url.pathname));
        res.writeHead(override.status || 200, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
      };
      if (override.delayMs) {
        const timer = setTimeout(() => { held.delete(timer); answer(); }, override.delayMs);
        held.set(timer, answer);
      } else answer();
      return;
    }
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(path.resolve(root))) {
      res.writeHead(403).end();
      return;
    }
    let stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.isDirectory()) {
      file = path.join(file, 'index.html');
      stat = fs.statSync(file, { throwIfNoEntry: false });
    }
    if (!stat && !path.extname(url.pathname)) {
      // A client-side route such as /chapters/sum: serve the app.
      file = path.join(root, 'index.html');
      stat = fs.statSync(file, { throwIfNoEntry: false });
    }
    if (!stat) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    if (link) {
      sendOverLink(req, res, file, headers);
      return;
    }
    if (headScript && file.endsWith('.html')) {
      const page = fs.readFileSync(file, 'utf8').replace('<head>', `<head><script>${headScript}</script>`);
      res.writeHead(200, { ...headers, 'Content-Type': TYPES['.html'], 'Cache-Control': 'no-cache' }).end(page);
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': stat.size,
      'Cache-Control': 'no-cache',
    });
    fs.createReadStream(file).pipe(res);
  });
  // The slow link: when the shared pipe is next free (ms, Date.now() clock), and the bytes sent.
  // Its caching follows the site's own `_headers`, as the static host would send them.
  // (The first rule that names it wins: the later rules of the file only add other headers.)
  const cacheRules = link ? headersFileRules(root).filter((rule) => rule.headers['Cache-Control']) : [];
  const cacheControl = (pathname) => cacheRules.find((rule) => rule.pattern.test(pathname))?.headers['Cache-Control'] ?? 'no-cache';
  let pipeFreeAt = 0;
  let linkBytes = 0;
  // Every answer over the link: its path, when it was asked for and when its last byte left (ms).
  const waterfall = [];
  const compressed = new Map();
  const sendOverLink = (req, res, file, headers) => {
    const type = TYPES[path.extname(file)] || 'application/octet-stream';
    let entry = compressed.get(file);
    if (!entry) {
      const raw = fs.readFileSync(file);
      const gzip = /^(text|application\/(wasm|json|manifest))/.test(type) ? zlib.gzipSync(raw, { level: 9 }) : null;
      entry = { raw, gzip, etag: `"${crypto.createHash('sha1').update(raw).digest('hex')}"` };
      compressed.set(file, entry);
    }
    const accepts = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = accepts && entry.gzip ? entry.gzip : entry.raw;
    const pathname = new URL(req.url, 'http://localhost').pathname;
    const common = { ...headers, ETag: entry.etag, 'Cache-Control': cacheControl(pathname), Vary: 'Accept-Encoding' };
    const asked = Date.now();
    setTimeout(() => {
      if (res.destroyed) return;
      if (req.headers['if-none-match'] === entry.etag) {
        res.writeHead(304, common).end();
        waterfall.push({ path: pathname, asked, done: Date.now(), bytes: 0, status: 304 });
        return;
      }
      res.writeHead(200, {
        ...common,
        'Content-Type': type,
        'Content-Length': body.length,
        ...(body === entry.gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      // Through the shared pipe, 16 KiB at a time.
      const CHUNK = 16 * 1024;
      let offset = 0;
      const next = () => {
        if (res.destroyed) return;
        if (offset >= body.length) {
          res.end();
          waterfall.push({ path: pathname, asked, done: Date.now(), bytes: body.length, status: 200 });
          return;
        }
        const piece = body.subarray(offset, offset + CHUNK);
        offset += piece.length;
        const start = Math.max(Date.now(), pipeFreeAt);
        pipeFreeAt = start + (piece.length / link.bytesPerSecond) * 1000;
        linkBytes += piece.length;
        setTimeout(() => {
          if (!res.destroyed) res.write(piece);
          next();
        }, pipeFreeAt - Date.now());
      };
      next();
    }, link.rttMs);
  };
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        requests,
        overrides,
        /** Body bytes sent over the emulated slow link so far (after compression). */
        linkBytes: () => linkBytes,
        /** The answers sent over the slow link since `since` (Date.now() ms), in the order they ended. */
        waterfall: (since = 0) => waterfall.filter((w) => w.asked >= since),
        /** Send every answer held back by a `delayMs` override now (the server has recovered). */
        releaseHeld: () => {
          for (const [timer, answer] of held) { clearTimeout(timer); answer(); }
          held.clear();
        },
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root = '../dist', port = '8080', mode = 'isolated'] = process.argv.slice(2);
  const { url } = await startServer({ root, port: Number(port), mode });
  console.log(`serving ${path.resolve(root)} at ${url} (${mode})`);
}
