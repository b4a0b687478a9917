"""Copies of the shipped editions, corrupted as a case of ``tests/broken/`` says, for the
tests that the loader, the command line and the site build reject broken data.

Each ``tests/broken/*.toml`` corrupts a copy of the shipped ``editions`` folder in one way:
``replace`` text (which must occur exactly once) ``with`` other text, ``append`` text, or
give a whole file's ``content``; ``encoding`` (default UTF-8) is the one the corrupted file
is written in. ``edition`` is the edition to load, ``expect``, ``absent`` and ``xfail``
what the loader's message must say (``test_broken_data.py``).
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(BROKEN.glob("*.toml"))
KEYS = {
    "edition", "file", "replace", "with", "append", "content", "encoding", "expect", "absent",
    "xfail",
}  # fmt: skip


def _copy(source: Traversable, target: Path) -> None:
    target.mkdir()
    for entry in source.iterdir():
        if entry.is_dir():
            _copy(entry, target / entry.name)
        else:
            (target / entry.name).write_bytes(entry.read_bytes())


def editions_copy(folder: Path) -> Path:
    """An unchanged copy of the shipped editions, as ``folder/editions``."""
    root = folder / "editions"
    _copy(files("lvl_rules").joinpath("editions"), root)
    return root


def apply(case: dict[str, Any], root: Path) -> None:
    """Corrupt the copy at ``root`` as ``case`` says."""
    path = root / case["file"]
    encoding = case.get("encoding", "utf-8")
    if "content" in case:
        path.write_text(case["content"], encoding=encoding)
        return
    text = path.read_text(encoding="utf-8")
    if "append" in case:
        path.write_text(text + case["append"], encoding=encoding)
        return
    assert 1 == text.count(case["replace"]), f"{case['file']}: 'replace' must occur once"
    path.write_text(text.replace(case["replace"], case["with"]), encoding=encoding)


def read_case(path: Path) -> dict[str, Any]:
    """One case, its keys checked."""
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    assert set(case) <= KEYS, f"{path.name}: unknown keys {set(case) - KEYS}"
    return case


def broken_copy(path: Path, folder: Path) -> Path:
    """A copy of the shipped editions in ``folder``, corrupted as the case at ``path`` says."""
    root = editions_copy(folder)
    apply(read_case(path), root)
    return root
