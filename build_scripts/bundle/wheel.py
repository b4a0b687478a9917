"""The one lvl_rules wheel of a build: ``dist/lvl_rules-*.whl``, made only when the source
tree has changed since it was made; and the browser's copy of it, ``dist/browser/``.

``make wheel`` installs the wheel for pip's users and the tests (``python -m
build_scripts.bundle.wheel`` prints its path). The browser gets the same wheel without
what it never runs (:data:`BUILD_ONLY`), which the MkDocs hook publishes in the engine
bundle; a build that follows ``make wheel`` reuses both, and ``mkdocs serve`` remakes them
after an edit of the package or its data.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PACKAGE = ROOT / "lvl_rules"
PATTERN = "lvl_rules-*-py3-none-any.whl"
BROWSER = DIST / "browser"
BROWSER_MORE = DIST / "browser-more"  # the browser's wheel of a build with more editions
MORE_EDITIONS = "LVL_RULES_MORE_EDITIONS"  # as lvl_rules.loading.editions reads it
# What the browser's wheel leaves out: the site build's face and the words only it reads,
# which the build writes into the pages, whose scripts read them there. Nothing the
# browser's wheel keeps imports them (tests/test_layers.py), and in Pyodide it answers
# every action the pages send as the whole wheel does (tests/test_browser_wheel.py).
BUILD_ONLY = (
    "lvl_rules/faces/site.py",
    "lvl_rules/words/engine.py",
    "lvl_rules/words/glossary.py",
    "lvl_rules/words/match.py",
    "lvl_rules/words/offline.py",
    "lvl_rules/words/site.py",
)


def current_wheel() -> Path:
    """The wheel in dist/ for the package as it is now, built with `python -m build`
    when missing or when any packaged file differs from the source tree."""
    wheels = sorted(DIST.glob(PATTERN))
    if len(wheels) == 1 and _matches_source(wheels[0]):
        return wheels[0]
    for stale in wheels:
        stale.unlink()
    # setuptools copies into build/ and never deletes there: a file removed from the
    # source would stay in every later wheel.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(DIST)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = DIST.glob(PATTERN)
    return wheel


def browser_wheel() -> Path:
    """The wheel the browser gets, in dist/browser/: the current wheel without
    :data:`BUILD_ONLY` (same name), written only when its bytes change. A build with more
    editions (``LVL_RULES_MORE_EDITIONS``: the tests' fixture editions) gets its own, with
    them, in dist/browser-more/ (never the shipped one's folder), so that the engine in the
    page knows every edition the pages show."""
    wheel = current_wheel()
    more = os.environ.get(MORE_EDITIONS)
    folder = BROWSER_MORE if more else BROWSER
    target = folder / wheel.name
    stripped = without_build_only(wheel)
    if more:
        stripped = with_more_editions(stripped, Path(more))
    if target.is_file() and target.read_bytes() == stripped:
        return target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    target.write_bytes(stripped)
    return target


def with_more_editions(wheel: bytes, more: Path) -> bytes:
    """``wheel`` with the editions of the folder ``more`` added to its editions (and their
    lines in its RECORD)."""
    added = {
        f"lvl_rules/editions/{path.relative_to(more).as_posix()}": path.read_bytes()
        for path in sorted(more.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(wheel)) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                data += "".join(
                    f"{name},sha256={_digest(content)},{len(content)}\n"
                    for name, content in added.items()
                ).encode("utf-8")
            target.writestr(info, data)
        for name, content in added.items():
            target.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def _digest(content: bytes) -> str:
    """A RECORD line's hash: urlsafe base64 of the SHA-256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()


def without_build_only(wheel: Path) -> bytes:
    """``wheel`` without the files of :data:`BUILD_ONLY` and their lines in its RECORD;
    every other member as it was (name, date, compression, bytes), in the same order."""
    left_out = set(BUILD_ONLY)
    buffer = io.BytesIO()
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            if info.filename in left_out:
                continue
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                kept = [line for line in lines if line.split(",", 1)[0] not in left_out]
                data = "".join(kept).encode("utf-8")
            member = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            member.compress_type = info.compress_type
            member.external_attr = info.external_attr
            target.writestr(member, data)
    return buffer.getvalue()


def _matches_source(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        packaged = {n for n in archive.namelist() if n.startswith("lvl_rules/")}
        sources = {
            p.relative_to(ROOT).as_posix()
            for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        if packaged != sources:
            return False
        return all(archive.read(name) == (ROOT / name).read_bytes() for name in packaged)


def main() -> int:
    """Print the path of the current wheel, building it first if needed (``--browser``:
    the browser's wheel)."""
    print(browser_wheel() if "--browser" in sys.argv[1:] else current_wheel())
    return 0


if __name__ == "__main__":
    sys.exit(main())
