// LVL Rules service worker: what a visitor asked for, kept for offline use.
//
// Written to <site>/sw.js by build_scripts/publish/service_worker.py, which fills in BUILD
// below from the built site: every file that may be kept, with its sha256, its size, its
// group and the bytes it costs to download (its brotli or gzip sibling's size, where there
// is one), and a version that is a hash of them all. One cache per version ("lvl-rules-<version>"); a
// new build is a new sw.js, hence a new service worker that fills a new cache and, once
// the reader accepts the update (or on their first visit), deletes every other one.
//
// A deploy never takes away what a visitor kept: a new build's worker, while it installs,
// keeps this build's copies of what the older caches hold (the groups the visitor asked to
// keep whole, everything say, and the same pages and files), copying each unchanged file
// from the older cache and downloading the changed ones. Only once all are stored does it
// install (and may take over); a download that fails fails the install: the browser drops
// the new worker, the older one keeps answering from its cache, and the next visit tries
// again (what was stored stays stored: only the rest is downloaded then).
//
// Nothing is downloaded that the visitor did not ask for:
// - message "keep" {urls, core}: the page just loaded and the files it loaded (neither
//   was served by this worker yet; they are in the browser's HTTP cache) and, with `core`
//   (the page sends it unless the visitor saves data), the "core" group: the theme's
//   files, the search index and the sitemap, which the page has mostly just loaded, and
//   the page shown for what is missing;
// - fetch: files of this build come from the cache; one not cached yet is fetched once
//   and kept: pages as they are visited, PDFs and printable pages when opened. Anything else goes to the network; a page that is
//   neither cached nor reachable gets the cached 404 page;
//   A lookup or calculator page sends the engine's files this way once it has loaded
//   them (they are in the browser's HTTP cache by then: no byte is sent again);
// - message "keep-all": everything, for use at a venue without signal (the page's
//   "keep everything" control), with progress, and a last "status" to every page saying
//   whether it kept everything or stopped (a dropped connection): then a second
//   "keep-all" downloads only what is still missing.
//
// Page <-> worker messages ({type, ...}):
//   page -> worker  "status" {url}    reply: "status" (below)
//   page -> worker  "keep" {urls, core, for}    reply: "status" once kept
//   page -> worker  "keep-all", "skip-waiting"
//   worker -> pages "progress" {version, cached, total, update}   bytes, while keeping
//     everything, or (update: true) while a new build's worker installs what was kept
//   worker -> pages "status" {version, cached, total, everything, engine, page, kept, for,
//                             keepAll}
//     cached/total: download bytes kept / of everything; everything: all is kept;
//     engine: every engine file is kept; page: the asking page is kept; kept: every URL
//     of a "keep" message is; for: that message's "for", echoed; keepAll: "done" or
//     "stopped" in the status sent to every page when a "keep-all" ends
//   "status" and "keep" are answered one after another, in the order they came: a reply
//   speaks of everything asked before it. (Answered side by side, the engine's "keep",
//   done first, said "available offline" of a page whose theme was still being kept.)

const BUILD = /* BUILD */ {};

const PREFIX = "lvl-rules-";
const CACHE = PREFIX + BUILD.version;
const SCOPE = new URL(self.registration.scope);
// What this cache holds: read at install to reuse unchanged files in the next version.
const INDEX_URL = new URL("__lvl-offline-index__", SCOPE).href;
// The groups the visitor asked to keep whole, {groups: [...]} (every group: "keep
// everything"; "core" with their first page; "engine" once a calculator page ran it), carried
// to every new build: its files change names from build to build, a wish does not.
const WISH_URL = new URL("__lvl-offline-wish__", SCOPE).href;
const PARALLEL = 6;

// url -> {sha256, size, group, cost}   cost: bytes it takes to download
const FILES = new Map(
  Object.entries(BUILD.files).map(([path, [sha256, size, group, cost]]) => [
    new URL(path, SCOPE).href,
    { sha256, size, group, cost },
  ]),
);
const TOTAL = sum([...FILES.values()]);
const GROUPS = [...new Set([...FILES.values()].map((file) => file.group))];
const inFlight = new Map(); // url -> promise of the download being stored
const jobs = new Map(); // job name -> promise (one "keep-all" at a time)
let turns = Promise.resolve(); // the "status" and "keep" messages, answered in order

// A first visit downloads nothing at install: the page says what to keep (see "keep"). A
// visitor who kept something of an older build gets this build's copies of it first.
self.addEventListener("install", (event) => {
  event.waitUntil(keepWhatWasKept());
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
  const message = event.data;
  const reply = (report) => event.source?.postMessage(report);
  switch (message?.type) {
    case "skip-waiting":
      self.skipWaiting();
      break;
    case "status":
      event.waitUntil(inTurn(() => status(message.url)).then(reply));
      break;
    case "keep":
      event.waitUntil(
        inTurn(async () => {
          const groups = [message.core && "core", message.for === "engine" && "engine"];
          await Promise.all([
            wish(groups.filter(Boolean)),
            keepURLs(message.urls ?? []),
            message.core && storeGroups(["core"]),
          ]).catch((error) => console.warn("LVL Rules offline:", error.message));
          return status(event.source?.url, message.urls);
        }).then((report) => reply({ ...report, for: message.for })),
      );
      break;
    case "keep-all":
      event.waitUntil(keepEverything());
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
  servingCache ??= openCache({ create: true }).then(
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
}

function track(key, promise) {
  inFlight.set(key, promise);
  promise
    .catch((error) => console.warn(`LVL Rules offline: ${key}: ${error.message}`))
    .finally(() => inFlight.delete(key));
  return promise;
}

// Every file of some groups (or every group) into this version's cache: copied from an
// older cache when its sha256 is unchanged, else downloaded and checked.
async function storeGroups(groups, onStored = () => {}) {
  const cache = await openCache({ create: true });
  if (!cache) return;
  const have = new Set((await cache.keys()).map((request) => request.url));
  const wanted = [...FILES].filter(
    ([url, file]) => (!groups || groups.includes(file.group)) && !have.has(url),
  );
  await storeFiles(cache, wanted, onStored);
}

// The given URLs of this build (others are ignored), as storeGroups() stores files.
async function keepURLs(urls) {
  const cache = await openCache({ create: true });
  if (!cache) return;
  const wanted = [];
  for (const url of urls) {
    const key = keyOf(new URL(url));
    if (key && !(await cache.match(key))) wanted.push([key, FILES.get(key)]);
  }
  await storeFiles(cache, wanted);
}

// Every file it can, then throws the first failure: what was stored stays stored (and in
// the index, for the next version to reuse), so a second attempt fetches only the rest.
async function storeFiles(cache, wanted, onStored = () => {}) {
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
  await cache.put(INDEX_URL, Response.json(hashes(await cache.keys())));
  if (failed) throw failed;
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

// The caches of older versions: {cache, index: {url: sha256} of the files it can reuse,
// urls: every URL it holds (pages kept as they were visited too), groups: those the
// visitor asked to keep whole}.
async function olderCaches() {
  const older = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const index = (await (await cache.match(INDEX_URL))?.json().catch(() => null)) ?? {};
    const urls = (await cache.keys()).map((request) => request.url);
    older.push({ cache, index, urls, groups: await wishedIn(cache) });
  }
  return older;
}

// At install: this build's copies of what older caches hold and of the groups the visitor
// asked to keep whole (everything, say), with progress to every page; throws (failing the
// install) unless all are stored. Files of the older build that this one no longer has
// are not kept.
async function keepWhatWasKept() {
  const older = await olderCaches();
  if (!older.length) return; // a first visit: nothing was kept
  const groups = older.flatMap((each) => each.groups);
  const held = new Set(older.flatMap((each) => each.urls.map(acrossBuilds)));
  await wish(groups);
  const cache = await openCache({ create: true });
  const have = new Set((await cache.keys()).map((request) => request.url));
  const wanted = [...FILES].filter(
    ([url, file]) =>
      (groups.includes(file.group) || held.has(acrossBuilds(url))) && !have.has(url),
  );
  const total = sum(wanted.map(([, file]) => file));
  let cached = 0;
  const progress = () =>
    broadcast({ type: "progress", update: true, version: BUILD.version, cached, total });
  if (wanted.length) progress();
  await storeFiles(cache, wanted, (file) => {
    cached += file.cost;
    progress();
  });
}

// A URL as it names the same file in every build: our scripts' folder is named by a hash
// of them all (assets/code-<hash>/, build_scripts/publish/code_folder.py), so an app's
// module a visited page loaded (app/share.js, say: kept as visited, not by group) has
// another URL in the next build. (Other hashed names are of the "core" and "engine"
// groups, kept whole.)
function acrossBuilds(url) {
  return url.replace(/\/assets\/code-[0-9a-f]+\//, "/assets/code/");
}

// The groups a cache's visitor asked to keep whole.
async function wishedIn(cache) {
  const wished = await (await cache.match(WISH_URL))?.json().catch(() => null);
  return Array.isArray(wished?.groups) ? wished.groups : [];
}

// Remember that the visitor asked to keep these groups whole (see WISH_URL).
async function wish(groups) {
  const cache = await openCache({ create: true });
  if (!cache || !groups.length) return;
  const wished = await wishedIn(cache);
  if (groups.every((group) => wished.includes(group))) return;
  await cache.put(WISH_URL, Response.json({ groups: [...new Set([...wished, ...groups])] }));
}

function hashes(requests) {
  const index = {};
  for (const { url } of requests) {
    if (FILES.has(url)) index[url] = FILES.get(url).sha256;
  }
  return index;
}

// After every "status" and "keep" that came before.
function inTurn(work) {
  const turn = turns.then(work);
  turns = turn.catch(() => {});
  return turn;
}

// One run of a named job at a time; a second request joins the first.
function job(name, work) {
  if (!jobs.has(name)) {
    const running = work()
      .catch((error) => console.warn("LVL Rules offline:", error.message))
      .finally(() => jobs.delete(name));
    jobs.set(name, running);
  }
  return jobs.get(name);
}

// Every file, with progress; every page then hears how it ended, also when it stopped
// (a download failed: the connection dropped, say), so that none is left showing
// progress that no longer moves.
function keepEverything() {
  return job("all", async () => {
    let { cached } = await status();
    let keepAll = "stopped";
    try {
      await wish(GROUPS);
      await storeGroups(null, (file) => {
        cached += file.cost;
        broadcast({ type: "progress", version: BUILD.version, cached, total: TOTAL });
      });
      keepAll = "done";
    } finally {
      broadcast({ ...(await status()), keepAll });
    }
  });
}

// What is kept: download bytes of everything, the engine, the page at `url` (once it is
// stored, if it is being stored), and whether every one of `urls` of this build is.
async function status(url, urls = []) {
  const page = url ? keyOf(new URL(url)) : null;
  await inFlight.get(page)?.catch(() => {});
  const cache = await openCache();
  const have = new Set(((await cache?.keys()) ?? []).map((request) => request.url));
  const kept = [...FILES].filter(([key]) => have.has(key));
  const engine = [...FILES].filter(([, file]) => file.group === "engine");
  return {
    type: "status",
    version: BUILD.version,
    cached: sum(kept.map(([, file]) => file)),
    total: TOTAL,
    everything: kept.length === FILES.size,
    engine: engine.every(([key]) => have.has(key)),
    page: Boolean(page && have.has(page)),
    kept: urls
      .map((each) => keyOf(new URL(each)))
      .every((key) => !key || have.has(key)), // files of other builds are never kept
  };
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
  return files.reduce((total, file) => total + file.cost, 0);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function sri(sha256) {
  const bytes = sha256.match(/../g).map((pair) => parseInt(pair, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}
