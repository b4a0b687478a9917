/**
 * LVL Rules engine client: the page side of the in-browser rules engine, the same
 * lvl_rules package as the CLI, run by Pyodide in one module Web Worker
 * (engine-worker.js). Importing this module starts the worker; it is a singleton, so it
 * survives Material's instant navigation and later pages get answers at once.
 *
 *   import { engine, EngineError } from "<site>/assets/code-<hash>/engine/engine-client.js";
 *   const stop = engine.onProgress((p) => {
 *     // p = {state, stage, loaded, total, elapsed}; state: "starting" | "ready" |
 *     // "failed"; stage: "downloading" | "starting" | "ready"; loaded/total: bytes of all
 *     // the engine's files as the network carried them (null before the first report);
 *     // elapsed: ms since the engine was started; p.error: the Error once failed
 *   });                                   // called at once with the latest state; stop()
 *   await engine.ready;                   // {versions, timings}; rejects with EngineError
 *   const result = await engine.request({ action: "editions" }, { timeout });
 *                                         // the "result" of lvl_rules.faces.api.handle
 *
 * request() rejects with an EngineError whose `kind` says why: "rules" (lvl_rules refused
 * the request: `field` names the field at fault, the message explains), "startup" (the
 * engine could not start: every request rejects until engine.restart()), "timeout" (no
 * progress while starting, or no answer, within `timeout` ms, default engine.timeout; a
 * stuck worker is ended and the next request starts a new one), "internal" (a bug).
 *
 * Also: engine.state ("idle" | "asking" | "starting" | "ready" | "failed"), engine.status
 * (the latest progress), engine.start() (idempotent; importing called it), restart(),
 * files() (the URLs the running engine loaded), rules (this build's rules, by the wheel's
 * content address). "asking": on a slow or data-saving connection the engine waits for
 * start({asked: true}) (the page's button); status.total is then its download size. A
 * page whose engine files (or worker script) the server no longer has reloads into the
 * new build, once.
 */

import { reloadIntoNewBuild } from "../app/page-life.js";

const WORKER_URL = new URL("./engine-worker.js", import.meta.url);
// docs/assets/engine/ is published as <site>/assets/code-<hash>/engine/
// (build_scripts/publish/code_folder.py); the bundle is <site>/engine/.
const ENGINE_URL = new URL("../../../engine/", import.meta.url);
const SINGLETON = Symbol.for("lvl-rules.engine");
const STARTING_TIMEOUT_MS = 120_000;
// Held while the engine starts: Material's search index is built once it is free
// (docs/assets/javascripts/workers/search-when-free.js), not on the same two cores.
const STARTING_LOCK = "lvl-rules-engine-starting";

export class EngineError extends Error {
  constructor(message, { kind, field = null }) {
    super(message);
    Object.assign(this, { name: "EngineError", kind, field: field ?? null });
  }
}

class Engine {
  timeout = 20000;
  state = "idle";
  status = { state: "idle", stage: null, loaded: null, total: null, elapsed: 0 };
  _listeners = new Set();
  _pending = new Map();
  _nextId = 1;
  _worker = null;
  _ready = null;

  /** This build's rules, by the wheel's content address (null without the manifest). */
  get rules() {
    return manifestInPage()?.wheel?.path ?? null;
  }

  /** A promise for the running engine: {versions, timings}. Starts it if needed. */
  get ready() {
    this.start();
    return this._ready.promise;
  }

  /** Start the worker unless it is starting or running. On a costly connection, unless
   * the engine is kept in this browser, first ask: state "asking", status.total its
   * download, until start({asked: true}) (the page's button). */
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
      const detail = error.message;
      this._fail(new EngineError(words("could-not-start", { detail }), { kind: "startup" }));
      return;
    }
    this._worker.addEventListener("message", (event) => this._onMessage(event.data));
    // The manifest the build put into this page goes with the start message (the worker
    // fetches manifest.json where a page has none).
    this._worker.postMessage({ type: "start", engineURL: ENGINE_URL.href, manifest: manifestInPage() });
    const worker = this._worker;
    worker.addEventListener("error", async (event) => {
      event.preventDefault?.();
      // Not loaded, and the server no longer has it: this page is of an older build.
      if (!event.message && (await isGone(WORKER_URL)) && this._worker === worker) {
        if (reloadIntoNewBuild()) {
          this._reloading = true;
          clearTimeout(this._watchdog);
          return;
        }
      }
      const detail = event.message || words("worker-not-loaded");
      this._fail(new EngineError(words("could-not-start", { detail }), { kind: "startup" }));
    });
    this._armWatchdog();
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

  /** The URLs of the files the running engine loaded (to keep them offline), or []. */
  files() {
    const manifest = manifestInPage();
    if (this.state !== "ready" || !manifest) return [];
    const used = [manifest.wheel, manifest.stdlib, ...manifest.runtime];
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
        const error = words("no-answer", { seconds: timeout / 1000 });
        pending.reject(new EngineError(error, { kind: "timeout" }));
        this._stop(new EngineError(words("stopped"), { kind: "timeout" }));
        this._setStatus({ state: "idle", stage: null });
      }, timeout);
    }
    return answer;
  }

  _onMessage(message) {
    switch (message?.type) {
      case "progress": {
        const { stage, loaded = this.status.loaded, total = this.status.total } = message;
        this._setStatus({ stage, loaded, total });
        this._armWatchdog(); // after the stage is known: starting Python gets longer
        break;
      }
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
        {
          const detail = message.reason ? words(message.reason, message.numbers) : message.message;
          const error = words("could-not-start-at", { stage: message.stage, detail });
          this._fail(new EngineError(error, { kind: "startup" }));
        }
        break;
      case "answer":
        this._settle(message);
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
    if (answer.ok) pending.resolve(answer.result);
    else pending.reject(new EngineError(answer.error, { kind: "rules", field: answer.field }));
  }

  _armWatchdog() {
    clearTimeout(this._watchdog);
    if (this.state === "ready") return;
    // Starting Python (on a slow phone) reports nothing for longer.
    const limit = this.status.stage === "starting" ? STARTING_TIMEOUT_MS : this.timeout;
    this._watchdog = setTimeout(() => {
      const during = this.status.stage ? words("last-step", { stage: this.status.stage }) : "";
      const numbers = { seconds: limit / 1000, during };
      this._fail(new EngineError(words("no-progress", numbers), { kind: "timeout" }));
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
const manifestInPage = () => jsonInPage("lvl-engine-manifest");

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

// The engine's download in bytes, as brotli (what this site's server sends).
function downloadSize() {
  const manifest = manifestInPage();
  const files = manifest ? [...manifest.runtime, manifest.stdlib, manifest.wheel] : [];
  return manifest && files.reduce((sum, file) => sum + file.sizes.br, 0);
}

// A page whose engine files the server no longer has belongs to an older build: it loads
// again into the new build, once (docs/assets/app/page-life.js holds that policy for
// every script).
// Whether the server no longer has the file at `url` (a deploy removed it).
function isGone(url) {
  return fetch(url, { method: "HEAD", cache: "no-store" }).then(
    (response) => response.status === 404 || response.status === 410,
    () => false,
  );
}

function deferred() {
  const done = { settled: false };
  done.promise = new Promise((resolve, reject) => {
    done.resolve = (value) => done.settled || ((done.settled = true), resolve(value));
    done.reject = (error) => done.settled || ((done.settled = true), reject(error));
  });
  done.promise.catch(() => {}); // a page that never awaits `ready` logs no rejection
  return done;
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
