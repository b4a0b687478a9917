// Run Python code inside Pyodide under Node with one wheel installed (unpacked into
// site-packages, as run_pytest.mjs does; nothing else), and print the value of the code's
// last expression (a string: JSON, say).
//
//   node tests/pyodide/run_python.mjs --wheel dist/browser/lvl_rules-1.0.0-py3-none-any.whl \
//        [--pyodide node_modules/pyodide] < code.py
//
// Exits non-zero, with Python's traceback on stderr, when the code raises.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main() {
  const { values } = parseArgs({
    options: {
      wheel: { type: "string" },
      pyodide: { type: "string", default: path.join(ROOT, "node_modules", "pyodide") },
    },
  });
  if (!values.wheel) throw new Error("--wheel is required");
  const indexURL = path.resolve(values.pyodide) + path.sep;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(new Uint8Array(readFileSync(path.resolve(values.wheel))), "wheel", {
    extractDir: sitePackages,
  });
  const result = pyodide.runPython(readFileSync(0, "utf8"));
  process.stdout.write(`${result}\n`);
}

main().catch((error) => {
  console.error(`run_python: ${error?.stack ?? error}`);
  process.exitCode = 3;
});
