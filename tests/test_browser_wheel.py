"""The wheel the browser gets (``build_scripts/bundle/wheel.py``: the whole wheel without
what only the site build reads) answers, inside Pyodide, every action of the JSON API as
the whole wheel does, and neither it nor the whole wheel imports what it leaves out.

Runs tests/pyodide/run_python.mjs (Pyodide from node_modules/, the browser's wheel
unpacked into site-packages and nothing else). Needs Node.js, ``npm ci`` and ``make wheel``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from timeline_names import AMENDMENT, FULL

from build_scripts.bundle import wheel
from lvl_rules.faces.api import ACTIONS, handle

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "pyodide" / "run_python.mjs"
SCRIPTS = ROOT / "docs" / "assets"
PAGE_ACTION = re.compile(r"""\baction:\s*["']([a-z-]+)["']""")
ADULT = {"edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
MATCH = [
    {"type": "score", "athlete": "A", "position": "mount"},
    {"type": "penalty", "athlete": "B", "foul": "stalling"},
    {"type": "end"},
]
# Requests of each action: answers, and refusals (whose sentences come from the words).
REQUESTS = {
    "eligibility": [
        {"action": "eligibility", **ADULT, "experience": ["wrestling"]},
        {"action": "eligibility", "edition": FULL, "age": 30, "lvl": 3, "uniform": "nogi"},
        {"action": "eligibility", "edition": AMENDMENT, "age": -3, "belt": "blue"},
    ],
    "divisions-for": [{"action": "divisions-for", "edition": AMENDMENT, "technique": "heel-hook"}],
    "score": [
        {"action": "score", **ADULT, "events": MATCH},
        {"action": "score", **ADULT, "events": MATCH, "log_from": 2},
        {"action": "score", **ADULT, "events": [{"type": "penalty", "athlete": "B"}]},
        {
            "action": "score",
            **ADULT,
            "events": [*MATCH, None],
            "set_aside": True,
            "match": "wheel",
            "legality": True,
            "names": {"A": "Ana", "B": "Bia"},
        },
    ],
    "sheet": [
        {
            "action": "sheet",
            **ADULT,
            "events": [{**MATCH[0], "time": 12}, *MATCH[1:]],
            "names": {"A": "Ana"},
        },
        {"action": "sheet", **ADULT, "events": "not a list"},
    ],
    "editions": [{"action": "editions"}],
    "export": [{"action": "export", "edition": FULL}],
    "limits": [{"action": "limits"}],
    "my-division": [
        {"action": "my-division", **ADULT},
        {"action": "my-division", "edition": AMENDMENT, "age": 30},
    ],
}
# In Pyodide: answer every request, note which lvl_rules modules that imported, then
# import every module of the wheel (a module imported only inside a function too).
IN_PYODIDE = """
import importlib, json, os, sys

import lvl_rules
from lvl_rules.faces.api import handle

answers = [json.loads(handle(json.dumps(request))) for request in json.loads(REQUESTS)]
answering = sorted(name for name in sys.modules if name.startswith("lvl_rules"))
package = os.path.dirname(lvl_rules.__file__)
shipped = sorted(
    os.path.relpath(os.path.join(folder, file), os.path.dirname(package))
    for folder, _, names in os.walk(package)
    for file in names
    if file.endswith(".py")
)
for path in shipped:
    name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    if name != "lvl_rules.__main__":  # runs the CLI
        importlib.import_module(name)
json.dumps({
    "platform": sys.platform,
    "answers": answers,
    "answering": answering,
    "shipped": shipped,
    "imported": sorted(name for name in sys.modules if name.startswith("lvl_rules")),
})
"""
# On the host, in a fresh interpreter: which modules of the whole wheel the same answers use.
ON_THE_HOST = """
import json, sys
from lvl_rules.faces.api import handle
for request in json.loads(sys.argv[1]):
    handle(json.dumps(request))
print(json.dumps(sorted(name for name in sys.modules if name.startswith("lvl_rules"))))
"""

pytestmark = [pytest.mark.host, pytest.mark.slow]


def _module(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


LEFT_OUT = {_module(path) for path in wheel.BUILD_ONLY}


def _requests() -> list[dict[str, object]]:
    missing = sorted(set(ACTIONS) - set(REQUESTS))
    assert [] == missing, "give the new actions requests in REQUESTS"
    return [request for action in ACTIONS for request in REQUESTS[action]]


@pytest.fixture(scope="module")
def in_pyodide() -> dict[str, Any]:
    """What the browser's wheel does in Pyodide (see IN_PYODIDE)."""
    node = shutil.which("node")
    assert node, "Node.js is required (see package.json)"
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), "run `npm ci` first"
    code = f"REQUESTS = {json.dumps(json.dumps(_requests()))}\n{IN_PYODIDE}"
    done = subprocess.run(
        [node, str(RUNNER), "--wheel", str(wheel.browser_wheel())],
        input=code,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert 0 == done.returncode, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_pages_send_only_actions_of_the_api():
    """Every action a page's script sends is an action of the JSON API (so the answers
    below cover what the pages ask)."""
    sent = {
        action
        for script in SCRIPTS.rglob("*.js")
        for action in PAGE_ACTION.findall(script.read_text(encoding="utf-8"))
    }
    assert {"score", "sheet"} <= sent  # the calculator, the match sheet
    assert [] == sorted(sent - set(ACTIONS))


def test_the_browser_wheel_leaves_out_only_the_build_s_files():
    """The browser's wheel holds the whole wheel's files but those of BUILD_ONLY, each
    with the same bytes, and a RECORD that lists exactly what it holds."""
    with zipfile.ZipFile(wheel.current_wheel()) as whole:
        every = {name: whole.read(name) for name in whole.namelist()}
    with zipfile.ZipFile(wheel.browser_wheel()) as browser:
        kept = {name: browser.read(name) for name in browser.namelist()}
    (record,) = [name for name in kept if name.endswith(".dist-info/RECORD")]
    assert set(wheel.BUILD_ONLY) <= set(every)
    assert sorted(set(every) - set(wheel.BUILD_ONLY)) == sorted(kept)
    assert {n: d for n, d in every.items() if n != record and n in kept} == {
        n: d for n, d in kept.items() if n != record
    }
    listed = [line.split(",", 1)[0] for line in kept[record].decode().splitlines()]
    assert sorted(kept) == sorted(listed)


def test_a_build_with_more_editions_gives_the_browser_them_apart(monkeypatch):
    """With LVL_RULES_MORE_EDITIONS (the tests' fixture editions), the browser's wheel
    holds them too, each listed in its RECORD, in a folder of its own: the shipped
    browser's wheel stays as it was."""
    fixtures = ROOT / "tests" / "fixture_editions"
    shipped = wheel.browser_wheel().read_bytes()
    monkeypatch.setenv(wheel.MORE_EDITIONS, str(fixtures))
    more = wheel.browser_wheel()
    assert wheel.BROWSER_MORE == more.parent
    added = sorted(
        f"lvl_rules/editions/{path.relative_to(fixtures).as_posix()}"
        for path in fixtures.rglob("*.toml")
    )
    with zipfile.ZipFile(more) as browser:
        (record,) = [n for n in browser.namelist() if n.endswith(".dist-info/RECORD")]
        listed = [line.split(",", 1)[0] for line in browser.read(record).decode().splitlines()]
        assert added == sorted(n for n in browser.namelist() if n.startswith(tuple(added)))
    assert set(added) <= set(listed)
    monkeypatch.delenv(wheel.MORE_EDITIONS)
    assert shipped == wheel.browser_wheel().read_bytes()


def test_the_browser_wheel_answers_as_the_whole_wheel(in_pyodide):
    """In Pyodide, the browser's wheel gives every request the whole wheel's answer on the
    host, refusals and their sentences included."""
    assert "emscripten" == in_pyodide["platform"]
    expected = [json.loads(handle(json.dumps(request))) for request in _requests()]
    assert expected == in_pyodide["answers"]
    assert {False} <= {answer["ok"] for answer in expected}  # the words of a refusal too


def test_the_browser_wheel_ships_and_imports_nothing_left_out(in_pyodide):
    """What the browser's wheel leaves out is not in it, and nothing in it imports it:
    every module it holds imports in Pyodide."""
    shipped = {_module(path) for path in in_pyodide["shipped"]}
    assert "lvl_rules.faces.api" in shipped
    assert set() == LEFT_OUT & shipped
    assert set() == LEFT_OUT & set(in_pyodide["imported"])
    assert shipped - {"lvl_rules.__main__"} == set(in_pyodide["imported"])


def test_the_whole_wheel_answers_without_what_the_browser_s_leaves_out(in_pyodide, tmp_path):
    """On the host, the whole wheel answers the same requests with the same modules as the
    browser's wheel in Pyodide: none of what that leaves out."""
    done = subprocess.run(
        [sys.executable, "-c", ON_THE_HOST, json.dumps(_requests())],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    used = set(json.loads(done.stdout))
    assert "lvl_rules.faces.api" in used
    assert set() == LEFT_OUT & used
    assert set(in_pyodide["answering"]) == used
