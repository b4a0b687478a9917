// LVL Rules offline: registers the service worker (<site>/sw.js, written by
// build_scripts/publish/service_worker.py) once the page has loaded, so that no page spends its own
// load on it; then asks it to keep the rules engine too, in the background. Shows
// "Available offline" once every file of this build is cached, and a prompt with a
// Reload button once a newer build has been installed. The markup is in
// overrides/main.html, outside what Material's instant navigation replaces.

const SITE = new URL("../../", import.meta.url);
const SERVICE_WORKER = new URL("sw.js", SITE);
const UPDATE_CHECK_MS = 10 * 60 * 1000; // instant navigation loads no page: check now and then

const root = document.querySelector("[data-lvl-offline]");
const readyBadge = root?.querySelector("[data-lvl-offline-ready]");
const updatePrompt = root?.querySelector("[data-lvl-offline-update]");

let acceptedUpdate = false;

async function start() {
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
  active.postMessage({ type: "status" });
  active.postMessage({ type: "cache-engine" });
}

async function onMessage(message) {
  if (message?.type === "ready" || (message?.type === "status" && message.ready)) {
    await warmUpEngine(message.version);
    readyBadge.title = readyBadge.dataset.title.replace("{version}", message.version); // words: overrides/main.html
    readyBadge.hidden = false;
    root.dataset.lvlOffline = "ready";
  }
}

// Once per build, after the engine is saved: run the engine worker's warm-up (see
// engine-worker.js), so that the browser keeps Pyodide's compiled JavaScript and the
// next visit's engine starts sooner. Never longer than WARM_UP_MS; failures only cost
// that gain.
const WARM_UP_MS = 20000;
const WARMED_KEY = "lvl-rules.engine-warmed";
let warming = null;

function warmUpEngine(version) {
  let warmed = null;
  try {
    warmed = localStorage.getItem(WARMED_KEY);
  } catch {
    return Promise.resolve(); // no storage: no way to do it only once
  }
  if (warmed === version) return Promise.resolve();
  warming ??= new Promise((resolve) => {
    let worker;
    const done = () => {
      worker?.terminate();
      resolve();
    };
    try {
      worker = new Worker(new URL("../engine/engine-worker.js", import.meta.url), {
        type: "module",
        name: "lvl-rules-engine-warm-up",
      });
    } catch {
      done();
      return;
    }
    worker.addEventListener("message", (event) => {
      if (event.data?.type === "error") done();
      if (event.data?.type !== "warmed") return;
      try {
        localStorage.setItem(WARMED_KEY, version);
      } catch {}
      done();
    });
    worker.addEventListener("error", done);
    worker.postMessage({
      type: "start",
      warmUp: true,
      engineURL: new URL("engine/", SITE).href,
    });
    setTimeout(done, WARM_UP_MS);
  });
  return warming;
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) {
    offerUpdate(registration.waiting);
  }
  const follow = (worker) =>
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
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
  updatePrompt.hidden = false;
  root.dataset.lvlUpdate = "available";
  updatePrompt.querySelector("[data-lvl-offline-reload]").onclick = () => {
    acceptedUpdate = true;
    if (waiting && waiting.state === "installed") waiting.postMessage({ type: "skip-waiting" });
    else location.reload();
  };
}

// On a page that runs the rules engine (lookup, calculator), let the engine start first:
// it needs the CPU more than the copy does, which then mostly reads the HTTP cache.
async function engineStarted() {
  const engine = globalThis[Symbol.for("lvl-rules.engine")];
  if (engine?.state !== "starting") return;
  const timeout = new Promise((resolve) => setTimeout(resolve, engine.timeout));
  await Promise.race([engine.ready.catch(() => {}), timeout]);
}

if (root && "serviceWorker" in navigator) {
  const begin = () => engineStarted().then(start);
  if (document.readyState === "complete") begin();
  else window.addEventListener("load", begin, { once: true });
}
