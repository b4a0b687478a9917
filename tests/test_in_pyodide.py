"""The test suite once more, inside Pyodide under Node: the interpreter the browser runs.

tests/pyodide/run_pytest.mjs boots Pyodide from node_modules/, installs the lvl_rules wheel
from dist/ and pure wheels of pytest and Hypothesis (pinned with hashes in
tests/pyodide/requirements.txt, downloaded once into .cache/pyodide-wheels/), mounts tests/
and runs pytest with ``-m "not browser and not host and not slow"``.
Needs Node.js, ``npm ci`` and ``make wheel``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "pyodide" / "run_pytest.mjs"
REQUIREMENTS = ROOT / "tests" / "pyodide" / "requirements.txt"
WHEEL_CACHE = ROOT / ".cache" / "pyodide-wheels"
DIST = ROOT / "dist"
# The suite had 481 tests for Pyodide when this was written; far fewer means tests went
# missing (a collection problem), not that the engine got smaller.
MIN_PASSED = 200
TIMEOUT_SECONDS = 900
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})", re.MULTILINE)
SUMMARY = re.compile(r"^=+ (.*) in [\d.]+s.* =+$", re.MULTILINE)

pytestmark = pytest.mark.slow


def pinned_wheels() -> list[Path]:
    """The wheels in requirements.txt, from the cache, downloaded first if any is missing."""
    pins = PIN.findall(REQUIREMENTS.read_text(encoding="utf-8"))
    assert pins, f"{REQUIREMENTS} pins nothing"
    if not all(_cached(name, version, sha) for name, version, sha in pins):
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            "--platform",
            "any",
            "--no-deps",
            "--require-hashes",
            "--dest",
            str(WHEEL_CACHE),
            "-r",
            str(REQUIREMENTS),
        ]
        subprocess.run(command, check=True, timeout=300)
    wheels = [_cached(name, version, sha) for name, version, sha in pins]
    missing = [pin[0] for pin, wheel in zip(pins, wheels, strict=True) if wheel is None]
    assert not missing, f"pip download left out {missing}"
    return [wheel for wheel in wheels if wheel is not None]


def _cached(name: str, version: str, sha256: str) -> Path | None:
    stem = re.sub(r"[-_.]+", "_", name).lower()
    for wheel in WHEEL_CACHE.glob(f"{stem}-{version}-*.whl"):
        if hashlib.sha256(wheel.read_bytes()).hexdigest() == sha256:
            return wheel
    return None


def lvl_rules_wheel() -> Path:
    """The wheel `make wheel` built, as the browser gets it."""
    wheels = sorted(DIST.glob("lvl_rules-*.whl"), key=lambda p: p.stat().st_mtime)
    if not wheels:
        pytest.fail(f"no lvl_rules wheel in {DIST}: run `make wheel` first")
    return wheels[-1]


def counts(output: str) -> dict[str, int]:
    """``{"passed": 481, "skipped": 3, ...}`` from pytest's closing summary line."""
    summaries = SUMMARY.findall(output)
    assert summaries, f"no pytest summary in the output:\n{output[-3000:]}"
    return {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", summaries[-1])}


def test_the_suite_passes_inside_pyodide(tmp_path: Path) -> None:
    """Every test that needs no host, browser or long run passes in Pyodide too."""
    node = shutil.which("node")
    assert node, "Node.js is required (see package.json)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), "run `npm ci` first"
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for wheel in pinned_wheels():
        shutil.copyfile(wheel, wheels / wheel.name)

    command = [node, str(RUNNER), "--wheel", str(lvl_rules_wheel()), "--wheels", str(wheels)]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    output = done.stdout + done.stderr
    found = counts(output)
    assert done.returncode == 0, f"pytest in Pyodide failed ({found}):\n{output[-6000:]}"
    assert found.get("failed", 0) == 0
    assert found.get("error", 0) + found.get("errors", 0) == 0
    assert found.get("passed", 0) >= MIN_PASSED, f"only {found} ran:\n{output[-3000:]}"
    assert "smoke_test_engine.py" in output, "the Pyodide smoke tests did not run"
