// Make the Pyodide memory snapshot that the site's engine worker boots from.
//
//   node build_scripts/bundle/make_snapshot.mjs --pyodide node_modules/pyodide \
//        --wheel dist/lvl_rules-1.0.0-py3-none-any.whl --stdlib engine-stdlib.zip \
//        --out .cache/engine/x/snapshot.bin
//   node build_scripts/bundle/make_snapshot.mjs --pyodide node_modules/pyodide \
//        --wheel dist/lvl_rules-1.0.0-py3-none-any.whl --list-stdlib used.json
//   node build_scripts/bundle/make_snapshot.mjs --pyodide node_modules/pyodide \
//        --stdlib engine-stdlib-sources.zip --compile-stdlib engine-stdlib.zip
//
// --list-stdlib: boot on Pyodide's whole standard library, do what the snapshot does and
// also import every module of the wheel (the CLI too: any module lvl_rules imports only
// when a function runs is then seen), and write the standard library's files that the
// interpreter then has loaded, as JSON (names inside python_stdlib.zip; not the frozen
// modules', which the interpreter carries in itself and never reads from the zip).
// engine.py publishes only those (the engine's standard library) and makes the snapshot
// on them.
//
// --compile-stdlib: write the --stdlib archive (sources) again with each module compiled
// by this very interpreter (Pyodide's Python, which the host's is not; booted on Pyodide's
// whole library, which has py_compile) into a sourceless .pyc, so that the browser's
// interpreter does not compile them at every start. See COMPILE_STDLIB for its worth.
//
// Boots Pyodide in Node, installs the lvl_rules wheel with loadPackage, imports
// lvl_rules, loads every edition and answers one request of each kind (so lazy imports
// and caches are warm), then writes the WebAssembly memory to --out, its static data
// XORed with the WebAssembly file's (docs/assets/engine/snapshot.js), and a JSON
// description (site-packages path, Python version, where the memory begins, the standard
// library files the interpreter has imported, timings) to --out + ".json".
// The browser restores that memory instead of starting CPython and importing the
// package again. The FS is not part of the snapshot: the worker unpacks the wheel
// into the same site-packages path after restoring, so data files stay readable.
//
// Called by build_scripts/bundle/engine.py; exits non-zero with a message on failure.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { xorStaticData } from "../../docs/assets/engine/snapshot.js";

const WARM_UP = [
  { action: "editions" },
  { action: "eligibility", edition: "1", age: 30, lvl: 3, uniform: "gi", experience: [] },
  { action: "eligibility", edition: "2", age: 30, belt: "purple", uniform: "nogi", experience: [] },
  { action: "divisions-for", edition: "2", technique: "heel-hook" },
  { action: "score", edition: "1", age: 30, lvl: 3, uniform: "gi", events: [] },
  { action: "export", edition: "1" },
];

// Every .py of the archive compiled with the public py_compile to a sourceless, unchecked
// hash-based .pyc (the same bytes for the same sources: no timestamp), stored as the
// archive was, in its order.
// optimize=2 (as python -OO) leaves out docstrings and asserts: 977 kB as brotli rather
// than 1,144 kB at optimize=0 (the sources: 626 kB). What it is worth, measured with
// benchmarks/network.py on the bare-stdlib page (bare Pyodide on this library, nothing
// else of ours), medians: 4G 7.18 -> 5.70 s, localhost 2.88 -> 1.73 s; slow 4G, where the
// 351 kB more cost 1.8 s, 22.5 -> 23.1 s (one run; a phone's slower CPU gains more). In
// the engine without the snapshot (its stage timings, 4G), Python starts 0.57 s after
// the WebAssembly is instantiated, not 2.2 s. A wheel of .pyc files was measured too and
// not kept: 127 kB more (the wheel is not compressed further) for 0.1-0.2 s. The file
// names in tracebacks stay those of the sources (which are not shipped).
const COMPILE_STDLIB = `
import io, os, py_compile, sys, zipfile

zip_path = next(p for p in sys.path if p.endswith(".zip"))
compiled = io.BytesIO()
with zipfile.ZipFile(SOURCES) as sources, zipfile.ZipFile(compiled, "w") as target:
    for info in sources.infolist():
        name = info.filename
        if name.endswith(".py"):
            source = os.path.join("/tmp/sources", name)
            sources.extract(info, "/tmp/sources")
            py_compile.compile(
                source,
                cfile=source + "c",
                dfile=f"{zip_path}/{name}",  # the name tracebacks show, as for the sources
                doraise=True,
                optimize=2,
                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
            )
            with open(source + "c", "rb") as pyc:
                data = pyc.read()
            name += "c"
        else:
            data = sources.read(info)
        kept = zipfile.ZipInfo(name, date_time=info.date_time)
        kept.compress_type = info.compress_type
        kept.external_attr = info.external_attr
        target.writestr(kept, data)
with open(COMPILED, "wb") as out:
    out.write(compiled.getvalue())
`;

// The standard library files of the modules the interpreter has loaded, as JSON (names
// inside the zip it runs on), leaving out the frozen modules: the interpreter carries
// them in itself (their __file__ names the zip all the same).
const LOADED_STDLIB = `
import json, sys
zip_path = next(p for p in sys.path if p.endswith(".zip")) + "/"
json.dumps(sorted({
    module.__file__.removeprefix(zip_path)
    for module in list(sys.modules.values())
    if (getattr(module, "__file__", None) or "").startswith(zip_path)
    and getattr(module.__spec__, "origin", None) != "frozen"
}))
`;

async function compileStdlib(pyodide, sources, out) {
  pyodide.FS.writeFile("/tmp/sources.zip", new Uint8Array(await readFile(sources)));
  pyodide.globals.set("SOURCES", "/tmp/sources.zip");
  pyodide.globals.set("COMPILED", "/tmp/compiled.zip");
  pyodide.runPython(COMPILE_STDLIB);
  await writeFile(out, pyodide.FS.readFile("/tmp/compiled.zip"));
}

async function main() {
  const { values } = parseArgs({
    options: {
      pyodide: { type: "string" },
      wheel: { type: "string" },
      out: { type: "string" },
      stdlib: { type: "string" },
      "list-stdlib": { type: "string" },
      "compile-stdlib": { type: "string" },
    },
  });
  const compiling = Boolean(values["compile-stdlib"]);
  for (const name of ["pyodide", compiling ? "stdlib" : "wheel"]) {
    if (!values[name]) throw new Error(`missing --${name}`);
  }
  const modes = ["out", "list-stdlib", "compile-stdlib"].filter((mode) => values[mode]);
  if (modes.length !== 1) throw new Error("give one of --out, --list-stdlib, --compile-stdlib");
  const indexDir = path.resolve(values.pyodide) + path.sep;
  const started = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(indexDir, "pyodide.mjs")).href);
  const lockFile = JSON.parse(await readFile(path.join(indexDir, "pyodide-lock.json"), "utf8"));
  const pyodide = await loadPyodide({
    indexURL: indexDir,
    lockFileContents: { info: lockFile.info, packages: {} },
    ...(values.stdlib && !compiling ? { stdLibURL: path.resolve(values.stdlib) } : {}),
    _makeSnapshot: Boolean(values.out),
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => console.error(`[python] ${line}`),
  });
  const booted = performance.now();
  if (compiling) {
    await compileStdlib(pyodide, path.resolve(values.stdlib), values["compile-stdlib"]);
    return;
  }

  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  const wheel = new Uint8Array(await readFile(values.wheel));
  if (values["list-stdlib"]) {
    // As the browser's engine installs it (loadPackage, after the snapshot is restored),
    // so that what the installer imports is in the engine's standard library.
    await pyodide.loadPackage(path.resolve(values.wheel), { messageCallback: () => {} });
  } else {
    // loadPackage leaves JavaScript references that a snapshot cannot hold.
    pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  }

  // Answers are checked here so that a broken wheel fails the build, not the browser.
  pyodide.globals.set("WARM_UP", JSON.stringify(WARM_UP));
  pyodide.globals.set("LIST_STDLIB", Boolean(values["list-stdlib"]));
  pyodide.FS.writeFile("/tmp/lvl_rules.whl", wheel);
  pyodide.globals.set("WHEEL", "/tmp/lvl_rules.whl");
  const summary = pyodide.runPython(`
import gc
import json

import lvl_rules
import lvl_rules.faces.api

# What the engine's installer (Pyodide's loadPackage, run after the restore) imports:
# imported here once, not compiled from source on every visit.
import importlib.metadata
import tarfile

lvl_rules.load_all()
for request in json.loads(WARM_UP):
    answer = json.loads(lvl_rules.faces.api.handle(json.dumps(request)))
    if not answer["ok"]:
        raise RuntimeError(f"warm-up request {request} failed: {answer}")
del request, answer
del WARM_UP
gc.collect()
if LIST_STDLIB:
    import importlib, zipfile
    wheel_modules = [
        name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for name in zipfile.ZipFile(WHEEL).namelist()
        if name.startswith("lvl_rules/") and name.endswith(".py")
    ]
    for name in wheel_modules:
        if name != "lvl_rules.__main__":  # runs the CLI
            importlib.import_module(name)
import sys
json.dumps({
    "python": sys.version.split()[0],
    "lvl_rules": lvl_rules.__version__,
    "editions": list(lvl_rules.edition_ids()),
})
`);
  const loaded = JSON.parse(pyodide.runPython(LOADED_STDLIB));
  if (values["list-stdlib"]) {
    await writeFile(values["list-stdlib"], JSON.stringify(loaded) + "\n");
    console.log(`${loaded.length} standard library files in use`);
    return;
  }
  // The C heap's free memory keeps what Python allocated and freed while importing and
  // loading the rules. Zeroing it (every free block taken with malloc(), through Pyodide's
  // private _module, zeroed and freed) saved 16% before the standard library was compiled
  // and static data XORed; measured again on 2026-12-07, it zeroed 1.2 MB and saved
  // 33,846 B of 2,530,592 as brotli (30 ms on 4G): under the 100 ms a private part must
  // earn, so the memory is taken as it is.
  const snapshot = pyodide.makeMemorySnapshot();
  // The snapshot is Pyodide's header, then the whole memory (whose size only Pyodide's
  // private _module tells; should it change, the browser tests that restore fail).
  const memoryOffset = snapshot.length - pyodide._module.HEAPU8.length;
  if (!(memoryOffset > 0)) {
    throw new Error("the snapshot is no larger than the memory: has its format changed?");
  }
  const wasm = new Uint8Array(await readFile(path.join(indexDir, "pyodide.asm.wasm")));
  xorStaticData(snapshot, memoryOffset, wasm);
  await writeFile(values.out, snapshot);
  const info = {
    ...JSON.parse(summary),
    pyodide: pyodide.version,
    site_packages: sitePackages,
    raw_size: snapshot.length,
    memory_offset: memoryOffset,
    imported_stdlib: loaded,
    seconds: {
      boot: (booted - started) / 1000,
      total: (performance.now() - started) / 1000,
    },
  };
  await writeFile(`${values.out}.json`, JSON.stringify(info, null, 2) + "\n");
  console.log(JSON.stringify(info));
}

main().catch((error) => {
  console.error(`make_snapshot: ${error?.stack ?? error}`);
  process.exit(1);
});
