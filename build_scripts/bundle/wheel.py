"""The one lvl_rules wheel of a build: ``dist/lvl_rules-*.whl``, made only when the source
tree has changed since it was made.

``make wheel`` installs it for the tests (``python -m build_scripts.bundle.wheel`` prints
its path); the MkDocs hook publishes the same file in the engine bundle, so a build that
follows ``make wheel`` reuses it, and ``mkdocs serve`` rebuilds it after an edit of the
package or its data.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PACKAGE = ROOT / "lvl_rules"
PATTERN = "lvl_rules-*-py3-none-any.whl"


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
    """Print the path of the current wheel, building it first if needed."""
    print(current_wheel())
    return 0


if __name__ == "__main__":
    sys.exit(main())
