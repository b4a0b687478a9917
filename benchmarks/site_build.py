"""How long a clean site build takes, and the share spent generating pages.

Runs `mkdocs build --strict` into an empty folder three times (the first with the
engine cache as it is, so usually warm) and prints the median wall time with the
hook's own split: page generation and the engine bundle. A figure, not a test.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMING = re.compile(r"generate ([\d.]+)s, engine ([\d.]+)s \(snapshot (\w+)\)")
RUNS = 3
BUDGET_SECONDS = 10.0


def one_build() -> tuple[float, float, float, str]:
    """Wall time, generation time, engine time and snapshot state of one clean build."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", out],
            cwd=ROOT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - started
    found = TIMING.search(done.stdout + done.stderr)
    if found is None:
        raise SystemExit("the build did not report its timings")
    return wall, float(found.group(1)), float(found.group(2)), found.group(3)


def main() -> int:
    """Print the figures."""
    runs = [one_build() for _ in range(RUNS)]
    wall = statistics.median(r[0] for r in runs)
    generate = statistics.median(r[1] for r in runs)
    engine = statistics.median(r[2] for r in runs)
    print(
        f"clean site build, median of {RUNS}: {wall:.2f} s (budget {BUDGET_SECONDS:.0f} s,"
        f" {wall / BUDGET_SECONDS:.0%} of it)"
    )
    print(
        f"  generating pages from lvl_rules: {generate:.2f} s ({generate / wall:.0%} of the build)"
    )
    print(
        f"  engine bundle (Pyodide, wheel, snapshot): {engine:.2f} s ({engine / wall:.0%});"
        f" snapshot {', '.join(r[3] for r in runs)}"
    )
    print(f"  everything else (MkDocs, Material, search index): {wall - generate - engine:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
