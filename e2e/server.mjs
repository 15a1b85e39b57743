// A tiny static server for tests and benchmarks: serves a built site with a chosen set of
// isolation headers, falls back to index.html for client-side routes, and logs every request.
// Usage as a program: node server.mjs <root> <port> [isolated|none|dip]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

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
 * Serve `root` on 127.0.0.1. `overrides` maps a path to what is served instead of the file (tests
 * use it to break one script on purpose); it can be changed while the server runs. An override is a
 * body (string), or `{ status, type, body, delayMs }`: any of these replaces what the file would
 * have had (`body` defaults to the file itself), and `delayMs` holds the answer back that long.
 */
export function startServer({ root: given, port = 0, mode = 'isolated', extraHeaders = {}, overrides = {} }) {
  // Absolute, so the containment check below also holds for a relative root like ../dist.
  const root = path.resolve(given);
  const headers = { ...ALWAYS, ...MODES[mode], ...extraHeaders };
  const requests = [];
  // Answers held back by a `delayMs` override, by timer.
  const held = new Map();
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    const url = new URL(req.url, 'http://localhost');
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
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': stat.size,
      'Cache-Control': 'no-cache',
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        requests,
        overrides,
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
