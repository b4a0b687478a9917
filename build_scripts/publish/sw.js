// LVL Rules service worker: the whole site, the rules engine included, offline.
//
// Written to <site>/sw.js by build_scripts/publish/service_worker.py, which fills in BUILD below from the
// built site: every file to keep, with its sha256 and size, and a version that is a hash
// of them all. One cache per version ("lvl-rules-<version>"); a new build is a new
// sw.js, hence a new service worker that fills a new cache and, once the reader accepts
// the update (or on their first visit), deletes every other one.
//
// When what is fetched:
// - install: the "shell" (every page, the theme, the search index, the data files):
//   files whose sha256 an older cache already holds are copied from it, the rest are
//   downloaded, each checked against its sha256 (Subresource Integrity);
// - message "cache-engine" (offline.js sends it after the page has loaded): the
//   "engine" files (Pyodide, the wheel, the snapshot, ~15 MB) in the background;
// - fetch: files of this build come from the cache; one not cached yet (an engine file
//   the engine asks for before the background copy has it) is fetched once and kept.
//   Anything else goes to the network; a page that is neither cached nor reachable gets
//   the cached 404 page.
//
// Page <-> worker messages ({type, ...}):
//   page -> worker  "status"          reply: "status" {version, cached, total, ready}
//   page -> worker  "cache-engine"    start (or join) the background engine download
//   page -> worker  "skip-waiting"    a waiting worker takes over (the update prompt)
//   worker -> pages "progress"        {version, cached, total} bytes, while downloading
//   worker -> pages "ready"           {version}: every file of this build is cached

const BUILD = /* BUILD */ {};

const PREFIX = "lvl-rules-";
const CACHE = PREFIX + BUILD.version;
const SCOPE = new URL(self.registration.scope);
// What this cache holds: read at install to reuse unchanged files in the next version.
const INDEX_URL = new URL("__lvl-offline-index__", SCOPE).href;
const PARALLEL = 6;

// url -> {sha256, size, group}
const FILES = new Map(
  Object.entries(BUILD.files).map(([path, [sha256, size, group]]) => [
    new URL(path, SCOPE).href,
    { sha256, size, group },
  ]),
);
const TOTAL = sum([...FILES.values()]);
const inFlight = new Map(); // url -> promise of the download being stored
let engineJob = null;

self.addEventListener("install", (event) => {
  event.waitUntil(storeGroup("shell"));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  switch (event.data?.type) {
    case "skip-waiting":
      self.skipWaiting();
      break;
    case "status":
      event.waitUntil(status().then((report) => event.source?.postMessage(report)));
      break;
    case "cache-engine":
      event.waitUntil(cacheEngine());
      break;
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const key = keyOf(url);
  if (key) {
    event.respondWith(fromCache(key, request));
  } else if (request.mode === "navigate") {
    const page = `${url.origin}${url.pathname}/`;
    if (FILES.has(page)) {
      event.respondWith(Response.redirect(page + url.search, 301));
    } else {
      event.respondWith(fetch(request).catch(() => notFound()));
    }
  }
});

// This version's cache; null once a newer version has taken over (it deleted this cache,
// which must not be made again) or, unless `create`, if it is not there.
async function openCache({ create = false } = {}) {
  if (self.serviceWorker?.state === "redundant") return null;
  if (!create && !(await caches.has(CACHE))) return null;
  return caches.open(CACHE);
}

// The cache key of a URL of this build (queries and fragments ignored), or null.
function keyOf(url) {
  const href = url.origin + url.pathname;
  if (FILES.has(href)) return href;
  if (href.endsWith("/index.html") && FILES.has(href.slice(0, -"index.html".length))) {
    return href.slice(0, -"index.html".length);
  }
  return null;
}

// The cache that answers fetches, opened once for this worker's life: opening it again
// for every request cost two more round trips to the browser's cache storage each, and
// a repeat visit's engine fetches its runtime through here (measured: first answer
// ~0.05 s sooner). Forgotten while there is none yet, and once this version is replaced.
let servingCache = null;

function cacheForServing() {
  if (self.serviceWorker?.state === "redundant") servingCache = null;
  servingCache ??= openCache().then(
    (cache) => {
      if (!cache) servingCache = null;
      return cache;
    },
    () => {
      servingCache = null; // cache storage failed: the network answers, and next time we retry
      return null;
    },
  );
  return servingCache;
}

async function fromCache(key, request) {
  const cache = await cacheForServing();
  const hit = await cache?.match(key);
  if (hit) return hit;
  const pending = inFlight.get(key);
  if (pending) {
    await pending.catch(() => {});
    const stored = await cache?.match(key);
    if (stored) return stored;
  }
  // Not cached yet: fetch it for the page and keep a copy if its sha256 matches.
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    if (request.mode === "navigate") return notFound();
    throw error;
  }
  if (cache && response.ok && !response.redirected && response.type === "basic") {
    const copy = response.clone();
    track(key, keep(cache, key, copy));
  }
  return response;
}

async function notFound() {
  const page = await caches.match(new URL(BUILD.notFound, SCOPE).href, { cacheName: CACHE });
  if (!page) return Response.error();
  return new Response(page.body, { status: 404, statusText: "Not Found", headers: page.headers });
}

// Store a response fetched for a page if its bytes are this build's.
async function keep(cache, key, response) {
  const bytes = await response.arrayBuffer();
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== FILES.get(key).sha256) {
    throw new Error(`${key}: sha256 ${actual} is not this build's`);
  }
  const { status, statusText, headers } = response;
  await cache.put(key, new Response(bytes, { status, statusText, headers }));
  await announceIfComplete();
}

function track(key, promise) {
  inFlight.set(key, promise);
  promise
    .catch((error) => console.warn(`LVL Rules offline: ${key}: ${error.message}`))
    .finally(() => inFlight.delete(key));
  return promise;
}

// Every file of a group into this version's cache: copied from an older cache when its
// sha256 is unchanged, else downloaded and checked.
async function storeGroup(group, onStored = () => {}) {
  const cache = await openCache({ create: group === "shell" });
  if (!cache) return;
  const have = new Set((await cache.keys()).map((request) => request.url));
  const wanted = [...FILES].filter(([url, file]) => file.group === group && !have.has(url));
  const older = await olderCaches();
  let failed = null;
  await pool(wanted, PARALLEL, async ([url, file]) => {
    try {
      const pending = inFlight.get(url);
      if (pending) await pending;
      else await track(url, storeOne(cache, url, file, older));
      onStored(file);
    } catch (error) {
      failed ??= error;
    }
  });
  if (failed) throw failed;
  await cache.put(INDEX_URL, Response.json(hashes(await cache.keys())));
}

async function storeOne(cache, url, file, older) {
  for (const { cache: old, index } of older) {
    if (index[url] !== file.sha256) continue;
    const response = await old.match(url);
    if (response) return cache.put(url, response);
  }
  let response;
  try {
    response = await fetch(url, { integrity: sri(file.sha256) });
  } catch {
    // A stale copy in the HTTP cache, or a file changed on the server since this build:
    // once more from the server itself, then give up until the next attempt.
    response = await fetch(url, { integrity: sri(file.sha256), cache: "reload" });
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if (response.redirected) {
    // A page served after a redirect cannot answer a navigation: keep the bytes only.
    const { status, statusText, headers } = response;
    response = new Response(await response.blob(), { status, statusText, headers });
  }
  await cache.put(url, response);
}

// The caches of older versions, each with what it holds: {cache, index: {url: sha256}}.
async function olderCaches() {
  const older = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const index = await (await cache.match(INDEX_URL))?.json().catch(() => null);
    if (index) older.push({ cache, index });
  }
  return older;
}

function hashes(requests) {
  const index = {};
  for (const { url } of requests) {
    if (FILES.has(url)) index[url] = FILES.get(url).sha256;
  }
  return index;
}

function cacheEngine() {
  engineJob ??= (async () => {
    try {
      let cached = (await status()).cached;
      await storeGroup("engine", (file) => {
        cached += file.size;
        broadcast({ type: "progress", version: BUILD.version, cached, total: TOTAL });
      });
      await announceIfComplete();
    } finally {
      engineJob = null;
    }
  })();
  return engineJob.catch((error) => console.warn("LVL Rules offline:", error.message));
}

async function status() {
  const cache = await openCache();
  const have = new Set(((await cache?.keys()) ?? []).map((request) => request.url));
  const cached = sum([...FILES].filter(([url]) => have.has(url)).map(([, file]) => file));
  return { type: "status", version: BUILD.version, cached, total: TOTAL, ready: cached === TOTAL };
}

async function announceIfComplete() {
  const report = await status();
  if (report.ready) broadcast({ type: "ready", version: BUILD.version });
}

async function broadcast(message) {
  const clients = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of clients) {
    client.postMessage(message);
  }
}

async function pool(items, size, work) {
  const queue = [...items];
  const runners = Array.from({ length: Math.min(size, queue.length) }, async () => {
    while (queue.length) await work(queue.shift());
  });
  await Promise.all(runners);
}

function sum(files) {
  return files.reduce((total, file) => total + file.size, 0);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function sri(sha256) {
  const bytes = sha256.match(/../g).map((pair) => parseInt(pair, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}
