// Concurrency Lab's service worker, registered by register-sw.js only in the deployable build
// (`cargo xtask dist` turns it on). It does two jobs:
//
// 1. Cross-origin isolation on hosts that cannot send headers (GitHub Pages): every same-origin
//    response it hands to the page gets Cross-Origin-Opener-Policy: same-origin,
//    Cross-Origin-Embedder-Policy: require-corp and Cross-Origin-Resource-Policy: same-origin (and
//    embeds Document-Isolation-Policy), unless the server already sent them. After the first visit
//    the page is isolated, so the threaded engine can share memory between its workers. They also
//    get X-Content-Type-Options: nosniff, as `_headers` sends it.
// 2. The site offline: the install step stores every file of the build (the list below is written
//    by `cargo xtask dist`); pages are network-first with the stored copy as fallback, everything
//    else is cache-first (file names are hashed: the app's and the engines' folders are named after
//    their build; the version covers the few files whose names stay).
//
// A new build has a new version: it installs, takes over at once and deletes the caches of older
// versions of this site (and only those).

self.__PRECACHE = [];
self.__VERSION = 'dev';

const SCOPE = self.registration.scope;
const CACHE_PREFIX = `lab:${SCOPE}:`;
const CACHE = CACHE_PREFIX + self.__VERSION;

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// Not for isolation: the browser takes every file for the type it is served as, never guesses.
const NO_SNIFFING = { 'X-Content-Type-Options': 'nosniff' };

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `reload` for the files whose names stay: never store a copy the browser's HTTP cache kept
      // from an older build. A file named after its content may come from that cache: the page
      // has usually just fetched it, and a slow link should not carry it twice.
      const request = (path) => new Request(new URL(path, SCOPE), { cache: HASHED.test(`/${path}`) ? 'default' : 'reload' });
      await cache.addAll(self.__PRECACHE.map(request));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  // A Chromium quirk: such requests fail when answered by a service worker.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  const url = new URL(request.url);
  // Nothing on other origins is touched (the site loads nothing from them).
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return;
  // A request that asks not to be stored wants the server's answer (the page checking which build
  // the site serves now, or which engine file is at fault): the network's, and stored nowhere.
  if (request.cache === 'no-store') {
    event.respondWith(fetch(request).then((response) => isolate(response, url)));
    return;
  }
  event.respondWith(isPage(request) ? networkFirst(request, url) : cacheFirst(request));
});

function isPage(request) {
  return request.mode === 'navigate' || request.destination === 'document' || request.destination === 'iframe';
}

// Set when the network serves a page of a newer build than this version's cache (a deployment went
// live and its service worker is installing): until that one takes over, files without a hash in
// their names (register-sw.js, warm-intl.js; the engines' folders are named after their build)
// come from the network too, so the new page never meets an old file of its own name.
// Kept in memory only: the window lasts seconds.
let newerBuildLive = false;

/** Pages: the network's copy when there is a network, else the stored one for this path. */
async function networkFirst(request, url) {
  try {
    const response = await fetch(request);
    if (!newerBuildLive && response.ok && self.__PRECACHE.length > 0) {
      newerBuildLive = !(await scriptsStored(response.clone(), url));
    }
    return isolate(response, url);
  } catch (error) {
    const path = url.pathname;
    const candidates = [url.origin + path, url.origin + path.replace(/\/?$/, '/') + 'index.html', SCOPE + 'index.html'];
    for (const candidate of candidates) {
      const stored = await caches.match(candidate, { cacheName: CACHE, ignoreSearch: true });
      if (stored) return isolate(stored, url);
    }
    throw error;
  }
}

/** Whether every script the page loads is in this version's cache, i.e. the page is of this build. */
async function scriptsStored(response, url) {
  if (!(response.headers.get('Content-Type') || '').includes('text/html')) return true;
  for (const [, src] of (await response.text()).matchAll(/<script\b[^>]*\ssrc="([^"]+)"/gi)) {
    if (!(await caches.match(new URL(src, url).href, { cacheName: CACHE }))) return false;
  }
  return true;
}

/** Names that carry their content's hash: Trunk's (`style-0123456789abcdef.css`), ours (`init-…`,
 * the prose and interface tables' `…-<hash>.json`), every file of the split UI's `app-<hash>/` and
 * of the engines' `engine-<build>/` and `engine-single-<build>/`. */
const HASHED = /-[0-9a-f]{16}(\/|(_bg)?\.[a-z0-9]+$)/;

/** Scripts, wasm, styles, icons: the stored copy, else the network's (then stored for next time). */
async function cacheFirst(request) {
  if (newerBuildLive && !HASHED.test(new URL(request.url).pathname)) {
    try {
      return isolate(await fetch(request, { cache: 'no-cache' }), new URL(request.url));
    } catch {
      // Offline after all: this version's copy.
    }
  }
  const stored = await caches.match(request, { cacheName: CACHE });
  if (stored) return isolate(stored, new URL(request.url));
  const response = await fetch(request);
  // Not into a cache a newer version deleted (caches.open would bring it back).
  if (response.status === 200 && response.type === 'basic' && (await caches.has(CACHE))) {
    await (await caches.open(CACHE)).put(request, response.clone());
  }
  return isolate(response, new URL(request.url));
}

/** The response with the isolation headers (and nosniff) it lacks. Opaque responses and redirects pass as they are. */
function isolate(response, url) {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  const wanted = { ...ISOLATION, ...NO_SNIFFING };
  // Embeds live in other sites' pages: Chromium can isolate such a frame on its own.
  if (url.pathname.startsWith(new URL(SCOPE).pathname + 'embed/')) {
    wanted['Document-Isolation-Policy'] = 'isolate-and-require-corp';
  }
  for (const [name, value] of Object.entries(wanted)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
