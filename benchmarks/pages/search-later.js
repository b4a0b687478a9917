// Material's search worker starts when the page has nothing better to do: builds the
// search index (~0.4 s of CPU) once the page has loaded and the browser is idle, or, on
// pages that answer with the rules engine, once the engine has started (or failed), so
// that on a two-core phone neither the page's first render nor the engine's start-up
// shares the CPU with it. A reader who turns to search starts it at once.
//
// Loaded just before Material's bundle (overrides/main.html). Material creates its
// search worker with `new Worker(url)`, listens for "message" and calls postMessage();
// for that one URL it gets a stand-in that queues messages and starts the real worker
// on the first of: "lvl-rules-engine-settled" (sent by engine-client.js) on engine
// pages, else an idle moment after "load"; the reader focusing the search box or
// opening search; START_ANYWAY_MS. Every other worker is created as usual.
(() => {
  const NativeWorker = window.Worker;
  if (typeof NativeWorker !== "function" || typeof EventTarget !== "function") return;
  const SEARCH_WORKER = /\/assets\/javascripts\/workers\/search\.[^/]*\.js$/;
  const START_ANYWAY_MS = 8000;
  const IDLE_WAIT_MS = 2000;

  function afterLoadWhenIdle(start) {
    const whenIdle = () =>
      window.requestIdleCallback
        ? requestIdleCallback(start, { timeout: IDLE_WAIT_MS })
        : setTimeout(start, 0);
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
  }

  class SearchWorkerLater extends EventTarget {
    constructor(url, options) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this._queue = [];
      this._worker = null;
      this._ended = false; // terminate() before the start: never start
      const start = () => this._start(url, options);
      if (document.querySelector("script[src*='engine-client']")) {
        window.addEventListener("lvl-rules-engine-settled", start, { once: true });
      } else {
        afterLoadWhenIdle(start);
      }
      // The reader opens search (Material's toggle, the "/" or "s" shortcut): start now.
      document.addEventListener("focusin", (e) => e.target?.closest?.(".md-search") && start());
      document.addEventListener("change", (e) => e.target?.id === "__search" && start());
      setTimeout(start, START_ANYWAY_MS);
    }

    postMessage(message, transfer) {
      if (this._worker) this._worker.postMessage(message, transfer);
      else this._queue.push([message, transfer]);
    }

    terminate() {
      this._worker?.terminate();
      this._queue = [];
      this._ended = true;
    }

    _start(url, options) {
      if (this._worker || this._ended) return;
      const worker = new NativeWorker(url, options);
      this._worker = worker;
      for (const type of ["message", "messageerror", "error"]) {
        worker.addEventListener(type, (event) => {
          const copy =
            type === "error"
              ? new ErrorEvent(type, { message: event.message, error: event.error })
              : new MessageEvent(type, { data: event.data });
          this.dispatchEvent(copy);
          this[`on${type}`]?.call(this, copy);
        });
      }
      for (const [message, transfer] of this._queue.splice(0)) worker.postMessage(message, transfer);
    }
  }

  window.Worker = function Worker(url, options) {
    const href = String(url instanceof URL ? url.href : url);
    if (new.target && SEARCH_WORKER.test(new URL(href, location.href).pathname)) {
      window.Worker = NativeWorker; // only the first search worker of this page load
      return new SearchWorkerLater(href, options);
    }
    return new NativeWorker(url, options);
  };
  window.Worker.prototype = NativeWorker.prototype;
})();
