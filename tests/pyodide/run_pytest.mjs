// Run the project's pytest suite inside Pyodide under Node, against the lvl_rules wheel:
// the same interpreter and the same package the browser gets.
//
//   node tests/pyodide/run_pytest.mjs --wheel dist/lvl_rules-1.0.0-py3-none-any.whl \
//        --wheels .cache/pyodide-wheels [--root .] [--marker EXPR] [--host-only a,b] \
//        [-- PYTEST_ARGS...]
//
// --wheels     a folder of pure wheels (pytest, hypothesis and their dependencies)
// --root       the repository (default: two folders up); its tests/ folder is mounted
//              read-only in spirit at /repo/tests (NODEFS) and its pyproject.toml copied
//              to /repo, so pytest reads the project's settings; lvl_rules itself comes
//              only from the wheel
// --marker     the -m expression (default: "not browser and not host and not slow")
// --host-only  packages that exist only on the host (a test module importing one is
//              skipped, not an error); default: DEFAULT_HOST_ONLY below
// PYTEST_ARGS  what to run, relative to /repo (default: tests, where
//              tests/pyodide/smoke_test_*.py is collected too)
//
// Exits with pytest's exit code.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_HOST_ONLY = [
  "benchmarks",
  "build",
  "build_scripts",
  "jinja2",
  "jsonschema",
  "markdown",
  "material",
  "mkdocs",
  "playwright",
  "pymdownx",
  "yaml",
];
const DEFAULT_TARGETS = ["tests"];
// The host's run does not collect tests/pyodide/smoke_test_*.py (meant for Pyodide only).
const PYTHON_FILES = "python_files=test_*.py *_test.py smoke_test_*.py";

// Installed as sys.meta_path[0]: importing a host-only package raises pytest's Skipped,
// which pytest turns into a skipped module (at collection) or a skipped test (inside one).
const SETUP = `
import importlib.abc
import importlib.machinery
import sys

import pytest

sys.dont_write_bytecode = True  # never write 3.14 .pyc files into the mounted tests/


class HostOnly(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        pytest.skip(
            f"needs {module.__name__!r}, which exists only on the host, not in Pyodide",
            allow_module_level=True,
        )


sys.meta_path.insert(0, HostOnly(HOST_ONLY))


class PyodideSettings:
    """A pytest plugin: Pyodide runs a few times slower than CPython, and slower still on
    a loaded machine, so Hypothesis gets no per-example deadline and no check that making
    examples is fast (a timing check, which failed a correct run under load); the tests'
    own settings stay as they are."""

    def pytest_configure(self, config):
        try:
            from hypothesis import HealthCheck, settings
        except ImportError:
            return
        settings.register_profile(
            "pyodide", settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
        )
        settings.load_profile("pyodide")


PLUGINS = [PyodideSettings()]
`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      wheel: { type: "string" },
      wheels: { type: "string" },
      root: { type: "string", default: path.resolve(HERE, "..", "..") },
      marker: { type: "string", default: "not browser and not host and not slow" },
      "host-only": { type: "string", default: DEFAULT_HOST_ONLY.join(",") },
    },
  });
  if (!values.wheel || !values.wheels) throw new Error("--wheel and --wheels are required");
  const root = path.resolve(values.root);
  const indexURL = path.join(root, "node_modules", "pyodide") + path.sep;
  const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);

  const pyodide = await loadPyodide({ indexURL, env: { PYTHONDONTWRITEBYTECODE: "1" } });
  // Raw writes (copied: the buffer is reused): pytest's progress dots have no newline.
  pyodide.setStdout({ write: (bytes) => (process.stdout.write(Buffer.from(bytes)), bytes.length) });
  pyodide.setStderr({ write: (bytes) => (process.stderr.write(Buffer.from(bytes)), bytes.length) });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  const wheels = readdirSync(values.wheels)
    .filter((name) => name.endsWith(".whl"))
    .map((name) => path.join(values.wheels, name));
  for (const wheel of [...wheels, path.resolve(values.wheel)]) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", {
      extractDir: sitePackages,
    });
  }

  const { FS } = pyodide;
  FS.mkdirTree("/repo/tests");
  FS.writeFile("/repo/pyproject.toml", readFileSync(path.join(root, "pyproject.toml")));
  FS.mount(FS.filesystems.NODEFS, { root: path.join(root, "tests") }, "/repo/tests");
  FS.chdir("/repo");

  pyodide.globals.set("HOST_ONLY", values["host-only"].split(",").filter(Boolean));
  pyodide.runPython(SETUP);
  const targets = positionals.length ? positionals : DEFAULT_TARGETS;
  const args = ["-m", values.marker, "-o", PYTHON_FILES, "-p", "no:cacheprovider", ...targets];
  pyodide.globals.set("PYTEST_ARGS", args);
  const code = pyodide.runPython("int(pytest.main(list(PYTEST_ARGS), plugins=PLUGINS))");
  process.exitCode = code;
}

main().catch((error) => {
  console.error(`run_pytest: ${error?.stack ?? error}`);
  process.exitCode = 3;
});
