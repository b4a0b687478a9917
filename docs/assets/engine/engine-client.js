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
 *     // p = {state, stage, step, steps, loaded, total, elapsed}
 *     //   state: "starting" | "ready" | "failed"
 *     //   stage: "downloading runtime" | "starting Python" | "loading rules" | "ready"
 *     //   step/steps: 1..4 of 4; loaded/total: snapshot bytes while downloading, else null
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
 * Also: engine.state ("idle" | "starting" | "ready" | "failed"), engine.status (latest
 * progress object), engine.start() (idempotent; importing already called it),
 * engine.restart() (end the worker and start a new one).
 */

const WORKER_URL = new URL("./engine-worker.js", import.meta.url);
// docs/assets/engine/ is published as <site>/assets/engine/; the bundle is <site>/engine/.
const ENGINE_URL = new URL("../../engine/", import.meta.url);
const SINGLETON = Symbol.for("lvl-rules.engine");

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
      step: 0,
      steps: 4,
      loaded: null,
      total: null,
      elapsed: 0,
    };
    this._listeners = new Set();
    this._pending = new Map();
    this._nextId = 1;
    this._worker = null;
    this._ready = null;
  }

  /** A promise for the running engine: {versions, timings}. Starts it if needed. */
  get ready() {
    this.start();
    return this._ready.promise;
  }

  /** Start the worker unless it is starting or running. */
  start() {
    if (this._worker || this.state === "failed") return;
    this._startedAt = performance.now();
    this._ready = deferred();
    this._setStatus({ state: "starting", stage: null, step: 0, loaded: null, total: null });
    try {
      this._worker = new Worker(WORKER_URL, { type: "module", name: "lvl-rules-engine" });
    } catch (error) {
      this._fail(
        new EngineError(`The rules engine could not start: ${error.message}`, {
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
      const detail = event.message || "the worker script failed to load";
      this._fail(
        new EngineError(`The rules engine could not start: ${detail}`, { kind: "startup" }),
      );
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
      controlled: Boolean(globalThis.navigator?.serviceWorker?.controller),
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

  /** End the worker (if any) and start a fresh one. */
  restart() {
    this._stop(new EngineError("The rules engine was restarted", { kind: "startup" }));
    this._error = null;
    this._setStatus({ state: "idle", stage: null, step: 0, error: null });
    this.start();
    return this.ready;
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
          new EngineError(`The rules engine gave no answer within ${timeout / 1000} s`, {
            kind: "timeout",
          }),
        );
        this._stop(
          new EngineError("The rules engine was stopped after a timeout", { kind: "timeout" }),
        );
        this._setStatus({ state: "idle", stage: null, step: 0 });
      }, timeout);
    }
    return answer;
  }

  _onMessage(message) {
    switch (message?.type) {
      case "progress":
        this._armWatchdog();
        this._setStatus({
          stage: message.stage,
          step: message.step,
          steps: message.steps,
          loaded: message.loaded ?? null,
          total: message.total ?? null,
        });
        break;
      case "ready":
        clearTimeout(this._watchdog);
        this.state = "ready";
        this._setStatus({ state: "ready", timings: message.timings, versions: message.versions });
        this._ready.resolve({ versions: message.versions, timings: message.timings });
        break;
      case "error":
        this._fail(
          new EngineError(
            `The rules engine could not start (${message.stage}): ${message.message}`,
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
    if (!pending) return;
    this._pending.delete(id);
    clearTimeout(pending.timer);
    if (error !== undefined) {
      pending.reject(new EngineError(`The rules engine failed: ${error}`, { kind: "internal" }));
      return;
    }
    const answer = JSON.parse(response);
    if (answer.ok) pending.resolve(answer.result);
    else
      pending.reject(new EngineError(answer.error, { kind: "rules", field: answer.field ?? null }));
  }

  _armWatchdog() {
    clearTimeout(this._watchdog);
    if (this.state === "ready") return;
    this._watchdog = setTimeout(() => {
      const during = this.status.stage ? ` (last step: ${this.status.stage})` : "";
      this._fail(
        new EngineError(
          `The rules engine made no progress for ${this.timeout / 1000} s${during}. ` +
            "If the site's Content-Security-Policy lacks 'wasm-unsafe-eval', WebAssembly cannot run.",
          { kind: "timeout" },
        ),
      );
    }, this.timeout);
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
    if (changes.state) this.state = changes.state;
    for (const fn of this._listeners) callSafely(fn, this.status);
    // search-later.js holds Material's search worker back until this.
    if (changes.state === "ready" || changes.state === "failed") {
      globalThis.dispatchEvent?.(new Event("lvl-rules-engine-settled"));
    }
  }
}

// The manifest the build put into this page (build_scripts/bundle/engine.py), or null.
function manifestInPage() {
  const element = globalThis.document?.getElementById("lvl-engine-manifest");
  if (!element) return null;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return null;
  }
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
