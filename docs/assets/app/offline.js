// LVL Rules offline: registers the service worker (<site>/sw.js, written by
// build_scripts/publish/service_worker.py) once the page has loaded, and keeps what the
// visitor asked for: this page, and on the lookup and calculator the rules engine once it
// has started (its files are in the browser's HTTP cache by then). Offers one control to
// keep everything, for venues without signal, with its size and progress (and, when keeping
// stops short, a dropped connection say, says so and offers it again for the rest); says
// what is kept, and of which build; says while a newer build's worker keeps its copies of
// what was kept (the kept build answers until they are all stored), and when that stopped
// short; offers a Reload button once a newer build is installed. Where the browser has no
// service worker (an http:// address other than localhost: a venue's own network), says
// that keeping offline needs a secure address, and nothing else changes. The markup and every
// sentence are in overrides/main.html (data-words-*, from lvl_rules/words/offline.py),
// outside what instant navigation replaces.
//
// Save-Data (or navigator.connection.saveData): nothing is fetched ahead of need; the
// service worker still keeps what the visitor opens.

// Published as <site>/assets/code-<hash>/app/offline.js (build_scripts/publish/code_folder.py).
const SITE = new URL("../../../", import.meta.url);
const SERVICE_WORKER = new URL("sw.js", SITE);
const UPDATE_CHECK_MS = 10 * 60 * 1000; // instant navigation loads no page: check now and then
const MB = 1_000_000;

const root = document.querySelector("[data-lvl-offline]");
const readyBadge = root?.querySelector("[data-lvl-offline-ready]");
const updatePrompt = root?.querySelector("[data-lvl-offline-update]");
const keepBox = root?.querySelector("[data-lvl-offline-keep]");
const keepButton = keepBox?.querySelector("[data-lvl-offline-keep-all]");
const keepBar = keepBox?.querySelector("[data-lvl-offline-progress]");
const keepText = keepBox?.querySelector("[data-lvl-offline-progress-text]");
const updating = root?.querySelector("[data-lvl-offline-updating]");

let keptVersion = null; // the build whose copies answer offline, once the worker has said

let acceptedUpdate = false;
let keepStopped = false; // keeping everything stopped short: the control keeps the rest

function words(name, numbers = {}) {
  const pattern = root.dataset[`words${name[0].toUpperCase()}${name.slice(1)}`] ?? "";
  return pattern.replace(/\{(\w+)\}/g, (_, key) => numbers[key] ?? "");
}

const mb = (bytes) => (bytes / MB).toFixed(1);

async function start() {
  // A page reloading into a newer build has unregistered the worker (engine-client.js):
  // registering it again would revive it, and the reload would get this old page again.
  if (document.documentElement.dataset.lvlLeaving) return;
  const workers = navigator.serviceWorker;
  const hadController = Boolean(workers.controller);
  workers.addEventListener("message", (event) => onMessage(event.data));
  workers.addEventListener("controllerchange", () => {
    if (acceptedUpdate) location.reload();
    else if (hadController) offerUpdate(null); // another tab took the update
  });
  workers.startMessages();

  let registration;
  try {
    registration = await workers.register(SERVICE_WORKER, {
      scope: SITE.pathname,
      updateViaCache: "none",
    });
  } catch (error) {
    console.warn("LVL Rules: this site cannot be kept for offline use here.", error);
    return;
  }
  watchForUpdates(registration);
  const { active } = await workers.ready;
  keepButton.onclick = () => {
    keepStopped = false;
    keepButton.disabled = true;
    active.postMessage({ type: "keep-all" });
  };
  // This page and the files it loaded (its first load did not go through the service
  // worker; they are in the HTTP cache: nothing is downloaded again) and, unless the
  // visitor saves data, the theme's other files. On the lookup and calculator only once
  // the engine has started: on a slow network the engine's download comes first.
  await engineSettled();
  const urls = [location.href, ...loadedHere()];
  active.postMessage({ type: "keep", urls, core: !savesData() });
  keepEngineOnceStarted(active);
  if (typeof document$ !== "undefined") {
    document$.subscribe(() => active.postMessage({ type: "status", url: location.href }));
  }
}

// The rules engine, on the pages that run it (the build writes the engine's manifest into
// them, before the engine client's script): the same module, imported, so the same engine.
const ENGINE_MANIFEST_ID = "lvl-engine-manifest"; // build_scripts/bundle/manifest.py
let pageEngine = null;

function engineOfPage() {
  if (!document.getElementById(ENGINE_MANIFEST_ID)) return Promise.resolve(null);
  pageEngine ??= import("../engine/engine-client.js").then(({ engine }) => engine, () => null);
  return pageEngine;
}

async function engineSettled() {
  const engine = await engineOfPage();
  if (!engine || engine.state === "asking") return;
  await engine.ready.catch(() => {});
}

// On the lookup and calculator: once the engine has started, keep the files it loaded
// (they are in the browser's HTTP cache by then: no byte is sent again). Nothing is
// fetched for a next visit.
async function keepEngineOnceStarted(active) {
  const engine = await engineOfPage();
  if (!engine) return;
  try {
    await engine.ready;
  } catch {
    return;
  }
  active.postMessage({ type: "keep", urls: engine.files(), for: "engine" });
}

// The files of this site this page has loaded (the service worker keeps those of its build),
// and its icon: the browser fetches that itself after load, sometimes after this list is
// made and before the service worker serves the page, and offline the tab would then ask
// for it in vain.
function loadedHere() {
  const icons = [...document.querySelectorAll("link[rel~='icon']")].map((link) => link.href);
  return [...performance.getEntriesByType("resource").map((entry) => entry.name), ...icons]
    .filter((url) => url.startsWith(SITE.href));
}

function savesData() {
  return Boolean(navigator.connection?.saveData);
}

function onMessage(message) {
  if (message?.type === "progress" && message.update) {
    updating.hidden = false;
    updating.textContent = words("updating", { cached: mb(message.cached), total: mb(message.total) });
  } else if (message?.type === "progress") {
    showKeeping(message.cached, message.total);
  } else if (message?.type === "status") {
    showStatus(message);
  }
}

function showKeeping(cached, total) {
  keepBar.hidden = false;
  keepBar.max = total;
  keepBar.value = cached;
  keepText.textContent = words("keeping", { cached: mb(cached), total: mb(total) });
}

function showStatus(status) {
  const said = status.everything ? words("everything") : status.page ? words("page") : "";
  keptVersion = status.version;
  readyBadge.querySelector("[data-lvl-offline-said]").textContent = said;
  readyBadge.querySelector("[data-lvl-offline-build]").textContent = words("build", { version: status.version });
  readyBadge.hidden = !said;
  root.dataset.lvlOffline = status.everything ? "everything" : status.page ? "page" : "";
  // The engine this page runs is kept.
  if (status.for === "engine") root.dataset.lvlOfflineEngine = status.kept ? "kept" : "";
  keepBox.hidden = status.everything;
  // Keeping everything ended short of it (the service worker says so to every page): say
  // how much is kept, and offer the control again, for the rest.
  if (status.keepAll) keepButton.disabled = false;
  if (status.keepAll === "stopped" && !status.everything) {
    keepStopped = true;
    keepText.textContent = words("failed", { cached: mb(status.cached), total: mb(status.total) });
  }
  keepButton.textContent = words(keepStopped ? "retry" : "keep", {
    total: mb(status.total - status.cached),
  });
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) {
    offerUpdate(registration.waiting);
  }
  // A worker installed while another one serves this page is a newer build. (The one
  // serving it may take over before the page hears "installed": the first visit's own
  // worker is never offered as an update of itself.)
  const follow = (worker) =>
    worker?.addEventListener("statechange", () => {
      const serving = navigator.serviceWorker.controller;
      if (worker.state === "installed" && serving && serving !== worker) offerUpdate(worker);
      if (worker.state !== "installing") updating.hidden = true;
      // Its install failed (a download of what was kept was cut): the kept build answers on.
      if (worker.state === "redundant" && root.dataset.lvlUpdate !== "available" && keptVersion) {
        updating.hidden = false;
        updating.textContent = words("interrupted", { version: keptVersion });
        root.dataset.lvlUpdate = "interrupted";
      }
    });
  follow(registration.installing); // the browser may have started before this page asked
  registration.addEventListener("updatefound", () => follow(registration.installing));
  let checked = Date.now();
  const check = () => {
    if (Date.now() - checked < UPDATE_CHECK_MS || !navigator.onLine) return;
    checked = Date.now();
    registration.update().catch(() => {}); // offline, or the server is away: next time
  };
  if (typeof document$ !== "undefined") document$.subscribe(check);
  document.addEventListener("visibilitychange", () => document.hidden || check());
}

// A newer build is installed (waiting = its worker) or already active (waiting = null).
function offerUpdate(waiting) {
  updating.hidden = true;
  updatePrompt.hidden = false;
  root.dataset.lvlUpdate = "available";
  updatePrompt.querySelector("[data-lvl-offline-reload]").onclick = () => {
    acceptedUpdate = true;
    if (waiting && waiting.state === "installed") waiting.postMessage({ type: "skip-waiting" });
    else location.reload();
  };
}

if (root && "serviceWorker" in navigator) {
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
} else if (root) {
  root.querySelector("[data-lvl-offline-unavailable]").hidden = false; // not a secure context
  root.dataset.lvlOffline = "unavailable";
}
