// The LVL Rules engine worker: a *module* Web Worker (Pyodide 314 refuses classic ones)
// started by engine-client.js. Pyodide's documented worker: one loadPyodide() on public
// options, the lvl_rules wheel installed by loadPackage (from the manifest's lock file
// entry, checked against its sha256), and a handler answering JSON requests with
// lvl_rules.faces.api.handle. Besides, it fetches the engine's files itself to count
// their bytes, for the progress a person sees. The files are <site>/engine/'s
// (build_scripts/bundle/engine.py), each named by its content in the manifest, with its
// sha256 and its size in each encoding the server may send (br, gzip, identity). (A
// memory snapshot, restored from the offline cache, was measured and removed: README.)
//
// Protocol. Page -> worker, first: {type: "start", engineURL, manifest?}
// Worker -> page:
//   {type: "progress", stage, loaded?, total?}  stage: "downloading" | "starting" |
//                                               "ready"; bytes as the network carried them
//   {type: "ready", versions, timings}          timings: ms since the worker started
//   {type: "error", reason?, numbers?, message, stage, missing?}
//     start-up failed for good. reason: why, as named in lvl_rules/words/engine.py (the
//     page words it; message: the detail otherwise); missing: a file of this build is no
//     longer served (the page reloads into the new build)
//   {type: "answer", id, response | error}      response: the JSON text
// Page -> worker, then: {type: "request", id, request}   request: JSON text

const MANIFEST_FORMAT = 4; // build_scripts/bundle/engine.py
// WebAssembly begins with these 8 bytes ("\0asm", version 1). Pyodide only logs a warning
// when its WebAssembly does not compile, and then waits for ever: a file that does not
// begin so (an error page, say) fails the start at once.
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const PROGRESS_INTERVAL_MS = 100;
const timings = {};
let stage = "downloading";

// A failure the page words itself: `reason` names its words in lvl_rules/words/engine.py,
// `numbers` what goes into them; `missing`: a file of this build the server no longer
// has (a newer build replaced it).
class StartError extends Error {
  constructor(reason, numbers = {}, missing = false) {
    super(`${reason}: ${JSON.stringify(numbers)}`);
    Object.assign(this, { reason, numbers, missing });
  }
}

const post = (message) => self.postMessage(message);
const mark = (name) => (timings[name] ??= Math.round(performance.now()));

function progress(name, bytes = {}) {
  stage = name;
  mark(name);
  post({ type: "progress", stage: name, ...bytes });
}

// Every engine file, fetched here as soon as the manifest is known and counted as it
// arrives. Pyodide's own requests for the same URLs are answered by the browser's HTTP
// cache, which joins a request to a download still under way (the files are immutable:
// their names change with their content), so no byte is sent twice (benchmarks/network.py
// counts them). Rejects with the first file that fails.
function downloadAll(files) {
  const sizes = new Map(files.map(({ url, entry }) => [url.href, entry.sizes.br]));
  const loaded = new Map();
  let reported = 0;
  const report = (force) => {
    const early = !force && performance.now() - reported < PROGRESS_INTERVAL_MS;
    if (stage !== "downloading" || early) return;
    reported = performance.now();
    const sum = (map) => [...map.values()].reduce((a, b) => a + b, 0);
    progress("downloading", { loaded: Math.round(sum(loaded)), total: sum(sizes) });
  };
  return Promise.all(
    files.map(async ({ url, entry, priority = "auto" }) => {
      const response = await fetch(url, { priority });
      if (response.status === 404 || response.status === 410) {
        throw new StartError("missing-file", { path: url.pathname, status: response.status }, true);
      }
      if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      // The body arrives decoded: count its share of the bytes the network carried.
      const encoding = response.headers.get("Content-Encoding") || "identity";
      sizes.set(url.href, entry.sizes[encoding] ?? entry.sizes.identity);
      const scale = sizes.get(url.href) / entry.sizes.identity;
      const reader = response.body.getReader();
      let received = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        const wasm = received === 0 && url.pathname.endsWith(".wasm");
        if (wasm && WASM_MAGIC.some((byte, i) => chunk.value[i] !== byte)) {
          throw new StartError("not-webassembly", { path: url.pathname });
        }
        received += chunk.value.length;
        loaded.set(url.href, received * scale);
        report(false);
      }
      report(true);
    }),
  );
}

// A CSP without 'wasm-unsafe-eval' makes Pyodide wait for ever (it only logs a warning):
// fail at once, saying why. (A probe: compiles 8 bytes.)
function checkWebAssembly() {
  if (typeof WebAssembly !== "object") throw new StartError("no-webassembly");
  try {
    new WebAssembly.Module(new Uint8Array(WASM_MAGIC));
  } catch (error) {
    throw new StartError("webassembly-blocked", { detail: error.message });
  }
}

// The page's manifest, else the server's; one of another format is another build's.
async function readManifest(start, engineURL) {
  let manifest = start.manifest;
  if (!manifest) {
    const response = await fetch(new URL("manifest.json", engineURL), { cache: "no-cache" });
    if (!response.ok) throw new Error(`manifest.json: HTTP ${response.status}`);
    manifest = await response.json();
  }
  if (manifest.format !== MANIFEST_FORMAT) {
    const path = `manifest.json of format ${manifest.format}`;
    throw new StartError("missing-file", { path, status: 410 }, true);
  }
  return manifest;
}

async function boot(start, downloadFailed) {
  checkWebAssembly();
  progress("downloading");
  const engineURL = new URL(start.engineURL);
  const manifest = await readManifest(start, engineURL);
  mark("manifest");
  const file = (entry) => ({ url: new URL(entry.path, engineURL), entry });
  const [mjs, asmMjs, wasm] = manifest.runtime.map(file);
  // The WebAssembly first: on a first visit it is what Python waits for. (Pyodide's own
  // requests for the same files join these, with their priorities. The library asked for
  // only once the WebAssembly had arrived: 8.6 s to the calculator's answer on 4G, not
  // 7.8 s; network.py, medians of 4.)
  const stdlib = { ...file(manifest.stdlib), priority: "low" };
  wasm.priority = "high";
  const downloads = downloadAll([wasm, asmMjs, mjs, stdlib, { ...file(manifest.wheel), priority: "low" }]);
  downloads.then(() => progress("starting"), downloadFailed);
  const { loadPyodide } = await import(mjs.url.href);
  mark("runtime imported");
  const pyodide = await loadPyodide({
    indexURL: new URL(manifest.pyodide.path, engineURL).href,
    stdLibURL: stdlib.url.href,
    lockFileContents: manifest.pyodide.lockfile,
    packageBaseUrl: engineURL.href,
  });
  mark("python started");
  await pyodide.loadPackage("lvl-rules", { checkIntegrity: true, messageCallback: () => {} });
  mark("wheel installed");
  const versions = JSON.parse(
    pyodide.runPython(`
import json, sys, lvl_rules
lvl_rules.load_all()
json.dumps({"python": sys.version.split()[0], "lvl_rules": lvl_rules.__version__})`),
  );
  const handle = pyodide.pyimport("lvl_rules.faces.api").handle;
  progress("ready");
  post({ type: "ready", versions: { ...versions, pyodide: pyodide.version }, timings });
  return handle;
}

const started = new Promise((resolve) => {
  self.addEventListener("message", function onStart(event) {
    if (event.data?.type !== "start") return;
    self.removeEventListener("message", onStart);
    resolve(event.data);
  });
});
// A download that fails (a file a newer build removed, say) ends the start at once.
const engine = started.then(
  (start) => new Promise((resolve, reject) => boot(start, reject).then(resolve, reject)),
);
engine.catch((error) => {
  const { reason, numbers, missing } = error ?? {};
  post({ type: "error", reason, numbers, message: String(error?.message ?? error), stage, missing });
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
