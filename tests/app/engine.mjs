// The rules engine for the page modules' tests: the lvl_rules wheel of dist/ in Pyodide
// under Node, answering as the browser's engine client does (engine-client.js): a
// request's `result`, or a rejection with the refusal's `kind`, `field` and message.
// `hold()` keeps every answer back until `release()`: an engine that is still starting.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

let booted = null;

async function boot() {
  const indexURL = path.join(ROOT, "node_modules", "pyodide") + path.sep;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL });
  const dist = path.join(ROOT, "dist");
  const wheel = readdirSync(dist).find((name) => /^lvl_rules-.*\.whl$/.test(name));
  if (!wheel) throw new Error("no lvl_rules wheel in dist/: run make wheel");
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(new Uint8Array(readFileSync(path.join(dist, wheel))), "wheel", { extractDir: sitePackages });
  return pyodide.pyimport("lvl_rules.faces.api").handle;
}

class Refusal extends Error {
  constructor(answer) {
    super(answer.error);
    this.kind = "rules";
    this.field = answer.field ?? null;
  }
}

/** A fresh engine (its own kept matches are keyed by the caller: one Pyodide serves all). */
export async function startEngine() {
  booted ??= boot();
  const handle = await booted;
  let gate = null;
  const engine = {
    requests: [],
    hold() {
      let open;
      gate = { promise: new Promise((resolve) => (open = resolve)), open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    async ask(request) {
      engine.requests.push(request);
      if (gate) await gate.promise;
      const answer = JSON.parse(handle(JSON.stringify(request)));
      if (!answer.ok) throw new Refusal(answer);
      return answer.result;
    },
  };
  return engine;
}
