"""The package: standard library only, a complete public API, shipped as a pure wheel.

The tests run against the installed wheel (``make wheel``), as the browser does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types
import zipfile
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

import lvl_rules

TESTS = Path(__file__).parent
SOURCE = TESTS.parent / "lvl_rules"  # the source tree the wheel is built from
DIST = TESTS.parent / "dist"
SITE_TOOLS = ("jinja2", "mkdocs", "markdown", "material")

# Run in a fresh interpreter, from a folder outside the repository, so the source tree
# cannot shadow the installed package.
IMPORT_PROBE = """
import json, sys
before = set(sys.modules)
import lvl_rules
print(json.dumps({"file": lvl_rules.__file__, "new": sorted(set(sys.modules) - before)}))
"""


def _probe(tmp_path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _walk(folder: Traversable) -> list[Traversable]:
    out = []
    for entry in folder.iterdir():
        out += _walk(entry) if entry.is_dir() else [entry]
    return out


def _wheel() -> Path:
    wheels = sorted(DIST.glob("lvl_rules-*.whl"))
    assert 1 == len(wheels), f"expected one wheel in {DIST} (run `make wheel`): {wheels}"
    return wheels[0]


@pytest.mark.host
def test_import_loads_only_the_standard_library(tmp_path: Path) -> None:
    """Importing lvl_rules in a fresh interpreter loads only standard-library modules."""
    new = _probe(tmp_path)["new"]
    assert isinstance(new, list)
    outside = [
        name
        for name in new
        if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "lvl_rules"
    ]
    assert [] == outside


@pytest.mark.host
def test_import_does_not_load_the_site_tools(tmp_path: Path) -> None:
    """Importing lvl_rules in a fresh interpreter loads neither Jinja2 nor MkDocs."""
    new = _probe(tmp_path)["new"]
    assert isinstance(new, list)
    assert [] == [name for name in new if name.split(".")[0] in SITE_TOOLS]


def test_no_module_imports_the_site_tools() -> None:
    """No module of the installed package so much as mentions importing the site tools."""
    modules = [entry for entry in _walk(files("lvl_rules")) if entry.name.endswith(".py")]
    assert len(modules) > 10
    imports = [
        entry.name
        for entry in modules
        for line in entry.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith(("import ", "from "))
        and not line.strip().startswith("from .")  # our own modules (words/markdown.py)
        and any(tool in line.split() or f"{tool}." in line for tool in SITE_TOOLS)
    ]
    assert [] == imports


@pytest.mark.host
def test_installed_package_is_the_wheel(tmp_path: Path) -> None:
    """lvl_rules is imported from site-packages, in this process and in a fresh one."""
    fresh = Path(str(_probe(tmp_path)["file"])).resolve()
    here = Path(lvl_rules.__file__).resolve()
    for location in (fresh, here):
        assert "site-packages" in location.parts
        assert not location.is_relative_to(SOURCE.resolve())


@pytest.mark.host
def test_installed_package_is_up_to_date() -> None:
    """The installed wheel holds the same code and data as the source tree (`make wheel`)."""
    installed = Path(str(files("lvl_rules")))
    patterns = ("**/*.py", "editions/*/*.toml", "py.typed")
    expected = {
        str(path.relative_to(SOURCE)): path.read_bytes()
        for pattern in patterns
        for path in SOURCE.glob(pattern)
    }
    actual = {
        name: (installed / name).read_bytes() if (installed / name).is_file() else b"(missing)"
        for name in expected
    }
    stale = sorted(name for name in expected if expected[name] != actual[name])
    assert [] == stale


@pytest.mark.host
def test_wheel_is_pure_python() -> None:
    """The wheel in dist/ is tagged py3-none-any and is pure Python (no compiled parts)."""
    wheel = _wheel()
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        lines = archive.read(metadata).decode().splitlines()
    assert {"Root-Is-Purelib: true", "Tag: py3-none-any"} <= set(lines)
    assert [] == [n for n in names if n.endswith((".so", ".pyd", ".dll", ".dylib", ".c"))]


@pytest.mark.host
def test_wheel_ships_the_data() -> None:
    """The wheel contains every edition TOML file of the source tree, the glossary's and
    py.typed."""
    with zipfile.ZipFile(_wheel()) as archive:
        names = set(archive.namelist())
    expected = {
        f"lvl_rules/{path.relative_to(SOURCE).as_posix()}"
        for pattern in ("editions/*/*.toml", "glossary/*.toml")
        for path in SOURCE.glob(pattern)
    }
    assert len(expected) >= 8
    assert expected | {"lvl_rules/py.typed"} == {
        name for name in names if name.endswith(".toml") or name.endswith("py.typed")
    }


@pytest.mark.host
def test_installed_package_has_the_data() -> None:
    """The installed package carries every edition's data files (those of the source
    tree, which only the host has) and py.typed."""
    root = files("lvl_rules")
    assert root.joinpath("py.typed").is_file()
    source = TESTS.parent / "lvl_rules" / "editions"
    expected = sorted(e.name for e in source.iterdir() if e.is_dir())
    actual = sorted(e.name for e in root.joinpath("editions").iterdir() if e.is_dir())
    assert expected == actual


def test_all_lists_the_public_names() -> None:
    """``__all__`` names exactly the public names of the package, and each exists."""
    public = {
        name
        for name, value in vars(lvl_rules).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert sorted(public) == sorted(lvl_rules.__all__)
    assert [] == [name for name in lvl_rules.__all__ if not hasattr(lvl_rules, name)]
    assert len(set(lvl_rules.__all__)) == len(lvl_rules.__all__)


def test_public_functions_are_typed() -> None:
    """Every public function has a docstring and a return annotation."""
    functions = [
        getattr(lvl_rules, name)
        for name in lvl_rules.__all__
        if isinstance(getattr(lvl_rules, name), types.FunctionType)
    ]
    assert functions
    assert [] == [
        f.__name__ for f in functions if not f.__doc__ or "return" not in f.__annotations__
    ]


def test_one_error_type() -> None:
    """RulesError is a ValueError, so callers can catch bad input the usual way."""
    assert issubclass(lvl_rules.RulesError, ValueError)
