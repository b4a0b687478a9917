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
// engine-files.js fetches, checks and prepares the files; this module boots Pyodide.
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

import { fetchOK, prepareFiles } from "./engine-files.js";

// The page's client sends {type: "start", engineURL, manifest} as soon as it has fetched
// manifest.json (in parallel with loading this script).
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
  // Everything at once: the files and both halves of the runtime.
  const wasmURL = new URL("pyodide.asm.wasm", runtimeURL);
  const stdlibURL = new URL("python_stdlib.zip", runtimeURL);
  const files = prepareFiles(
    {
      wasmURL: wasmURL.href,
      stdlibURL: stdlibURL.href,
      wheelURL: wheelURL.href,
      wheelSha256: manifest.wheel.sha256,
      snapshotURL: manifest.snapshot && new URL(manifest.snapshot.path, ENGINE_URL).href,
      snapshot: manifest.snapshot ?? null,
    },
    { onProgress: (bytes) => progress(STAGES[0], bytes), onMark: mark },
  );
  // Should prepareFiles() fail on one of Pyodide's own files, Pyodide fetches it itself.
  compileEarly(
    wasmURL.href,
    files.wasm.catch(() => WebAssembly.compileStreaming(nativeFetch(wasmURL))),
  );
  fetchEarly(
    stdlibURL.href,
    files.stdlib.then(
      (bytes) => new Response(bytes, { headers: { "Content-Type": "application/zip" } }),
      () => nativeFetch(stdlibURL),
    ),
  );
  const runtime = Promise.all([
    import(new URL("pyodide.mjs", runtimeURL).href),
    import(new URL("pyodide.asm.mjs", runtimeURL).href),
  ]);
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
