"""How long a clean site build takes, and the share spent generating pages.

Runs the whole build (`build_scripts.build_site`, as `make site`: strict MkDocs build,
engine bundle, PDFs, host files) into an empty folder three times, the engine's
engine cache as it is (usually warm), and prints the median wall time with its split.
A figure, not a test.
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
TIMING = re.compile(r"generate ([\d.]+)s, engine ([\d.]+)s \(standard library (\w+)\)")
STEPS = re.compile(r"site build: mkdocs ([\d.]+)s, pdf ([\d.]+)s, host files ([\d.]+)s")
RUNS = 3
BUDGET_SECONDS = 10.0


def one_build() -> dict[str, float | str]:
    """The times of one clean build, whole and by step."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "build_scripts.build_site", out],
            cwd=ROOT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - started
    output = done.stdout + done.stderr
    hook, steps = TIMING.search(output), STEPS.search(output)
    if hook is None or steps is None:
        raise SystemExit("the build did not report its timings")
    return {
        "wall": wall,
        "generate": float(hook.group(1)),
        "engine": float(hook.group(2)),
        "stdlib": hook.group(3),
        "mkdocs": float(steps.group(1)),
        "pdf": float(steps.group(2)),
        "host files": float(steps.group(3)),
    }


def main() -> int:
    """Print the figures."""
    runs = [one_build() for _ in range(RUNS)]

    def median(key: str) -> float:
        return statistics.median(float(run[key]) for run in runs)

    wall = median("wall")
    print(
        f"clean site build (make site), median of {RUNS}: {wall:.2f} s"
        f" (budget {BUDGET_SECONDS:.0f} s: {wall / BUDGET_SECONDS:.0%} of it)"
    )
    rows = [
        ("generating pages from lvl_rules", median("generate")),
        ("engine bundle (Pyodide, wheel, standard library "
         + ", ".join(str(r["stdlib"]) for r in runs) + ")", median("engine")),
        ("rest of MkDocs (Material, search index)",
         median("mkdocs") - median("generate") - median("engine")),
        ("printing the PDFs (Chromium)", median("pdf")),
        ("host files (gzip, service worker, _headers)", median("host files")),
    ]  # fmt: skip
    for label, seconds in rows:
        print(f"  {label}: {seconds:.2f} s ({seconds / wall:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
