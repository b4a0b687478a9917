// Boot the engine as the browser does, in Node, from a built site's engine/ folder, on
// the engine's standard library, the wheel installed by loadPackage from the manifest's
// lock entry; then import every module of the wheel (so any module lvl_rules imports
// only inside a function is imported too) and answer one request of each action. Prints
// one JSON line.
//
//   node tests/pyodide/engine_on_its_stdlib.mjs --site SITE --pyodide node_modules/pyodide

import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { site: { type: "string" }, pyodide: { type: "string" } },
});
const engine = path.resolve(values.site, "engine") + path.sep;
const manifest = JSON.parse(await readFile(engine + "manifest.json", "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.resolve(values.pyodide, "pyodide.mjs")).href);

const pyodide = await loadPyodide({
  indexURL: path.resolve(values.pyodide) + path.sep,
  lockFileContents: manifest.pyodide.lockfile,
  packageBaseUrl: engine,
  stdLibURL: engine + manifest.stdlib.path,
});
await pyodide.loadPackage("lvl-rules", { checkIntegrity: true, messageCallback: () => {} });
console.log(
  pyodide.runPython(`
import importlib, json, os, sys
import lvl_rules, lvl_rules.faces.api

zip_path = next(p for p in sys.path if p.endswith(".zip"))
site_dir = lvl_rules.__file__.rsplit("/lvl_rules/", 1)[0]
for folder, _, files in os.walk(site_dir + "/lvl_rules"):
    for file in files:
        if file.endswith(".py") and file != "__main__.py":
            module = (folder[len(site_dir) + 1:] + "/" + file[:-3]).replace("/", ".")
            importlib.import_module(module.removesuffix(".__init__"))
line = lvl_rules.timeline()  # the editions by their place on it, never an ID written here
now, full = line.in_force(), next(e.id for e in line.entries if e.amends is None)
answers = [json.loads(lvl_rules.faces.api.handle(json.dumps(r)))["ok"] for r in [
    {"action": "editions"},
    {"action": "eligibility", "edition": full, "age": 30, "lvl": 3, "uniform": "gi", "experience": []},
    {"action": "eligibility", "edition": now, "age": 14, "belt": "white", "uniform": "gi", "experience": ["wrestling"]},
    {"action": "divisions-for", "edition": now, "technique": "heel-hook"},
    {"action": "score", "edition": now, "age": 30, "belt": "blue", "uniform": "gi",
     "events": [{"type": "score", "athlete": "A", "position": "mount"}, {"type": "end"}]},
    {"action": "export", "edition": now},
]]
json.dumps({
    "stdlib": zip_path,
    "answers": answers,
    "lvl_rules_modules": sorted(m for m in sys.modules if m.startswith("lvl_rules")),
})
`),
);
