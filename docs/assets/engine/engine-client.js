/**
 * LVL Rules engine client: the page side of the in-browser rules engine.
 *
 * The same lvl_rules package as the CLI, run by Pyodide in ONE module Web Worker
 * (engine-worker.js). Importing this module starts the worker at once; the worker is a
 * module-level singleton, so it survives Material's instant navigation (which swaps the
 * page content without reloading JavaScript modules) and later pages get answers at once.
 *
 *   import { engine, EngineError } from "<site>/assets/engine/engine-client.js";
 *
 *   const stop = engine.onProgress((p) => {
 *     // p = {state, stage, loaded, total, elapsed}
 *     //   state: "starting" | "ready" | "failed"
 *     //   stage: "downloading" | "starting" | "ready"
 *     //   loaded/total: bytes downloaded of all the engine's files, as the network
 *     //   carried them (null before the first report)
 *     //   elapsed: ms since the engine was started; p.error: the Error once failed
 *   });                                   // called at once with the latest state; stop()
 *   await engine.ready;                   // {versions, timings}; rejects with EngineError
 *   const result = await engine.request({
 *     action: "eligibility", edition: "2", age: 30, belt: "purple", uniform: "nogi",
 *   });                                   // the "result" of lvl_rules.faces.api.handle
 *
 * request(obj, {timeout}) resolves with the answer's `result`. It rejects with an
 * EngineError whose `kind` says why:
 *   "rules"    lvl_rules refused the request (ok: false); `field` names the request field
 *              at fault (e.g. "age"), `message` is the rule engine's explanation
 *   "startup"  the engine could not start (no WebAssembly, blocked by CSP, missing file,
 *              checksum mismatch); every request rejects until engine.restart()
 *   "timeout"  no progress while starting, or no answer, within `timeout` ms (default
 *              engine.timeout = 20000); a stuck worker is ended and the next request
 *              starts a new one
 *   "internal" the engine failed while answering (a bug; the message says where)
 *
 * Also: engine.state ("idle" | "asking" | "starting" | "ready" | "failed"), engine.status
 * (latest progress object), engine.start() (idempotent; importing already called it),
 * engine.restart() (end the worker and start a new one), engine.files() (the URLs the
 * running engine loaded), engine.answered (resolves once it answered a first request). "asking": on a slow or data-saving connection the engine waits
 * for start({asked: true}) (the page's button); status.total is then its download size.
 * A page whose engine files the server no longer has (a newer build replaced them)
 * reloads into the new build once; its state is in its address.
 */

const WORKER_URL = new URL("./engine-worker.js", import.meta.url);
// docs/assets/engine/ is published as <site>/assets/engine/; the bundle is <site>/engine/.
const ENGINE_URL = new URL("../../engine/", import.meta.url);
const SINGLETON = Symbol.for("lvl-rules.engine");
const STARTING_TIMEOUT_MS = 120_000;
// Held while the engine starts: Material's search worker builds its index only once it
// is free (docs/assets/javascripts/workers/search-when-free.js), so that the two do not
// share a phone's two cores.
const STARTING_LOCK = "lvl-rules-engine-starting";

export class EngineError extends Error {
  constructor(message, { kind, field = null, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = "EngineError";
    this.kind = kind;
    this.field = field;
  }
}

class Engine {
  constructor() {
    this.timeout = 20000;
    this.state = "idle";
    this.status = {
      state: "idle",
      stage: null,
      loaded: null,
      total: null,
      elapsed: 0,
    };
    this._listeners = new Set();
    this._pending = new Map();
    this._nextId = 1;
    this._worker = null;
    this._ready = null;
    this._answered = deferred();
  }

  /** This build's rules, named by the wheel's content hash (null on a page without the
   * manifest): the same rules give the same answer to the same request. */
  get rules() {
    return manifestInPage()?.wheel?.path ?? null;
  }

  /** Resolves once the engine has answered a first request (on any page). */
  get answered() {
    return this._answered.promise;
  }

  /** A promise for the running engine: {versions, timings}. Starts it if needed. */
  get ready() {
    this.start();
    return this._ready.promise;
  }

  /**
   * Start the worker unless it is starting or running. On a slow or data-saving
   * connection, unless the engine is already kept in this browser, it first asks: state
   * "asking" with the download's `total` bytes, until start({asked: true}) (the page's
   * button).
   */
  start({ asked = false } = {}) {
    if (this._worker || this.state === "failed" || this._deciding) return;
    if (!this._ready || this._ready.settled) this._ready = deferred();
    if (!asked && this.state !== "asking" && connectionIsCostly()) {
      this._deciding = true;
      engineIsKept().then((kept) => {
        this._deciding = false;
        if (kept) this.start({ asked: true });
        else this._setStatus({ state: "asking", stage: null, loaded: 0, total: downloadSize() });
      });
      return;
    }
    if (this.state === "asking" && !asked) return;
    this._startedAt = performance.now();
    this._setStatus({ state: "starting", stage: null, loaded: null, total: null });
    try {
      this._worker = new Worker(WORKER_URL, { type: "module", name: "lvl-rules-engine" });
    } catch (error) {
      this._fail(
        new EngineError(words("could-not-start", { detail: error.message }), {
          kind: "startup",
          cause: error,
        }),
      );
      return;
    }
    this._worker.addEventListener("message", (event) => this._onMessage(event.data));
    this._sendStart(this._worker);
    this._worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      const detail = event.message || words("worker-not-loaded");
      this._fail(new EngineError(words("could-not-start", { detail }), { kind: "startup" }));
    });
    this._armWatchdog();
  }

  // The manifest goes with the start message: the page's own copy (the build puts it in
  // the pages that start the engine), else fetched here while the worker script loads.
  // The worker fetches it itself only if both failed.
  _sendStart(worker) {
    const start = {
      type: "start",
      engineURL: ENGINE_URL.href,
      saveData: Boolean(globalThis.navigator?.connection?.saveData),
    };
    const inPage = manifestInPage();
    if (inPage) {
      worker.postMessage({ ...start, manifest: inPage });
      return;
    }
    fetch(new URL("manifest.json", ENGINE_URL), { cache: "no-cache" })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
      .then((manifest) => worker.postMessage({ ...start, manifest }));
  }

  // Resolves once a worker runs (after the reader agreed to the download, if asked).
  _started() {
    return new Promise((resolve) => {
      const stop = this.onProgress(() => {
        if (this._worker || this.state === "failed") {
          queueMicrotask(() => stop());
          resolve();
        }
      });
    });
  }

  /** End the worker (if any) and start a fresh one. */
  restart() {
    this._stop(new EngineError(words("restarted"), { kind: "startup" }));
    this._error = null;
    this._setStatus({ state: "idle", stage: null, error: null });
    this.start();
    return this.ready;
  }

  /**
   * The URLs of the files the running engine loaded (to keep them offline), or []. With
   * `forNextTime`, also what a later visit may need: the memory snapshot (and its part of
   * the standard library), if it did without it, unless the connection is costly, so that
   * a repeat visit restores Python from it instead of starting it; and the whole standard
   * library, if it restored the snapshot, on which Python starts should the snapshot ever
   * not restore, offline too.
   */
  files({ forNextTime = false } = {}) {
    const manifest = manifestInPage();
    if (this.state !== "ready" || !manifest) return [];
    const used = [manifest.wheel, ...manifest.runtime];
    const withSnapshot = manifest.snapshot ? [manifest.snapshot, manifest.snapshot.stdlib] : [];
    if (this.status.versions?.snapshot === "used") {
      used.push(...withSnapshot);
      if (forNextTime) used.push(manifest.stdlib);
    } else {
      used.push(manifest.stdlib);
      if (forNextTime && !connectionIsCostly()) used.push(...withSnapshot);
    }
    return [new URL("manifest.json", ENGINE_URL).href, ...used.map((f) => new URL(f.path, ENGINE_URL).href)];
  }

  /** Subscribe to progress; `fn` is called at once with the latest status. */
  onProgress(fn) {
    this._listeners.add(fn);
    callSafely(fn, this.status);
    return () => this._listeners.delete(fn);
  }

  /** Answer one request object with lvl_rules.faces.api.handle; see the module comment. */
  async request(request, { timeout = this.timeout } = {}) {
    if (this.state === "failed") throw this._error;
    this.start();
    if (!this._worker && this.state !== "failed") await this._started();
    const worker = this._worker;
    if (!worker) throw this._error;
    // Sent at once: the worker answers as soon as it is ready, with no round trip through
    // this (often busy) thread in between. The timeout counts from the engine's start.
    const id = this._nextId++;
    const pending = { timer: null };
    const answer = new Promise((resolve, reject) => Object.assign(pending, { resolve, reject }));
    answer.catch(() => {}); // returned below; a start-up failure is thrown by `ready`
    this._pending.set(id, pending);
    worker.postMessage({ type: "request", id, request: JSON.stringify(request) });
    await this._ready.promise;
    if (this._pending.has(id)) {
      pending.timer = setTimeout(() => {
        this._pending.delete(id);
        pending.reject(
          new EngineError(words("no-answer", { seconds: timeout / 1000 }), { kind: "timeout" }),
        );
        this._stop(new EngineError(words("stopped"), { kind: "timeout" }));
        this._setStatus({ state: "idle", stage: null });
      }, timeout);
    }
    return answer;
  }

  _onMessage(message) {
    switch (message?.type) {
      case "progress":
        this._setStatus({
          stage: message.stage,
          loaded: message.loaded ?? this.status.loaded,
          total: message.total ?? this.status.total,
        });
        this._armWatchdog(); // after the stage is known: starting Python gets longer
        break;
      case "ready":
        clearTimeout(this._watchdog);
        this.state = "ready";
        this._setStatus({ state: "ready", timings: message.timings, versions: message.versions });
        this._ready.resolve({ versions: message.versions, timings: message.timings });
        break;
      case "error":
        if (message.missing && reloadIntoNewBuild()) {
          // Requests wait for the new build's page; this build's worker has nothing more
          // to say (it stays as the page's worker, so that none is started again).
          this._reloading = true;
          clearTimeout(this._watchdog);
          this._worker.terminate();
          return;
        }
        this._fail(
          new EngineError(
            words("could-not-start-at", {
              stage: message.stage,
              detail: message.reason ? words(message.reason, message.numbers) : message.message,
            }),
            { kind: "startup" },
          ),
        );
        break;
      case "answer":
        this._settle(message);
        break;
      case "csp":
        console.warn(
          `LVL Rules engine: the Content-Security-Policy (${message.directive}) blocked ${message.blocked}`,
        );
        break;
    }
  }

  _settle({ id, response, error }) {
    const pending = this._pending.get(id);
    if (!pending || (this._reloading && error !== undefined)) return;
    this._pending.delete(id);
    clearTimeout(pending.timer);
    if (error !== undefined) {
      pending.reject(new EngineError(words("failed", { detail: error }), { kind: "internal" }));
      return;
    }
    const answer = JSON.parse(response);
    this._answered.resolve();
    if (answer.ok) pending.resolve(answer.result);
    else
      pending.reject(new EngineError(answer.error, { kind: "rules", field: answer.field ?? null }));
  }

  _armWatchdog() {
    clearTimeout(this._watchdog);
    if (this.state === "ready") return;
    // Starting Python (with no snapshot, on a slow phone) reports nothing for longer.
    const limit = this.status.stage === "starting" ? STARTING_TIMEOUT_MS : this.timeout;
    this._watchdog = setTimeout(() => {
      const during = this.status.stage ? words("last-step", { stage: this.status.stage }) : "";
      this._fail(
        new EngineError(words("no-progress", { seconds: limit / 1000, during }), {
          kind: "timeout",
        }),
      );
    }, limit);
  }

  _fail(error) {
    if (this.state === "failed") return;
    this._stop(error);
    this.state = "failed";
    this._error = error;
    this._setStatus({ state: "failed", error });
    console.error(error);
  }

  _stop(error) {
    clearTimeout(this._watchdog);
    this._worker?.terminate();
    this._worker = null;
    this._ready?.reject(error);
    for (const { reject, timer } of this._pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this._pending.clear();
  }

  _setStatus(changes) {
    this.status = {
      ...this.status,
      ...changes,
      elapsed: Math.round(performance.now() - (this._startedAt ?? 0)),
    };
    if (changes.state) {
      this.state = changes.state;
      this._holdStartingLock(changes.state === "starting");
    }
    for (const fn of this._listeners) callSafely(fn, this.status);
  }

  // Takes STARTING_LOCK while `starting`, lets it go otherwise (where there are locks).
  _holdStartingLock(starting) {
    if (starting && !this._letGo && globalThis.navigator?.locks) {
      const held = new Promise((resolve) => (this._letGo = resolve));
      navigator.locks.request(STARTING_LOCK, () => held).catch(() => {});
    } else if (!starting && this._letGo) {
      this._letGo();
      this._letGo = null;
    }
  }
}

// The manifest the build put into this page (build_scripts/bundle/engine.py), or null.
function manifestInPage() {
  return jsonInPage("lvl-engine-manifest");
}

function jsonInPage(id) {
  const element = globalThis.document?.getElementById(id);
  if (!element) return null;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return null;
  }
}

// A sentence of lvl_rules/words/engine.py (ERRORS), which the build put into the pages
// that start the engine, with its {numbers} filled in. A page without them (a benchmark
// page) gets the sentence's name and numbers.
let pageWords = null;

function words(name, numbers = {}) {
  pageWords ??= jsonInPage("lvl-engine-words");
  const pattern = pageWords?.[name];
  if (!pattern) return [name, ...Object.values(numbers)].join(": ");
  return pattern.replace(/\{(\w+)\}/g, (_, key) => numbers[key] ?? "");
}

// Whether downloading the engine costs the reader: the browser says they save data, or
// the connection is slower than 4G (Network Information API, where there is one).
function connectionIsCostly() {
  const connection = globalThis.navigator?.connection;
  return Boolean(connection?.saveData || ["slow-2g", "2g", "3g"].includes(connection?.effectiveType));
}

// Whether this build's engine is kept offline (the service worker's cache has its
// WebAssembly, the largest file it always needs).
async function engineIsKept() {
  const manifest = manifestInPage();
  const wasm = manifest?.runtime.find((file) => file.path.endsWith(".wasm"));
  if (!wasm || !globalThis.caches) return false;
  const url = new URL(wasm.path, ENGINE_URL).href;
  return Boolean(await caches.match(url).catch(() => null));
}

// The engine's download in bytes, as brotli (what this site's server sends), where the
// reader is asked: a slow or data-saving connection, on which the worker does without
// the snapshot.
function downloadSize() {
  const manifest = manifestInPage();
  if (!manifest) return null;
  const files = [...manifest.runtime, manifest.stdlib, manifest.wheel];
  return files.filter(Boolean).reduce((sum, file) => sum + (file.sizes.br ?? file.sizes.identity), 0);
}

// A page whose engine files the server no longer has belongs to an older build: load
// this address again, once, so that the page and its engine come from the newest build
// (the lookup and the calculator keep their state in the address). The service worker
// would serve this older page again from its cache: it is unregistered first, so the
// reload and everything the page loads come from the server; the new page registers the
// new build's service worker, which replaces the old cache as an accepted update does.
// (Handing over to a waiting new worker instead, by skip-waiting, waits for the old one
// to go idle, which on a loaded machine took over 30 s: the F2 test.) The page is marked
// as leaving first (data-lvl-leaving on <html>): offline.js registers the service worker
// at the page's load event, and a registration made after the unregistration revives it
// (Chromium), so that the reload came from the old cache again; seen on a loaded machine.
const RELOADED_KEY = "lvl-rules.reloaded-for-engine";

function reloadIntoNewBuild() {
  if (!globalThis.location || !globalThis.sessionStorage) return false;
  try {
    if (sessionStorage.getItem(RELOADED_KEY) === location.href) return false; // tried once
    sessionStorage.setItem(RELOADED_KEY, location.href);
  } catch {
    return false;
  }
  const root = globalThis.document?.documentElement;
  if (root) root.dataset.lvlLeaving = "new-build";
  const workers = globalThis.navigator?.serviceWorker;
  const unregistered = workers?.controller
    ? workers.getRegistration().then((registration) => registration?.unregister())
    : Promise.resolve();
  unregistered.catch(() => {}).then(() => location.reload());
  return true;
}

function deferred() {
  let resolve, reject;
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => {}); // a page that never awaits `ready` must not log an unhandled rejection
  let settled = false;
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve: (value) => settled || ((settled = true), resolve(value)),
    reject: (error) => settled || ((settled = true), reject(error)),
  };
}

function callSafely(fn, status) {
  try {
    fn(status);
  } catch (error) {
    console.error("LVL Rules engine: a progress listener failed", error);
  }
}

export const engine = (globalThis[SINGLETON] ??= new Engine());
engine.start();
