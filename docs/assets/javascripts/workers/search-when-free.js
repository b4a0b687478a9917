// Material for MkDocs' search worker, started once the rules engine is not starting.
//
// Material creates its search worker from the URL in its configuration ("search" in the
// page's #__config; a custom worker is its documented way to change search). The build
// points that URL here (build_scripts/pages/search_worker.py, which fails when Material's
// worker is no longer MATERIAL_WORKER). This worker sits beside Material's, so that the
// relative URLs Material's code uses (its lunr language files) mean what they always did.
// (Material's name is not passed in the URL's fragment: a worker served by the service
// worker has the cached response's URL, which has none.)
//
// Until it starts, the page's messages (Material's SETUP, with the whole index) wait here
// in order. It imports Material's worker and hands them over, on the first of:
// - the Web Lock ENGINE_STARTING is free: engine-client.js holds it while the engine
//   starts, and on a page without the engine it is free at once;
// - the reader opens search: "start" on the BroadcastChannel SEARCH_CHANNEL (assets/lvl.js,
//   which also answers this worker's "waiting" if the reader wanted search before);
// - START_ANYWAY_MS have passed (another tab's engine on a slow network, say).
// Building the index takes ~0.4 s of CPU; beside the engine's start-up on two cores, it
// held the calculator's first answer back: 1,216 vs 1,008 ms on localhost (medians of 5,
// benchmarks/site_variants.py search-at-once; see build_scripts/pages/search_worker.py).
const MATERIAL_WORKER = "search.a7633da7.min.js"; // Material for MkDocs 9.8.2
const ENGINE_STARTING = "lvl-rules-engine-starting";
const SEARCH_CHANNEL = "lvl-rules-search";
const START_ANYWAY_MS = 10_000;

const waiting = [];
let started = false;

function hold(event) {
  waiting.push(event.data);
}

function start() {
  if (started) return;
  started = true;
  self.removeEventListener("message", hold);
  channel?.close();
  clearTimeout(anyway);
  importScripts(MATERIAL_WORKER);
  for (const data of waiting.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
}

self.addEventListener("message", hold);
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(SEARCH_CHANNEL) : null;
if (channel) {
  channel.onmessage = (event) => event.data === "start" && start();
  channel.postMessage("waiting");
}
const anyway = setTimeout(start, START_ANYWAY_MS);
// Started outside the lock's callback: the lock is let go at once, and a failure to
// import Material's worker is reported as this worker's error.
const soon = () => void setTimeout(start, 0);
if (self.navigator?.locks) self.navigator.locks.request(ENGINE_STARTING, soon).catch(soon);
else soon();
