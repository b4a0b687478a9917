// On pages that answer with the rules engine: Material's search worker waits until the
// engine has started (or failed), so the two do not fight over the CPU while a reader
// waits for their first answer. Building the search index takes ~0.4 s of CPU; on a
// two-core phone that time came straight off the engine's start-up.
//
// Loaded in <head> before Material's bundle (overrides/main.html, engine pages only).
// Material creates its search worker with `new Worker(url)`, listens for "message"
// and calls postMessage(); for that one URL it gets a stand-in that queues messages
// and starts the real worker when the engine reports "lvl-rules-engine-settled" (sent
// by engine-client.js), when the reader turns to search, or after START_ANYWAY_MS.
// Every other worker is created as usual.
(() => {
  const NativeWorker = window.Worker;
  if (typeof NativeWorker !== "function" || typeof EventTarget !== "function") return;
  const SEARCH_WORKER = /\/assets\/javascripts\/workers\/search\.[^/]*\.js$/;
  const START_ANYWAY_MS = 8000;

  class SearchWorkerLater extends EventTarget {
    constructor(url, options) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this._queue = [];
      this._worker = null;
      const start = () => this._start(url, options);
      window.addEventListener("lvl-rules-engine-settled", start, { once: true });
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
    }

    _start(url, options) {
      if (this._worker) return;
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
