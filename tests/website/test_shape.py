"""The shape of the build code: packages run with `python -m`, no hand-made import paths,
and the rules package never reaches into the build."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from build_scripts import mkdocs_hooks

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("pages", "bundle", "publish", "tools")


def python_files(*folders: str) -> list[Path]:
    """Every Python file under the named folders of the repository."""
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_no_module_touches_sys_path():
    """No module of the build, the benchmarks or the tests reads or edits sys.path."""
    touching = [
        str(path.relative_to(ROOT))
        for path in python_files("build_scripts", "benchmarks", "tests")
        if any(
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert [] == touching


def test_lvl_rules_never_imports_build_scripts():
    """The installed package, every module of it imported in a fresh process, brings in
    no build_scripts module (tests/test_package_shape.py reads its source for imports)."""
    probe = (
        "import importlib, pkgutil, sys, lvl_rules\n"
        "for module in pkgutil.walk_packages(lvl_rules.__path__, 'lvl_rules.'):\n"
        "    if not module.name.endswith('__main__'):\n"
        "        importlib.import_module(module.name)\n"
        "print(sorted(name for name in sys.modules if name.startswith('build_scripts')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT / "tests", capture_output=True, text=True
    )
    assert (0, "[]") == (done.returncode, done.stdout.strip()), done.stderr


def test_build_scripts_is_rooms_by_job():
    """build_scripts holds the four rooms and three top-level modules, nothing else."""
    top = {p.name for p in (ROOT / "build_scripts").iterdir() if p.name != "__pycache__"}
    assert {"__init__.py", "build_site.py", "mkdocs_hooks.py", *ROOMS} == top
    for room in ROOMS:
        assert (ROOT / "build_scripts" / room / "__init__.py").is_file(), room


def test_commands_are_run_as_packages():
    """The Makefile, the README and every docstring run build and benchmark code with
    `python -m`, never by a file path."""
    by_path = re.compile(r"python3?\s+(?:build_scripts|benchmarks)/\S+\.py")
    texts = [ROOT / "Makefile", ROOT / "README.md", *python_files("build_scripts", "benchmarks")]
    assert [] == [
        f"{path.relative_to(ROOT)}: {match}"
        for path in texts
        for match in by_path.findall(path.read_text(encoding="utf-8"))
    ]


def test_the_hook_says_how_to_run_mkdocs_when_it_cannot_import_the_build(tmp_path):
    """Loaded by file path without the repository root importable (as MkDocs loads it,
    its own folder on sys.path), the hook stops with one line saying what to do."""
    load = f"import runpy; runpy.run_path({str(Path(mkdocs_hooks.__file__))!r})"
    done = subprocess.run(
        [sys.executable, "-S", "-c", load], cwd=tmp_path, capture_output=True, text=True
    )
    assert 1 == done.returncode
    assert 1 == len(done.stderr.strip().splitlines())
    assert "python -m mkdocs" in done.stderr
