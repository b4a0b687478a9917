"""The engine's standard library (build_scripts/bundle/make_stdlib.mjs)
holds every module the engine's interpreter imports: booted as the browser boots it, it
imports every module of lvl_rules (so any module imported only inside a function too) and
answers every action."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "pyodide" / "engine_on_its_stdlib.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"

pytestmark = pytest.mark.slow


def test_every_lvl_rules_module_imports_on_the_engine_stdlib(built_site):
    """Every module of the wheel imports and every action answers on the cut library."""
    node = shutil.which("node")
    assert node, "Node.js is required"
    command = [node, str(SCRIPT), "--site", str(built_site.site), "--pyodide", str(PYODIDE)]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert 0 == done.returncode, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert [True] * 6 == report["answers"]
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    with zipfile.ZipFile(built_site.site / "engine" / manifest["wheel"]["path"]) as wheel:
        modules = {
            name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for name in wheel.namelist()
            if name.endswith(".py") and not name.endswith("__main__.py")
        }
    assert modules <= set(report["lvl_rules_modules"])


def test_the_engine_stdlib_is_a_small_part_of_pyodides_compiled(built_site):
    """What the cut keeps: the files the interpreter used, stored, a fraction of the whole,
    each module compiled by Pyodide's Python into a sourceless, unchecked hash-based .pyc."""
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    with zipfile.ZipFile(built_site.site / "engine" / manifest["stdlib"]["path"]) as cut:
        kept = cut.infolist()
        headers = {info.filename: cut.read(info)[:8] for info in kept}
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as whole:
        every = whole.namelist()
        sources = {name for name in every if name.endswith(".py")}
    assert {info.compress_type for info in kept} == {zipfile.ZIP_STORED}
    names = {info.filename for info in kept}
    assert {"json/__init__.pyc", "tomllib/_parser.pyc", "argparse.pyc"} <= names
    assert not [name for name in names if name.endswith(".py")]
    assert {name.removesuffix("c") for name in names if name.endswith(".pyc")} <= sources
    pyc_headers = [header for name, header in headers.items() if name.endswith(".pyc")]
    magics = {header[:4] for header in pyc_headers}
    assert len(magics) == 1  # one interpreter's
    assert magics.pop()[2:] == b"\r\n"
    flags = {int.from_bytes(header[4:8], "little") for header in pyc_headers}
    assert flags == {0b01}  # hash-based, not checked against a source
    assert len(kept) < len(every) / 2
    # The interpreter carries the frozen modules in itself: never read from the zip.
    assert not names & {"os.pyc", "io.pyc", "site.pyc", "importlib/_bootstrap.pyc"}
