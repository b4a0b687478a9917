// The LVL Rules engine worker: a *module* Web Worker (Pyodide 314 refuses classic ones)
// started by engine-client.js. It boots Pyodide from this site only, installs the
// lvl_rules wheel and answers JSON requests with lvl_rules.api.handle.
//
// Files come from <site>/engine/ (written by build_scripts/pyodide_bundle.py):
//   manifest.json             always revalidated; names every other file with its sha256
//   pyodide/<version>/...     the pinned runtime
//   <wheel>                   the lvl_rules wheel, checked against its sha256
//   snapshot-<hash>.bin.gz    Pyodide's memory with lvl_rules imported and both editions
//                             loaded, without its all-zero pages (manifest "segments" says
//                             where each kept run goes); restoring it skips CPython's
//                             start-up and every import
//
// Protocol. Page -> worker, first: {type: "start", engineURL, manifest?}
// Worker -> page:
//   {type: "progress", stage, step, steps, loaded?, total?}   stage: one of STAGES
//   {type: "ready", versions, timings}                      timings: ms since worker start
//   {type: "error", message, stage}                         start-up failed for good
//   {type: "answer", id, response}                          response: the JSON text
//   {type: "answer", id, error}                             the engine itself failed
//   {type: "csp", directive, blocked}                       the CSP blocked something
// Page -> worker, then:
//   {type: "request", id, request}                          request: JSON text

// The page's client sends {type: "start", engineURL, manifest} as soon as it has fetched
// manifest.json (in parallel with loading this script).
const started = new Promise((resolve) => {
  self.addEventListener("message", function onStart(event) {
    if (event.data?.type !== "start") return;
    self.removeEventListener("message", onStart);
    resolve(event.data);
  });
});
// Pyodide's own fetch() of its WebAssembly is patched below (compileEarly); ours is not.
const nativeFetch = self.fetch.bind(self);
const STAGES = ["downloading runtime", "starting Python", "loading rules", "ready"];
const PROGRESS_INTERVAL_MS = 100;

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

async function fetchOK(url, init) {
  const response = await nativeFetch(url, init);
  if (!response.ok) {
    throw new Error(`${url.pathname}: HTTP ${response.status} ${response.statusText}`);
  }
  return response;
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

function streamOf(bytes) {
  return new Blob([bytes]).stream();
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

// The snapshot: streamed with byte progress and inflated while it arrives; the memory
// image is used only once the download matched its sha256.
async function fetchSnapshot(url, entry) {
  if (!globalThis.crypto?.subtle) {
    // No SubtleCrypto outside secure contexts: let the browser check, without progress.
    return unpackSegments(gunzip(streamOf(await fetchChecked(url, entry.sha256))), entry);
  }
  const response = await fetchOK(url);
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

// Pyodide fetches and compiles its 9.6 MB WebAssembly only once loadPyodide() runs, after
// both JS halves are imported. Start that right after the manifest instead: Pyodide's own
// fetch() of that URL gets a stand-in response and its instantiateStreaming() of the
// stand-in gets the module compiled here (both patches are undone once it is used).
// Also covers hosts that serve .wasm with the wrong MIME type, which streaming refuses.
function compileEarly(wasmURL) {
  const compiled = WebAssembly.compileStreaming(nativeFetch(wasmURL)).catch(async () => {
    const response = await fetchOK(new URL(wasmURL));
    return WebAssembly.compile(await response.arrayBuffer());
  });
  compiled.catch(() => {}); // awaited by Pyodide through the patch below
  const standIn = new Response(null);
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  self.fetch = function (resource, init) {
    const url = String(resource instanceof Request ? resource.url : resource);
    return url === wasmURL ? Promise.resolve(standIn) : nativeFetch(resource, init);
  };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    const response = await source;
    if (response !== standIn) return instantiateStreaming.call(this, response, imports);
    const module = await compiled;
    const instance = await WebAssembly.instantiate(module, imports);
    self.fetch = nativeFetch;
    WebAssembly.instantiateStreaming = instantiateStreaming;
    mark("wasm compiled");
    return { module, instance };
  };
}

// The files of the wheel (a zip of stored or deflated entries), inflated as soon as it
// arrives, to be written by Pyodide's fsInit hook before Python runs: ~10x faster than
// unpackArchive() in Python. Throws on anything unusual (zip64, other methods, unsafe
// paths); installWheel() then falls back to pyodide.unpackArchive().
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

async function boot() {
  checkWebAssembly();
  progress(STAGES[0]);
  const start = await started;
  const ENGINE_URL = new URL(start.engineURL);
  // If the page could not fetch the manifest, try again here for a precise error.
  const manifest =
    start.manifest ??
    (await (await fetchOK(new URL("manifest.json", ENGINE_URL), { cache: "no-cache" })).json());
  if (manifest.format !== 1) throw new Error(`manifest.json has unknown format ${manifest.format}`);
  mark("manifest");
  const runtimeURL = new URL(manifest.pyodide.path, ENGINE_URL);
  const wheelURL = new URL(
    `${manifest.wheel.path}?v=${manifest.wheel.sha256.slice(0, 16)}`,
    ENGINE_URL,
  );
  // Everything at once: both halves of the runtime, the wheel and the snapshot.
  compileEarly(new URL("pyodide.asm.wasm", runtimeURL).href);
  const runtime = Promise.all([
    import(new URL("pyodide.mjs", runtimeURL).href),
    import(new URL("pyodide.asm.mjs", runtimeURL).href),
  ]);
  const wheel = fetchChecked(wheelURL, manifest.wheel.sha256);
  const wheelFiles = wheel.then(readWheel);
  const snapshot = manifest.snapshot
    ? fetchSnapshot(new URL(manifest.snapshot.path, ENGINE_URL), manifest.snapshot)
    : Promise.reject(new Error("the manifest names no snapshot"));
  for (const promise of [runtime, wheel, wheelFiles, snapshot]) promise.catch(() => {}); // awaited below
  const [{ loadPyodide }, { default: createPyodideModule }] = await runtime;
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

  const handle = pyodide.pyimport("lvl_rules.api").handle;
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
