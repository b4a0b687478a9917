// The engine's standard library, made by Pyodide's own Python in Node (called by
// build_scripts/bundle/engine.py; exits non-zero with a message on failure).
//
//   node build_scripts/bundle/make_stdlib.mjs --pyodide node_modules/pyodide \
//        --wheel dist/lvl_rules-1.0.0-py3-none-any.whl --stdlib-out stdlib.zip
//
// Decided by measurement at every build: Pyodide boots on its whole library, installs
// the wheel as the browser does (loadPackage), loads every edition, answers one request
// of each kind (WARM_UP) and imports every module of the wheel, the CLI's too, so that a
// module lvl_rules imports only inside a function is seen. The files of the modules then
// loaded are kept (about a quarter of the 614 for Pyodide 314.0.8; not the frozen ones,
// which the interpreter carries in itself), each compiled by this very interpreter
// (Pyodide's Python, which the host's is not: `pyodide py-compile` compiles for the
// host's) with the public py_compile into a sourceless, unchecked hash-based .pyc,
// optimize=2 (no docstrings or asserts), and *stored*: the HTTP content coding then
// compresses the whole archive at once, and zipimport reads it without inflating. Worth,
// measured with benchmarks/network.py (bare Pyodide, 4G, medians of 3 on a loaded
// machine): 15.7-20.5 s to an answer on Pyodide's library, 6.7-7.9 s on this one.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

// Asked of every edition on the timeline (STDLIB fills in each edition and its rank axis).
const WARM_UP = [
  { action: "editions" },
  { action: "eligibility", age: 30, uniform: "gi", experience: [] },
  { action: "eligibility", age: 30, uniform: "nogi", experience: [] },
  { action: "divisions-for", technique: "heel-hook" },
  { action: "score", age: 30, uniform: "gi", events: [] },
  { action: "export" },
];

// Answers are checked here, so that a broken wheel fails the build, not the browser.
const STDLIB = `
import importlib, json, sys, zipfile
import lvl_rules, lvl_rules.faces.api

def each_edition(request):
    if request["action"] == "editions":
        return [request]
    asked = []
    for edition in lvl_rules.load_all():
        axis = edition.eligibility.axis
        ranked = {axis: list(edition.ranks)[-1]} if "age" in request else {}
        asked.append({**request, "edition": edition.id, **ranked})
    return asked

for request in [asked for each in json.loads(WARM_UP) for asked in each_edition(each)]:
    answer = json.loads(lvl_rules.faces.api.handle(json.dumps(request)))
    if not answer["ok"]:
        raise RuntimeError(f"warm-up request {request} failed: {answer}")

for name in zipfile.ZipFile(WHEEL).namelist():
    if name.startswith("lvl_rules/") and name.endswith(".py") and name != "lvl_rules/__main__.py":
        importlib.import_module(name[:-3].removesuffix("/__init__").replace("/", "."))
zip_path = next(p for p in sys.path if p.endswith(".zip"))
used = sorted({
    module.__file__.removeprefix(zip_path + "/")
    for module in list(sys.modules.values())
    if (getattr(module, "__file__", None) or "").startswith(zip_path + "/")
    and getattr(module.__spec__, "origin", None) != "frozen"
})
import os, py_compile  # once listed: the browser's engine never imports them

with zipfile.ZipFile(zip_path) as whole, zipfile.ZipFile(OUT, "w") as out:
    for name in used:
        data = whole.read(name)
        if name.endswith(".py"):
            source = os.path.join("/tmp/sources", name)
            whole.extract(name, "/tmp/sources")
            py_compile.compile(
                source,
                cfile=source + "c",
                dfile=f"{zip_path}/{name}",  # the name tracebacks show, as for the sources
                doraise=True,
                optimize=2,
                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
            )
            data, name = open(source + "c", "rb").read(), name + "c"
        info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))  # the same bytes
        info.external_attr = 0o644 << 16
        out.writestr(info, data)
`;

async function main() {
  const names = ["pyodide", "wheel", "stdlib-out"];
  const { values } = parseArgs({ options: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });
  for (const name of names) if (!values[name]) throw new Error(`missing --${name}`);
  const indexDir = path.resolve(values.pyodide) + path.sep;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexDir, "pyodide.mjs")).href);
  const lockFile = JSON.parse(await readFile(path.join(indexDir, "pyodide-lock.json"), "utf8"));
  const pyodide = await loadPyodide({
    indexURL: indexDir,
    lockFileContents: { info: lockFile.info, packages: {} },
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.error(`[python] ${line}`),
  });
  await pyodide.loadPackage(path.resolve(values.wheel), { messageCallback: () => {} });
  pyodide.FS.writeFile("/tmp/lvl_rules.whl", new Uint8Array(await readFile(values.wheel)));
  pyodide.globals.set("WARM_UP", JSON.stringify(WARM_UP));
  pyodide.globals.set("WHEEL", "/tmp/lvl_rules.whl");
  pyodide.globals.set("OUT", "/tmp/stdlib.zip");
  pyodide.runPython(STDLIB);
  await writeFile(values["stdlib-out"], pyodide.FS.readFile("/tmp/stdlib.zip"));
}

main().catch((error) => {
  console.error(`make_stdlib: ${error?.stack ?? error}`);
  process.exit(1);
});
