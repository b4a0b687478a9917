"""The rooms import one another exactly as README draws them ("How the rooms feed each
other"), the build reaches the rules only through the faces, and nothing the browser's
wheel keeps needs what it leaves out.

The imports are read with ``ast`` from the installed package (every ``import``, at the
top of a module or inside a function) and from build_scripts/ in the repository.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

from lvl_rules.errors import RulesError
from lvl_rules.model.markup import GENERATED
from lvl_rules.words.errors import message
from lvl_rules.words.markdown import MARKERS

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("errors", "model", "loading", "engines", "words", "faces")
# A line of the drawing: a room, then (after an arrow) the rooms it imports.
DRAWN = re.compile(r"^(\w+)(?:\s+─*▶\s+(\w+(?:,\s*\w+)*))?(?:\s{2,}.*)?$")


def _sources(folder: Traversable, package: str) -> dict[str, ast.Module]:
    """``{"lvl_rules.model.fields": tree, "lvl_rules.model": tree of its __init__, ...}``."""
    found: dict[str, ast.Module] = {}
    for entry in folder.iterdir():
        if entry.is_dir() and entry.name != "__pycache__":
            found.update(_sources(entry, f"{package}.{entry.name}"))
        elif entry.name.endswith(".py"):
            name = package if entry.name == "__init__.py" else f"{package}.{entry.name[:-3]}"
            found[name] = ast.parse(entry.read_text(encoding="utf-8"))
    return found


PACKAGE = _sources(files("lvl_rules"), "lvl_rules")


def _is_package(module: str) -> bool:
    return any(other.startswith(f"{module}.") for other in PACKAGE)


def imports(module: str, tree: ast.Module) -> set[str]:
    """The modules of lvl_rules that ``module`` imports, by their full names, with the
    packages that hold them: ``from ..words import terminal`` in lvl_rules.faces.cli is
    lvl_rules, lvl_rules.words and lvl_rules.words.terminal."""
    here = module if _is_package(module) else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    parts = [name.split(".") for name in found]
    parents = {".".join(part[:n]) for part in parts for n in range(1, len(part))}
    return {name for name in found | parents if name in PACKAGE} - {module}


def room(module: str) -> str | None:
    """``model`` for lvl_rules.model.fields; None for the package itself and __main__
    (the public API and the CLI's entry, which may import any room)."""
    part = module.split(".")[1] if "." in module else None
    return part if part in ROOMS else None


def room_imports() -> dict[str, set[str]]:
    """Which rooms each room's modules import (itself left out)."""
    found: dict[str, set[str]] = {name: set() for name in ROOMS}
    for module, tree in PACKAGE.items():
        source = room(module)
        if source is None:
            continue
        for target in imports(module, tree):
            to = room(target)
            if to is not None and to != source:
                found[source].add(to)
    return found


def drawn_imports(readme: str) -> dict[str, set[str]]:
    """The rooms' arrows as README's drawing gives them."""
    start = readme.index("How the rooms feed each other")
    block = readme[readme.index("```text\n", start) + 8 : readme.index("```\n", start + 1)]
    found: dict[str, set[str]] = {}
    for line in block.splitlines():
        match = DRAWN.match(line)
        assert match, f"not a room's line: {line!r}"
        assert match.group(1) in ROOMS, f"not a room: {line!r}"
        targets = match.group(2)
        found[match.group(1)] = set(re.split(r",\s*", targets)) if targets else set()
    return found


def test_every_room_is_found() -> None:
    """The package's modules are in the rooms the drawing names (errors is one module)."""
    assert set(ROOMS) == {room(name) for name in PACKAGE} - {None}
    assert {"lvl_rules", "lvl_rules.__main__"} == {n for n in PACKAGE if room(n) is None}


@pytest.mark.host
def test_the_rooms_import_as_the_readme_draws_them() -> None:
    """Every arrow of README's drawing is an import, and every import between rooms is
    an arrow of the drawing: words on top, built from codes and fields raised below."""
    drawn = drawn_imports((ROOT / "README.md").read_text(encoding="utf-8"))
    assert set(ROOMS) == set(drawn)
    assert drawn == room_imports()


def _build_imports() -> list[tuple[str, str]]:
    """(file, module) for every lvl_rules module build_scripts/ imports."""
    found = []
    for path in sorted((ROOT / "build_scripts").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            found += [
                (path.relative_to(ROOT).as_posix(), name)
                for name in names
                if name.split(".")[0] == "lvl_rules"
            ]
    return found


@pytest.mark.host
def test_the_build_reaches_the_rules_through_the_faces() -> None:
    """build_scripts imports lvl_rules itself (the public API) or lvl_rules.faces, never
    the model, loading, engines or words directly."""
    found = _build_imports()
    assert ("build_scripts/pages/chart.py", "lvl_rules.faces.site") in found
    outside = [
        f"{file}: {name}"
        for file, name in found
        if name != "lvl_rules" and not name.startswith("lvl_rules.faces")
    ]
    assert [] == outside


@pytest.mark.host
def test_nothing_the_browser_wheel_keeps_needs_what_it_leaves_out() -> None:
    """No module the browser's wheel keeps imports one it leaves out; and every module it
    keeps is imported by another it keeps (or is the package or its __main__), so what
    only the build reads cannot stay in it unnoticed."""
    from build_scripts.bundle.wheel import BUILD_ONLY  # the build, on the host only

    left_out = {
        path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in BUILD_ONLY
    }
    assert left_out <= set(PACKAGE)
    kept = {name: tree for name, tree in PACKAGE.items() if name not in left_out}
    needing = {name: sorted(imports(name, tree) & left_out) for name, tree in kept.items()}
    assert {} == {name: found for name, found in needing.items() if found}
    imported = {target for name, tree in kept.items() for target in imports(name, tree)}
    stranded = set(kept) - imported - {"lvl_rules", "lvl_rules.__main__"}
    assert set() == stranded


def test_the_loader_checks_the_markers_the_words_render() -> None:
    """The markers the model declares (which the loader checks the data against) are the
    ones words/markdown.py renders, in the same order."""
    assert GENERATED == {kind: tuple(names) for kind, names in MARKERS.items()}


@pytest.mark.host
def test_an_error_speaks_its_words_however_it_is_imported(tmp_path: Path) -> None:
    """In a fresh interpreter that imports only lvl_rules.errors, str() of a RulesError is
    words/errors.py's sentence (the package's import gives it its words)."""
    details = {"value": "kimono", "choices": ("gi", "nogi")}
    probe = (
        "from lvl_rules.errors import RulesError\n"
        f"print(str(RulesError('unknown-uniform', field='uniform', **{details!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    expected = message("unknown-uniform", {**details, "field": "uniform"})
    assert "uniform must be one of gi, nogi (Gi or No-Gi), not 'kimono'" == expected
    assert expected + "\n" == done.stdout
    assert expected == str(RulesError("unknown-uniform", field="uniform", **details))
