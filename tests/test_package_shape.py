"""The package keeps its rooms: each test reads the installed modules' source and checks
one rule of the layout (README, "What is where"); which room imports which is
tests/test_layers.py's.

- only ``loading/`` opens files; no module edits ``sys.path`` or imports the build;
- sentences are made in ``words/``: elsewhere a string with spaces is a docstring or a
  field's declared description;
- every problem code an error is raised with has its words.
"""

from __future__ import annotations

import ast
from importlib.resources import files
from importlib.resources.abc import Traversable

import pytest

from lvl_rules.words.errors import DATA_PROBLEMS, MESSAGES

FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "files", "Path"}
DECLARING_CALLS = {"declare", "slot"}  # a field's one-line description is its declaration


def _modules(folder: Traversable, prefix: str = "") -> list[tuple[str, ast.Module]]:
    found = []
    for entry in folder.iterdir():
        name = f"{prefix}{entry.name}"
        if entry.is_dir() and entry.name != "__pycache__":
            found += _modules(entry, f"{name}/")
        elif entry.name.endswith(".py"):
            found.append((name, ast.parse(entry.read_text(encoding="utf-8"))))
    return sorted(found, key=lambda pair: pair[0])


MODULES = _modules(files("lvl_rules"))


def _room(name: str) -> str:
    return name.split("/")[0] if "/" in name else ""


def _imports(tree: ast.Module) -> list[str]:
    """Every module a file imports, as written (``..words.errors``, ``json``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append("." * node.level + (node.module or ""))
    return out


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_the_rooms_are_there() -> None:
    """The package has its five rooms, each with modules in it."""
    rooms = {_room(name) for name, _ in MODULES} - {""}
    assert {"engines", "faces", "loading", "model", "words"} == rooms


def test_only_loading_opens_files() -> None:
    """No module outside loading/ opens, reads or writes a file."""
    found = [
        f"{name}:{node.lineno} {_called(node)}()"
        for name, tree in MODULES
        if _room(name) != "loading"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _called(node) in FILE_CALLS
    ]
    assert [] == found


def test_no_module_edits_sys_path_or_imports_the_build() -> None:
    """The package never touches sys.path and never imports build_scripts."""
    found = [
        f"{name}:{node.lineno}"
        for name, tree in MODULES
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and getattr(node.value, "id", "") == "sys"
    ]
    found += [
        f"{name}: imports {module}"
        for name, tree in MODULES
        for module in _imports(tree)
        if module.split(".")[0] == "build_scripts"
    ]
    assert [] == found


def _sentences(tree: ast.Module) -> list[str]:
    """String literals with spaces that are neither docstrings nor declared descriptions."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            allowed.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call) and _called(node) in DECLARING_CALLS:
            allowed.update(id(arg) for arg in node.args)
    return [
        f"{node.lineno}: {node.value[:60]!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and " " in node.value.strip()
        and id(node) not in allowed
    ]


@pytest.mark.parametrize(
    "name",
    [
        n
        for n, _ in MODULES
        if _room(n) in ("engines", "loading", "faces") and n != "faces/export.py"
    ],
)
def test_no_sentence_is_made_outside_words(name: str) -> None:
    """Engines, loading and the faces make no sentence: words/ does (the export's schema
    descriptions are declarations, like the model's)."""
    assert [] == _sentences(dict(MODULES)[name])


def _codes(tree: ast.Module) -> list[tuple[str, str]]:
    """(catalogue, code) for every error raised with a literal problem code."""
    codes = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        called = _called(node)
        position = {"RulesError": 0, "fail": -1, "data_error": 2}.get(called)
        if position is None:
            continue
        if called == "fail":  # Table.fail(key, code) and the checker's fail(c, k, field, code)
            position = len(node.args) - 1
        arg = node.args[position] if len(node.args) > position else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            catalogue = "MESSAGES" if called == "RulesError" else "DATA_PROBLEMS"
            codes.append((catalogue, arg.value))
    return codes


def test_every_problem_code_has_words() -> None:
    """Each problem code the package raises has a sentence in words/errors.py."""
    raised = {pair for _, tree in MODULES for pair in _codes(tree)}
    assert len(raised) > 60
    catalogues = {"MESSAGES": MESSAGES, "DATA_PROBLEMS": DATA_PROBLEMS}
    assert [] == sorted(code for catalogue, code in raised if code not in catalogues[catalogue])
