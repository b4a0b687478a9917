// The LVL Rules engine worker: a *module* Web Worker (Pyodide 314 refuses classic ones)
// started by engine-client.js. It boots Pyodide from this site only, with the lvl_rules
// wheel installed, and answers JSON requests with lvl_rules.faces.api.handle. It is Pyodide's
// documented worker: one loadPyodide() on public options, and an onmessage handler; the
// one private option, _loadSnapshot, stays only while the network benchmark shows it
// pays (see snapshotIfItPays below).
//
// Files come from <site>/engine/ (build_scripts/bundle/engine.py); the manifest names
// each by its content (a pinned Pyodide version or a hash), with its sha256 and its size
// in each encoding the server may send (br, gzip, identity):
//   pyodide/<version>/        the pinned runtime (pyodide.mjs, pyodide.asm.mjs, .wasm)
//   stdlib-<hash>.zip         the standard library the engine uses (stdLibURL)
//   wheels/<hash>/<wheel>     lvl_rules, installed by loadPackage from the manifest's
//                             lock file entry (checked against its sha256 by Pyodide)
//   snapshot-<hash>.bin       Pyodide's memory with lvl_rules imported and both editions
//                             loaded, packed (snapshot.js unpacks it): restoring it skips
//                             CPython's start-up and every import
//   stdlib-<hash>.zip         (snapshot.stdlib) the part of the standard library that the
//                             snapshot has not imported: the stdLibURL when restoring it
//
// Protocol. Page -> worker, first: {type: "start", engineURL, manifest?, saveData?}
//   (saveData: the reader saves data; the snapshot, which only saves time, is left out)
// Worker -> page:
//   {type: "progress", stage, loaded?, total?}   stage: "downloading" | "starting" |
//                                                "ready"; bytes as sent over the network
//   {type: "ready", versions, timings}           timings: ms since the worker started
//   {type: "error", reason?, numbers?, message,  start-up failed for good; reason: why,
//    stage, missing?}                            as named in lvl_rules/words/engine.py
//                                                (the page words it; message: the detail
//                                                otherwise); missing: a file of this
//                                                build is no longer served
//   {type: "answer", id, response | error}       response: the JSON text
//   {type: "csp", directive, blocked}            the CSP blocked something
// Page -> worker, then: {type: "request", id, request}   request: JSON text

const MANIFEST_FORMAT = 3; // build_scripts/bundle/engine.py
const STAGES = ["downloading", "starting", "ready"];
const PROGRESS_INTERVAL_MS = 100;
const timings = {};
let stage = STAGES[0];

const started = new Promise((resolve) => {
  self.addEventListener("message", function onStart(event) {
    if (event.data?.type !== "start") return;
    self.removeEventListener("message", onStart);
    resolve(event.data);
  });
});

function post(message) {
  self.postMessage(message);
}

function mark(name) {
  timings[name] ??= Math.round(performance.now());
}

function progress(name, bytes = {}) {
  stage = name;
  mark(name);
  post({ type: "progress", stage: name, ...bytes });
}

// A failure the page words itself: `reason` names its words in lvl_rules/words/engine.py,
// `numbers` what goes into them.
class StartError extends Error {
  constructor(reason, numbers = {}) {
    super(`${reason}: ${JSON.stringify(numbers)}`);
    this.reason = reason;
    this.numbers = numbers;
  }
}

// A file of this build that the server no longer has (a newer build replaced it): the
// page then reloads into the new build (engine-client.js).
class MissingFile extends StartError {
  constructor(path, status) {
    super("missing-file", { path, status });
  }
}

// WebAssembly begins with these 8 bytes ("\0asm", version 1). Pyodide only logs a warning
// when its WebAssembly does not compile, and then waits for ever: a file that does not
// begin so (an error page, say) fails the start at once.
const WASM_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

// --- Downloads, with the progress a person sees. Every engine file is fetched here as
// soon as the manifest is known, and its bytes counted as they arrive; Pyodide's own
// requests for the same URLs are answered by the browser's HTTP cache, which joins a
// request to the same download while it is still under way (every file is immutable:
// its name changes with its content). So the runtime, the standard library and the wheel
// download while Pyodide's JavaScript is still being imported, no byte is sent twice
// (counted by the network benchmark), and no fetch of Pyodide's is replaced.

class Downloads {
  // `files`: the downloads expected, for the total a person sees before each has begun.
  constructor(files) {
    this.loaded = new Map(); // url -> bytes received, scaled to the encoding sent
    this.sizes = new Map();
    for (const file of files) this.expect(file);
    this.responses = []; // each download's response, once its status is known to be ok
    this.bodies = []; // each download, until its body has arrived
    this.error = null; // the first download that failed
    this.failed = null;
    this.failure = new Promise((_, reject) => (this.failed = reject)); // the first to fail
    this.failure.catch(() => {}); // awaited through unless()
    this.reported = 0;
    this.began = performance.now();
    this.firstByte = null; // when the first bytes of any download arrived
    this.waiting = []; // [bytes, resolve] of each whenReceived() not yet resolved
  }

  // Resolves once `bytes` have arrived, all downloads counted.
  whenReceived(bytes) {
    return new Promise((resolve) => {
      this.waiting.push([bytes, resolve]);
      this.report(true);
    });
  }

  expect({ url, entry }) {
    if (!this.sizes.has(url.href)) this.sizes.set(url.href, size(entry, "br"));
  }

  // A file expected that is not downloaded after all.
  forget({ url }) {
    this.sizes.delete(url.href);
  }

  // Resolves once every download so far has an answer from the server that is ok (its
  // body may still be on its way); rejects with the first that is not.
  responded() {
    return Promise.all(this.responses);
  }

  // Resolves once every download so far has arrived whole.
  arrived() {
    return Promise.all(this.bodies);
  }

  received() {
    let loaded = 0;
    for (const bytes of this.loaded.values()) loaded += bytes;
    return loaded;
  }

  // The network's rate in bytes per ms since its first bytes arrived, and the wait for a
  // server's first answer: a download of `bytes` more would take wait + bytes / rate.
  // (Counted from the first request instead, the estimate for the snapshot came out 15-30%
  // longer on localhost, and one run of five went without it there.)
  speed() {
    const now = performance.now();
    const firstByte = this.firstByte ?? now;
    return { rate: this.received() / Math.max(1, now - firstByte), wait: firstByte - this.began };
  }

  // Bytes of every file being (or to be) downloaded, in the encoding the server sends.
  get total() {
    let total = 0;
    for (const bytes of this.sizes.values()) total += bytes;
    return total;
  }

  // Starts a download; resolves once the body has arrived (its bytes counted as they
  // come) with the bytes if `keep` (true, or a promise of whether they are wanted: they
  // are held until it says), else with null. A status that is not ok rejects it,
  // responded() and `failure`; so does a body that breaks off.
  fetch({ url, entry }, { keep = false, priority = "auto" } = {}) {
    this.expect({ url, entry });
    const response = fetch(url, { priority }).then((response) => {
      if (response.status === 404 || response.status === 410) {
        throw new MissingFile(url.pathname, response.status);
      }
      if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      return response;
    });
    response.catch(() => {}); // awaited by responded() and below
    this.responses.push(response);
    const body = response.then((ok) => this._read(ok, url, entry, keep));
    body.catch((error) => {
      this.error ??= error;
      this.failed(error);
    });
    this.bodies.push(body.then(() => null)); // not the bytes: they go with their reader
    return body;
  }

  async _read(response, url, entry, keep) {
    const encoding = response.headers.get("Content-Encoding") || "identity";
    this.sizes.set(url.href, size(entry, encoding));
    // The body arrives decoded: count its share of the bytes the network carried.
    const scale = size(entry, encoding) / entry.sizes.identity;
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received === 0 && url.pathname.endsWith(".wasm") && value.length >= 8) {
        if (WASM_HEADER.some((byte, i) => value[i] !== byte)) {
          throw new StartError("not-webassembly", { path: url.pathname });
        }
      }
      this.firstByte ??= performance.now();
      received += value.length;
      if (keep) chunks.push(value);
      this.loaded.set(url.href, Math.round(received * scale));
      this.report();
    }
    this.loaded.set(url.href, size(entry, encoding));
    this.report(true);
    return (await keep) ? concat(chunks, received) : null;
  }

  report(force = false) {
    if (this.waiting.length) {
      const received = this.received();
      for (const [bytes, resolve] of this.waiting) if (received >= bytes) resolve();
      this.waiting = this.waiting.filter(([bytes]) => received < bytes);
    }
    const now = performance.now();
    if (!force && now - this.reported < PROGRESS_INTERVAL_MS) return;
    this.reported = now;
    if (stage === STAGES[0]) progress(STAGES[0], { loaded: this.received(), total: this.total });
  }
}

function size(entry, encoding) {
  return entry.sizes[encoding] ?? entry.sizes.identity;
}

function concat(chunks, length) {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function checkSha256(bytes, expected, url) {
  if (!globalThis.crypto?.subtle) return; // not a secure context: the name is the check
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== expected) {
    throw new Error(`${url.pathname}: sha256 ${actual} differs from ${expected} in the manifest`);
  }
}

// --- The snapshot, only where it pays. Restoring it saves starting Python and importing
// lvl_rules: about 1 s on this 2-core machine since the standard library is compiled
// (from the WebAssembly instantiated to the engine ready: 1.1-1.4 s without it, 0.2 s
// with it, on localhost). But it costs bytes: with its part of the standard library, in
// place of the whole library, 1.7 MB more as brotli (2.5 MB in all): 1.5 s more on 4G,
// 8 s on slow 4G. It is used when this browser keeps it already, or when the network
// brings those bytes in less than BOOT_WITHOUT_SNAPSHOT_MS (the lower figure: it spares
// the bytes a phone on a metered plan pays for). The rate is measured on the first
// MEASURE_BYTES of the downloads (or for MEASURE_MS), not taken from
// navigator.connection, whose guess on localhost here was 1.55 Mbit/s. Pyodide is
// started only once this is known, so it is known early: on 4G by the time Pyodide's
// JavaScript has arrived, which it waits for anyway. (Waiting for the WebAssembly or
// 1.5 s instead cost the calculator 0.8 s on 4G.) The standard library is asked for once
// this is known, since it says which one: on a phone's network the WebAssembly, asked for
// first, has the bandwidth meanwhile.
// A visit that did without it keeps it for the next in the background once the engine
// has answered (docs/assets/app/offline.js; not when saving data); an engine kept offline
// without it (the snapshot's download not over, or Save-Data) does without it, whatever
// the network (the cache's speed says nothing about the network's). Resolves with whether
// to use it, within MEASURE_MS.
const BOOT_WITHOUT_SNAPSHOT_MS = 1000;
const MEASURE_BYTES = 1 << 20;
const MEASURE_MS = 700;

function snapshotPays({ snapshot, library, stdlib, wasm }, downloads) {
  const pays = (async () => {
    const kept = (url) => globalThis.caches?.match(url.href).catch(() => null) ?? null;
    if (await kept(snapshot.url)) return true;
    // The engine is kept without its snapshot (it was not worth downloading then): the
    // files now come from the cache, whose speed says nothing about the network's.
    if (await kept(wasm.url)) return false;
    await Promise.race([downloads.whenReceived(MEASURE_BYTES), sleep(MEASURE_MS)]);
    const { rate, wait } = downloads.speed();
    const extra = [snapshot, library].reduce((sum, file) => sum + size(file.entry, "br"), 0);
    const eta = wait + (extra - size(stdlib.entry, "br")) / Math.max(rate, 1e-6);
    mark(`snapshot would take ${Math.round(eta)} ms`);
    return eta <= BOOT_WITHOUT_SNAPSHOT_MS;
  })();
  return pays.catch(() => false);
}

// The memory image to restore, once the snapshot and the WebAssembly (`wasmBytes`, the
// runtime's own download, kept for this) have arrived: {memory, RESTORED}.
async function snapshotImage(snapshot, downloads, wasmBytes) {
  const packed = downloads.fetch(snapshot, { keep: true, priority: "low" });
  const module = import("./snapshot.js");
  module.catch(() => {}); // awaited below
  await checkSha256(await packed, snapshot.entry.sha256, snapshot.url);
  const { unpackSnapshot, RESTORED } = await module;
  const memory = unpackSnapshot(await packed, snapshot.entry, await wasmBytes);
  mark("snapshot unpacked");
  return { memory, RESTORED };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// `promise`, unless `failure` rejects first (a download failed: stop at once).
function unless(failure, promise) {
  return Promise.race([failure, promise]);
}

// --- Booting Pyodide

// A CSP without 'wasm-unsafe-eval' makes Pyodide wait forever (it only logs a warning);
// fail at once with a message that says why. (A probe: compiles 8 bytes, patches nothing.)
function checkWebAssembly() {
  if (typeof WebAssembly !== "object") throw new StartError("no-webassembly");
  try {
    new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  } catch (error) {
    throw new StartError("webassembly-blocked", { detail: error.message });
  }
}

// If the page had no manifest, fetch it here. A manifest of another format comes from a
// page of another build than this worker's: the page reloads into this one.
async function readManifest(start, engineURL) {
  let manifest = start.manifest;
  if (!manifest) {
    const response = await fetch(new URL("manifest.json", engineURL), { cache: "no-cache" });
    if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
    manifest = await response.json();
  }
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new MissingFile(`manifest.json of format ${manifest.format}`, 410);
  }
  return manifest;
}

async function boot() {
  checkWebAssembly();
  progress(STAGES[0]);
  const start = await started;
  const engineURL = new URL(start.engineURL);
  const manifest = await readManifest(start, engineURL);
  mark("manifest");
  const runtimeURL = new URL(manifest.pyodide.path, engineURL);
  const file = (entry) => ({ url: new URL(entry.path, engineURL), entry });
  const [mjs, asmMjs, wasm] = manifest.runtime.map(file);
  const stdlib = file(manifest.stdlib);
  const wheel = file(manifest.wheel);
  const snapshot = manifest.snapshot ? file(manifest.snapshot) : null;
  const downloads = new Downloads([mjs, asmMjs, wasm, stdlib, wheel]);

  const pays =
    snapshot && !start.saveData
      ? snapshotPays({ snapshot, library: file(snapshot.entry.stdlib), stdlib, wasm }, downloads)
      : null;
  // The runtime and the wheel at once. The WebAssembly is what Python waits for on a
  // first visit, so it is asked for first and with high priority; its bytes are kept
  // where the snapshot is used (snapshot.js unpacks it with them).
  const wasmBytes = downloads.fetch(wasm, { priority: "high", keep: pays ?? false });
  downloads.fetch(asmMjs);
  downloads.fetch(mjs);
  downloads.fetch(wheel, { priority: "low" });
  // A download that fails (a file a newer build removed, say) ends the start-up at once,
  // whatever step it is at, and the page hears of it (a missing file: it reloads into the
  // new build) without waiting for Pyodide to stumble on the same file. Every promise
  // here is handled as it is made: no rejection is left uncaught while another awaits.
  const failure = downloads.failure;
  const runtime = import(mjs.url.href);
  runtime.catch(() => {});
  const useSnapshot = pays ? await unless(failure, pays) : false;
  const image = useSnapshot ? snapshotImage(snapshot, downloads, wasmBytes) : null;
  image?.catch(() => {});
  // The standard library: with the snapshot, only the part it has not imported.
  const library = useSnapshot ? file(snapshot.entry.stdlib) : stdlib;
  if (useSnapshot) downloads.forget(stdlib);
  downloads.fetch(library, { priority: "low" });
  Promise.all([downloads.arrived(), image]).then(
    () => progress(STAGES[1]),
    () => {},
  );

  const options = {
    indexURL: runtimeURL.href,
    lockFileContents: manifest.pyodide.lockfile,
    packageBaseUrl: engineURL.href,
  };
  const { loadPyodide } = await unless(failure, runtime);
  mark("runtime imported");
  // Pyodide fetches the same files (from the HTTP cache, or joining our downloads): only
  // once the server has answered for every one of them, so that it never meets a file
  // that is not there.
  await downloads.responded();
  let pyodide;
  let snapshotUse = "none";
  if (useSnapshot) {
    try {
      const memory = image.then((restored) => restored.memory);
      pyodide = await unless(
        failure,
        loadPyodide({ ...options, stdLibURL: library.url.href, _loadSnapshot: memory }),
      );
      pyodide.runPython((await image).RESTORED);
      snapshotUse = "used";
    } catch (error) {
      if (downloads.error) throw downloads.error; // the snapshot is missing, say
      // A snapshot that fails its checksum or does not restore: start Python the slow way.
      console.warn("LVL Rules engine: the snapshot failed, starting Python from scratch.", error);
      snapshotUse = `failed: ${error?.message ?? error}`;
      downloads.fetch(stdlib, { priority: "high" });
      await unless(failure, downloads.responded());
    }
  }
  if (snapshot && !useSnapshot)
    snapshotUse = start.saveData ? "skipped: save-data" : "skipped: slow network";
  pyodide ??= await unless(failure, loadPyodide({ ...options, stdLibURL: stdlib.url.href }));
  mark("python started");
  await pyodide.loadPackage("lvl-rules", { checkIntegrity: true, messageCallback: () => {} });
  mark("wheel installed");
  pyodide.runPython(
    snapshotUse === "used"
      ? "import random; random.seed()" // the snapshot's random state is every visitor's: reseed
      : "import lvl_rules; lvl_rules.load_all()",
  );
  const handle = pyodide.pyimport("lvl_rules.faces.api").handle;
  const versions = JSON.parse(
    pyodide.runPython(
      "import json, sys, lvl_rules; json.dumps({'python': sys.version.split()[0], 'lvl_rules': lvl_rules.__version__})",
    ),
  );
  versions.pyodide = pyodide.version;
  versions.snapshot = snapshotUse;
  progress(STAGES[2]);
  post({ type: "ready", versions, timings });
  return handle;
}

// Report what the Content-Security-Policy blocks here; the page's console shows it.
self.addEventListener("securitypolicyviolation", (event) => {
  post({ type: "csp", directive: event.effectiveDirective, blocked: event.blockedURI });
});

const engine = boot();
engine.catch((error) => {
  post({
    type: "error",
    reason: error?.reason,
    numbers: error?.numbers,
    message: String(error?.message ?? error),
    stage,
    missing: error instanceof MissingFile,
  });
});

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message?.type !== "request") return;
  try {
    const handle = await engine;
    post({ type: "answer", id: message.id, response: handle(message.request) });
  } catch (error) {
    post({ type: "answer", id: message.id, error: String(error?.message ?? error) });
  }
});
