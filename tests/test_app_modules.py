"""The page modules that hold a screen's state without the DOM (docs/assets/app/match-*.js),
tested by Node's built-in test runner: tests/app/*.test.mjs. The match model is tested
against the real rules engine (the wheel of dist/ in Pyodide under Node), so this needs
``npm ci`` and ``make wheel`` (make test does both).

Node 20 has JSON.rawJSON (which Chromium has, and the link reader uses to keep a number
as it was written) behind a flag, given here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from build_scripts.pages.calculator_page import page_data
from lvl_rules import load_all

ROOT = Path(__file__).resolve().parent.parent
TESTS = sorted((ROOT / "tests" / "app").glob("*.test.mjs"))


@pytest.mark.host
def test_the_page_modules_pass_their_tests(tmp_path):
    """Every Node test of the page modules passes (their report is shown if not); they
    get the calculator page's data as the build writes it (LVL_CALCULATOR_DATA)."""
    data = tmp_path / "calculator-data.json"
    data.write_text(json.dumps(page_data(load_all())), encoding="utf-8")
    env = {**os.environ, "LVL_CALCULATOR_DATA": str(data)}
    node = shutil.which("node")
    assert node, "Node.js is needed (make test installs it with npm's packages)"
    assert TESTS, "no tests/app/*.test.mjs found"
    command = [node, "--harmony-json-parse-with-source", "--test", *map(str, TESTS)]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert 0 == run.returncode, run.stdout[-6000:] + run.stderr[-2000:]
