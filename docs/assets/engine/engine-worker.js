// The LVL Rules engine worker: a *module* Web Worker (Pyodide 314 refuses classic ones)
// started by engine-client.js. It boots Pyodide from this site only, installs the
// lvl_rules wheel and answers JSON requests with lvl_rules.faces.api.handle.
//
// Files come from <site>/engine/ (written by build_scripts/bundle/engine.py):
//   manifest.json             always revalidated; names every other file with its sha256
//                             (the pages that start the engine also carry it inline)
//   pyodide/<version>/...     the pinned runtime
//   <wheel>                   the lvl_rules wheel, checked against its sha256
//   snapshot-<hash>.bin.gz    Pyodide's memory with lvl_rules imported and both editions
//                             loaded, without its all-zero pages (manifest "segments" says
//                             where each kept run goes); restoring it skips CPython's
//                             start-up and every import
//
// Protocol. Page -> worker, first: {type: "start", engineURL, manifest?, warmUp?, controlled?}
//   (controlled: the page is served by our service worker, whose cache may hold the files)
//   (warmUp: only import Pyodide's JavaScript, answer {type: "warmed"}, and do nothing
//   more; see warmUp() below)
// Worker -> page:
//   {type: "progress", stage, step, steps, loaded?, total?}   stage: one of STAGES
//   {type: "ready", versions, timings}                      timings: ms since worker start
//   {type: "error", message, stage}                         start-up failed for good
//   {type: "answer", id, response}                          response: the JSON text
//   {type: "answer", id, error}                             the engine itself failed
//   {type: "csp", directive, blocked}                       the CSP blocked something
// Page -> worker, then:
//   {type: "request", id, request}                          request: JSON text

// The page's client sends {type: "start", engineURL, manifest} at once with the page's
// own copy of the manifest, or as soon as it has fetched manifest.json (in parallel with
// loading this script).
const started = new Promise((resolve) => {
  self.addEventListener("message", function onStart(event) {
    if (event.data?.type !== "start") return;
    self.removeEventListener("message", onStart);
    resolve(event.data);
  });
});
// Pyodide's own fetch() is patched below (fetchEarly); ours is not.
const nativeFetch = self.fetch.bind(self);
const STAGES = ["downloading runtime", "starting Python", "loading rules", "ready"];

const timings = {};
let stage = STAGES[0];

function post(message) {
  self.postMessage(message);
}

function mark(name) {
  timings[name] ??= Math.round(performance.now());
}

function progress(name, bytes = {}) {
  stage = name;
  mark(name);
  post({
    type: "progress",
    stage: name,
    step: STAGES.indexOf(name) + 1,
    steps: STAGES.length,
    ...bytes,
  });
}

// --- The files: fetched, checked and made ready for Pyodide, all at once as soon as
// the manifest is known (the WebAssembly compiled while it downloads, the snapshot
// inflated into its memory image, the standard library read, the wheel checked and
// unzipped). Measured and rejected: doing this (or only the WebAssembly, or only the
// snapshot) in a helper worker of its own was no faster on two cores, which the engine
// thread, the page and V8's compiler threads already share: the WebAssembly's compile
// then sets the pace; and a module of its own costs the worker one more round trip.

const PROGRESS_INTERVAL_MS = 100;

/**
 * Start every file at once; returns {wasm, stdlib, wheel, wheelFiles, snapshot}, each a
 * promise. job: {wasmURL, stdlibURL, wheelURL, wheelSha256, snapshotURL, snapshot,
 * controlled} (URLs as URL objects; snapshot: the manifest's snapshot entry, or null;
 * controlled: look in the offline cache first).
 */
function prepareFiles(job) {
  const wheel = fetchChecked(job.wheelURL, job.wheelSha256);
  const files = {
    wasm: compileWasm(job.wasmURL),
    stdlib: fromOfflineCache(job.stdlibURL, job.controlled).then((response) =>
      response.arrayBuffer(),
    ),
    wheel,
    wheelFiles: wheel.then(readWheel),
    snapshot: job.snapshot
      ? fetchSnapshot(job.snapshotURL, job.snapshot, job.controlled)
      : Promise.reject(new Error("the manifest names no snapshot")),
  };
  for (const promise of Object.values(files)) promise.catch(() => {}); // the caller awaits
  return files;
}

async function fetchOK(url, init) {
  const response = await nativeFetch(url, init);
  if (!response.ok) {
    throw new Error(`${url.pathname}: HTTP ${response.status} ${response.statusText}`);
  }
  return response;
}

// Our service worker's copy of a file, or null. Looked for only when the page is served
// by the service worker (`controlled`): on a first visit there is none, and merely opening
// the browser's cache storage held the downloads up by ~0.1 s. The service worker stores a
// file only once it matched its sha256, and the files read this way have names that
// change with their content (the snapshot's hash, Pyodide's pinned version), so any
// cache's copy is the right one.
async function offlineCopy(url, controlled) {
  if (!controlled) return null;
  const cached = await globalThis.caches?.match(url.href).catch(() => null);
  return cached?.ok ? cached : null;
}

// The standard library, which Pyodide must write into its file system before Python
// runs, from the offline copy when there is one: read here directly, it was ready
// 0.05-0.1 s sooner than through the service worker's fetch handler (the WebAssembly was
// not: streamed from the cache it compiled no sooner). Else downloaded.
async function fromOfflineCache(url, controlled) {
  return (await offlineCopy(url, controlled)) ?? fetchOK(url, { priority: "low" });
}

// Compiled while it downloads; hosts that serve .wasm with the wrong MIME type, which
// streaming refuses, get the slower way. On a first visit the WebAssembly is the last
// file Python waits for, so it is fetched with high priority and the standard library
// and the snapshot with low (measured: WebAssembly ready ~0.06 s sooner, first answer
// ~0.02 s; browsers without priority hints ignore them).
function compileWasm(url) {
  return WebAssembly.compileStreaming(nativeFetch(url, { priority: "high" })).catch(async () => {
    const response = await fetchOK(url);
    return WebAssembly.compile(await response.arrayBuffer());
  });
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

function sri(sha256) {
  const bytes = sha256.match(/../g).map((pair) => parseInt(pair, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

async function checkSha256(bytes, expected, url) {
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== expected) {
    throw new Error(`${url.pathname}: sha256 ${actual} differs from ${expected} in manifest.json`);
  }
}

// Read a stream into one buffer of the expected size (grown if the stream is longer).
async function readAll(stream, size, onChunk) {
  let buffer = new Uint8Array(size);
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.length > buffer.length) {
      const bigger = new Uint8Array(Math.max(buffer.length * 2, length + value.length));
      bigger.set(buffer.subarray(0, length));
      buffer = bigger;
    }
    buffer.set(value, length);
    length += value.length;
    onChunk?.(length);
  }
  return length === buffer.length ? buffer : buffer.subarray(0, length);
}

// Write the packed runs of a snapshot stream into a zero-filled memory image.
async function unpackSegments(stream, entry) {
  const memory = new Uint8Array(entry.raw_size);
  const segments = entry.segments;
  let index = 0;
  let filled = 0; // bytes of segments[index] written so far
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    while (chunk.length) {
      if (index >= segments.length) throw new Error("the snapshot is longer than its segments");
      const [offset, length] = segments[index];
      const take = Math.min(length - filled, chunk.length);
      memory.set(chunk.subarray(0, take), offset + filled);
      chunk = chunk.subarray(take);
      filled += take;
      total += take;
      if (filled === length) {
        index += 1;
        filled = 0;
      }
    }
  }
  if (total !== entry.packed_size) {
    throw new Error(`the snapshot has ${total} bytes, the manifest says ${entry.packed_size}`);
  }
  return memory;
}

// A stream of bytes already in memory, made here: a Blob would cost a round trip to the
// browser's blob registry for each of the wheel's files, and the thread is busy.
function streamOf(bytes) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

function gunzip(stream) {
  return stream.pipeThrough(new DecompressionStream("gzip"));
}

// A small file checked against its sha256 by the browser (Subresource Integrity), which
// works in secure and insecure contexts alike.
async function fetchChecked(url, sha256) {
  try {
    const response = await fetchOK(url, { integrity: sri(sha256) });
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // an HTTP status, already explained
    throw new Error(
      `${url.pathname}: not downloaded, or its sha256 differs from manifest.json (${error.message})`,
    );
  }
}

// The snapshot's memory image. In the offline copy (see offlineCopy): inflated from
// there. Else downloaded with byte progress and inflated while it arrives, and used only
// once the download matched its sha256.
async function fetchSnapshot(url, entry, controlled) {
  const cached = await offlineCopy(url, controlled);
  if (cached) {
    const image = await unpackSegments(gunzip((await cached.blob()).stream()), entry);
    mark("snapshot inflated from the offline cache");
    return image;
  }
  if (!globalThis.crypto?.subtle) {
    // No SubtleCrypto outside secure contexts: let the browser check, without progress.
    return unpackSegments(gunzip(streamOf(await fetchChecked(url, entry.sha256))), entry);
  }
  const response = await fetchOK(url, { priority: "low" });
  const decoded = !["", "identity"].includes(response.headers.get("Content-Encoding") ?? "");
  const total = decoded ? entry.packed_size : entry.size;
  let reported = 0;
  const onChunk = (loaded) => {
    const now = performance.now();
    if (now - reported >= PROGRESS_INTERVAL_MS || loaded === total) {
      reported = now;
      progress(STAGES[0], { loaded, total });
    }
  };
  if (decoded) {
    // A host that decoded the .gz on the way: check the packed bytes instead.
    const packed = await readAll(response.body, entry.packed_size, onChunk);
    await checkSha256(packed, entry.packed_sha256, url);
    return unpackSegments(streamOf(packed), entry);
  }
  const [download, inflate] = response.body.tee();
  const memory = unpackSegments(gunzip(inflate), entry);
  memory.catch(() => {}); // a corrupt download is reported by the checksum below
  const compressed = await readAll(download, entry.size, onChunk);
  mark("snapshot downloaded");
  await checkSha256(compressed, entry.sha256, url);
  const image = await memory;
  mark("snapshot inflated");
  return image;
}

// The files of the wheel (a zip of stored or deflated entries), to be written by
// Pyodide's fsInit hook before Python runs: ~10x faster than unpackArchive() in Python.
// Throws on anything unusual (zip64, other methods, unsafe paths); the engine then
// falls back to pyodide.unpackArchive().
async function readWheel(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("the wheel is not a zip file");
  const count = view.getUint16(end + 10, true);
  let entry = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i += 1) {
    if (view.getUint32(entry, true) !== 0x02014b50) throw new Error("bad zip central directory");
    const method = view.getUint16(entry + 10, true);
    const compressedSize = view.getUint32(entry + 20, true);
    const size = view.getUint32(entry + 24, true);
    const nameLength = view.getUint16(entry + 28, true);
    const local = view.getUint32(entry + 42, true);
    const name = names.decode(bytes.subarray(entry + 46, entry + 46 + nameLength));
    entry += 46 + nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    if (name.endsWith("/")) continue;
    if (name.startsWith("/") || name.split("/").includes(".."))
      throw new Error(`unsafe path ${name}`);
    if (method !== 0 && method !== 8) throw new Error(`${name}: zip method ${method}`);
    if (compressedSize === 0xffffffff || local === 0xffffffff) throw new Error("zip64 wheel");
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`${name}: bad local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + compressedSize);
    files.push({ name, size, content: method === 0 ? data : inflateRaw(data, size) });
  }
  for (const file of files) {
    file.content = await file.content;
    if (file.content.length !== file.size) throw new Error(`${file.name}: wrong size`);
  }
  return files;
}

function inflateRaw(data, size) {
  return readAll(streamOf(data).pipeThrough(new DecompressionStream("deflate-raw")), size);
}

// --- Booting Pyodide

// A CSP without 'wasm-unsafe-eval' makes Pyodide wait forever (it only logs a warning);
// fail at once with a message that says why.
function checkWebAssembly() {
  if (typeof WebAssembly !== "object") {
    throw new Error("this browser does not support WebAssembly, which the rules engine needs");
  }
  try {
    new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  } catch (error) {
    throw new Error(
      "WebAssembly is blocked here (the Content-Security-Policy must allow " +
        `'wasm-unsafe-eval' in script-src): ${error.message}`,
    );
  }
}

// Pyodide fetches two big files itself, and only once loadPyodide() runs, after both JS
// halves are imported: its 9.6 MB WebAssembly and its 2.5 MB standard library (which it
// writes into its file system before Python starts, snapshot or not). Both are requested
// right after the manifest instead, and Pyodide's own fetch() of those URLs gets the
// early response, once (the patch is undone when both are used).
const early = new Map(); // url -> promise of the Response handed to Pyodide's fetch()

function fetchEarly(url, response = nativeFetch(url)) {
  response.catch(() => {}); // Pyodide awaits it and reports any failure
  early.set(url, response);
  self.fetch = function (resource, init) {
    const wanted = String(resource instanceof Request ? resource.url : resource);
    const answer = early.get(wanted);
    if (!answer) return nativeFetch(resource, init);
    early.delete(wanted);
    if (early.size === 0) self.fetch = nativeFetch;
    return answer;
  };
}

// Pyodide's fetch() of its WebAssembly gets a stand-in response, and its
// instantiateStreaming() of the stand-in gets the module compiled by prepareFiles().
function compileEarly(wasmURL, compiled) {
  const standIn = new Response(null);
  fetchEarly(wasmURL, Promise.resolve(standIn));
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    if (response !== standIn) return instantiateStreaming.call(this, response, imports);
    const module = await compiled;
    mark("wasm compiled");
    const instance = await WebAssembly.instantiate(module, imports);
    WebAssembly.instantiateStreaming = instantiateStreaming;
    return { module, instance };
  };
}

// While Pyodide links itself it wraps each of ~260 JavaScript functions in a tiny
// WebAssembly module of its own (Emscripten's convertJsFunctionToWasm), compiling the same
// few dozen byte strings (one per signature) again and again; in Chromium that is ~0.1 s.
// Compile each distinct small module once. WebAssembly.Module objects are immutable and
// may be instantiated any number of times, so sharing them changes nothing else.
const SMALL_MODULE_BYTES = 256;

function shareSmallModules() {
  const compiled = new Map(); // bytes as text -> WebAssembly.Module
  WebAssembly.Module = new Proxy(WebAssembly.Module, {
    construct(target, args, newTarget) {
      const [bytes] = args;
      if (!(bytes instanceof Uint8Array) || bytes.length > SMALL_MODULE_BYTES) {
        return Reflect.construct(target, args, newTarget);
      }
      const key = String.fromCharCode(...bytes);
      let module = compiled.get(key);
      if (!module) {
        module = Reflect.construct(target, args, newTarget);
        compiled.set(key, module);
      }
      return module;
    },
  });
}

// Pyodide's fsInit hook: write the wheel's files into site-packages. It never throws
// (Pyodide would hang); installWheel() finishes the job if it could not.
function wheelHook(files, state) {
  return async (FS, { sitePackages }) => {
    state.sitePackages = sitePackages;
    try {
      for (const { name, content } of await files) {
        const path = `${sitePackages}/${name}`;
        FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
        FS.writeFile(path, content);
      }
      state.installed = true;
    } catch {
      state.installed = false;
    }
  };
}

async function installWheel(pyodide, wheel, state) {
  if (state.installed) return;
  const bytes = await wheel; // throws if the download failed its checksum
  const sitePackages =
    state.sitePackages ?? pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
}

// Pyodide's two JavaScript halves: [pyodide.mjs, pyodide.asm.mjs] as modules.
function importRuntime(runtimeURL) {
  return Promise.all([
    import(new URL("pyodide.mjs", runtimeURL).href),
    import(new URL("pyodide.asm.mjs", runtimeURL).href),
  ]);
}

// If the page had no manifest and could not fetch one, fetch it here (for a precise error).
async function readManifest(start, engineURL) {
  const manifest =
    start.manifest ??
    (await (await fetchOK(new URL("manifest.json", engineURL), { cache: "no-cache" })).json());
  if (manifest.format !== 1) throw new Error(`manifest.json has unknown format ${manifest.format}`);
  return manifest;
}

// A warm-up run ({type: "start", warmUp: true}, sent by offline.js once the offline copy
// is complete): import Pyodide's two JavaScript halves, now served from the service
// worker's cache, and stop. Chromium keeps the compiled code of a module from Cache
// Storage the first time it runs it, so the next visit's engine does not compile its
// 1.3 MB of JavaScript again.
async function warmUp(start) {
  const engineURL = new URL(start.engineURL);
  const runtimeURL = new URL((await readManifest(start, engineURL)).pyodide.path, engineURL);
  await importRuntime(runtimeURL);
  post({ type: "warmed" });
}

async function boot() {
  checkWebAssembly();
  progress(STAGES[0]);
  const start = await started;
  if (start.warmUp) return warmUp(start);
  const ENGINE_URL = new URL(start.engineURL);
  const manifest = await readManifest(start, ENGINE_URL);
  mark("manifest");
  const runtimeURL = new URL(manifest.pyodide.path, ENGINE_URL);
  const wheelURL = new URL(
    `${manifest.wheel.path}?v=${manifest.wheel.sha256.slice(0, 16)}`,
    ENGINE_URL,
  );
  // Everything at once: the files and both halves of the runtime.
  const wasmURL = new URL("pyodide.asm.wasm", runtimeURL);
  const stdlibURL = new URL("python_stdlib.zip", runtimeURL);
  const files = prepareFiles({
    wasmURL,
    stdlibURL,
    wheelURL,
    wheelSha256: manifest.wheel.sha256,
    snapshotURL: manifest.snapshot && new URL(manifest.snapshot.path, ENGINE_URL),
    snapshot: manifest.snapshot ?? null,
    controlled: Boolean(start.controlled),
  });
  compileEarly(wasmURL.href, files.wasm);
  // Should reading the standard library fail here, Pyodide fetches it itself.
  fetchEarly(
    stdlibURL.href,
    files.stdlib.then(
      (bytes) => new Response(bytes, { headers: { "Content-Type": "application/zip" } }),
      () => nativeFetch(stdlibURL),
    ),
  );
  const runtime = importRuntime(runtimeURL);
  const { wheel, wheelFiles, snapshot } = files;
  runtime.catch(() => {}); // awaited below
  const [{ loadPyodide }, { default: createPyodideModule }] = await runtime;
  shareSmallModules();
  mark("runtime imported");
  const options = {
    indexURL: runtimeURL.href,
    lockFileContents: manifest.pyodide.lockfile,
    createPyodideModule,
  };

  let pyodide = null;
  let snapshotUse = "used";
  let state = {};
  try {
    pyodide = await loadPyodide({
      ...options,
      fsInit: wheelHook(wheelFiles, state),
      _loadSnapshot: snapshot.then((image) => {
        progress(STAGES[1]);
        return image;
      }),
    });
  } catch (error) {
    // A snapshot that fails its checksum or does not restore: boot CPython the slow way.
    console.warn("LVL Rules engine: the snapshot failed, starting Python from scratch.", error);
    snapshotUse = `failed: ${error?.message ?? error}`;
    progress(STAGES[1]);
    state = {};
    pyodide = await loadPyodide({ ...options, fsInit: wheelHook(wheelFiles, state) });
  }
  progress(STAGES[2]);
  await installWheel(pyodide, wheel, state);
  pyodide.runPython(
    snapshotUse === "used"
      ? "import random; random.seed()" // the snapshot's random state is every visitor's: reseed
      : "import lvl_rules; lvl_rules.load_all()",
  );
  mark(state.installed ? "wheel written by fsInit" : "wheel unpacked by Python");

  const handle = pyodide.pyimport("lvl_rules.faces.api").handle;
  const versions = JSON.parse(
    pyodide.runPython(
      "import json, sys, lvl_rules; json.dumps({'python': sys.version.split()[0], 'lvl_rules': lvl_rules.__version__})",
    ),
  );
  versions.pyodide = pyodide.version;
  versions.snapshot = snapshotUse;
  progress(STAGES[3]);
  post({ type: "ready", versions, timings });
  return handle;
}

// Report what the Content-Security-Policy blocks here; the page's console shows it.
self.addEventListener("securitypolicyviolation", (event) => {
  post({ type: "csp", directive: event.effectiveDirective, blocked: event.blockedURI });
});

const engine = boot();
engine.catch((error) => {
  post({ type: "error", message: String(error?.message ?? error), stage });
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
