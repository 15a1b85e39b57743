// Concurrency Lab's service worker, registered by register-sw.js only in the deployable build
// (`cargo xtask dist` turns it on). It answers only the lab's own routes and files (the route pages
// `cargo xtask dist` writes, the files it lists below, and content-addressed files of any build);
// every other request, even under its scope (another site at the same origin), goes to the network
// untouched. It does two jobs:
//
// 1. The site's headers on hosts that cannot send them (GitHub Pages): every response it hands to
//    the page gets the headers the site's `_headers` gives its path and the response lacks
//    (crates/xtask/src/dist/headers.rs writes both): cross-origin isolation (COOP, COEP, CORP; and
//    Document-Isolation-Policy on embeds), nosniff, the Content-Security-Policy and the framing
//    rules. After the first visit the page is isolated, so the threaded engine can share memory
//    between its workers.
// 2. The site offline: the install step stores every file of the build (the list below is written
//    by `cargo xtask dist`); pages are network-first with the stored copy as fallback, everything
//    else is cache-first (file names are hashed: the app's and the engines' folders are named after
//    their build; the version covers the few files whose names stay).
//
// A new build has a new version: it installs, takes over at once and deletes the caches of older
// versions of this site (and only those).

// Written by `cargo xtask dist`: the files of the build, the route pages (relative to the scope, ""
// for the landing page), the patterns of content-addressed files (`*` matches anything), the
// pattern of a path that carries a content hash (`dist::headers::HASHED`, a RegExp source), the
// headers of `_headers` as { pattern, headers } (but caching, which is the HTTP cache's), the version.
self.__PRECACHE = [];
self.__ROUTES = [];
self.__CONTENT_ADDRESSED = [];
self.__HASHED = '';
self.__HEADERS = [];
self.__VERSION = 'dev';

const SCOPE = self.registration.scope;
const SCOPE_PATH = new URL(SCOPE).pathname;
const CACHE_PREFIX = `lab:${SCOPE}:`;
const CACHE = CACHE_PREFIX + self.__VERSION;
const FILES = new Set(self.__PRECACHE);
const ROUTES = new Set(self.__ROUTES);

/** `pattern` (`*` matching anything, `/` included, as in `_headers`) as a RegExp over a whole path. */
function glob(pattern) {
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^$|()[\]{}\\]/g, '\\$&'));
  return new RegExp('^' + parts.join('.*') + '$');
}
const CONTENT_ADDRESSED = self.__CONTENT_ADDRESSED.map(glob);
const HEADER_RULES = self.__HEADERS.map(({ pattern, headers }) => ({ pattern: glob(pattern), headers }));

/** The path of `url` relative to the scope, or null if it is not under it on this origin. */
function sitePath(url) {
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE_PATH)) return null;
  return url.pathname.slice(SCOPE_PATH.length);
}

/** Whether `url` is one of the lab's own: a file of this build, a route page, or a content-addressed file of any build. */
function isLab(url) {
  const path = sitePath(url);
  if (path === null) return false;
  if (FILES.has(path) || ROUTES.has(path.replace(/\/(index\.html)?$/, ''))) return true;
  return HASHED.test(`/${path}`) && CONTENT_ADDRESSED.some((pattern) => pattern.test(path));
}

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
  // Nothing but the lab's own is touched: not other origins (the site loads nothing from them), nor
  // other paths of this origin, which may be other sites.
  if (!isLab(url)) return;
  // A request that asks not to be stored wants the server's answer (the page checking which build
  // the site serves now, or which engine file is at fault): the network's, and stored nowhere.
  if (request.cache === 'no-store') {
    event.respondWith(fetch(request).then((response) => withHeaders(response, url)));
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
    return withHeaders(response, url);
  } catch (error) {
    const path = url.pathname;
    const candidates = [url.origin + path, url.origin + path.replace(/\/?$/, '/') + 'index.html', SCOPE + 'index.html'];
    for (const candidate of candidates) {
      const stored = await caches.match(candidate, { cacheName: CACHE, ignoreSearch: true });
      if (stored) return withHeaders(stored, url);
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
const HASHED = new RegExp(self.__HASHED);

/** Scripts, wasm, styles, icons: the stored copy, else the network's (then stored for next time). */
async function cacheFirst(request) {
  if (newerBuildLive && !HASHED.test(new URL(request.url).pathname)) {
    try {
      return withHeaders(await fetch(request, { cache: 'no-cache' }), new URL(request.url));
    } catch {
      // Offline after all: this version's copy.
    }
  }
  const stored = await caches.match(request, { cacheName: CACHE });
  if (stored) return withHeaders(stored, new URL(request.url));
  const response = await fetch(request);
  // Not into a cache a newer version deleted (caches.open would bring it back).
  if (response.status === 200 && response.type === 'basic' && (await caches.has(CACHE))) {
    await (await caches.open(CACHE)).put(request, response.clone());
  }
  return withHeaders(response, new URL(request.url));
}

/** The response with the headers `_headers` gives its path that it lacks. Opaque responses and redirects pass as they are. */
function withHeaders(response, url) {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  const path = sitePath(url) ?? '';
  const wanted = new Headers();
  for (const rule of HEADER_RULES.filter((r) => r.pattern.test(path))) {
    for (const [name, value] of Object.entries(rule.headers)) wanted.append(name, value);
  }
  // (Headers.append joins a name given twice by ", ", as the hosts that read `_headers` do.)
  for (const [name, value] of wanted) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
