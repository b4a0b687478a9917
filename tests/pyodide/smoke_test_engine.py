"""Smoke tests of lvl_rules inside Pyodide: the wheel imports and answers as on the host.

Not collected by the host's pytest run (the name does not match test_*.py);
tests/pyodide/run_pytest.mjs passes it explicitly.
"""

import json
import sys
from typing import Any

import lvl_rules
from lvl_rules.faces import api

# The editions by their place on the timeline (tests/timeline_names.py, which is not
# installed beside this file in Pyodide, says the same): never an ID written here.
LINE = lvl_rules.timeline()
IN_FORCE = LINE.in_force()
FULL = next(entry.id for entry in LINE.entries if entry.amends is None)


def ask(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(api.handle(json.dumps(request)))


def test_runs_on_the_installed_wheel():
    """lvl_rules comes from site-packages, as in the browser, not from a source tree."""
    assert "site-packages" in lvl_rules.__file__


def test_runs_inside_pyodide():
    """This file is meant for Pyodide; the platform says so."""
    assert sys.platform == "emscripten"


def test_both_editions_are_listed():
    """The editions action lists the timeline's editions, the one in force as latest."""
    result = ask({"action": "editions"})["result"]
    assert [e["id"] for e in result["editions"]] == list(LINE.editions())
    assert result["latest"] == IN_FORCE


def test_heel_hook_is_not_legal_for_a_purple_belt():
    """Edition 2: heel hooks are for adult brown and black belts in No-Gi only."""
    result = ask(
        {
            "action": "eligibility",
            "edition": IN_FORCE,
            "age": 30,
            "belt": "purple",
            "uniform": "nogi",
            "experience": [],
        }
    )["result"]
    heel_hook = next(t for t in result["techniques"] if t["id"] == "heel-hook")
    assert heel_hook["legal"] is False
    assert heel_hook["cite"]


def test_mount_scores_four_points():
    """Edition 1: a mount is worth 4 points, citing its clause."""
    result = ask(
        {
            "action": "score",
            "edition": FULL,
            "age": 30,
            "lvl": 3,
            "uniform": "gi",
            "events": [{"type": "score", "athlete": "A", "position": "mount"}],
        }
    )["result"]
    assert result["athletes"]["A"]["points"] == 4
    assert result["log"][0]["cite"]


def test_a_bad_request_names_the_field():
    """An impossible age is refused with the field that is wrong."""
    answer = ask({"action": "eligibility", "edition": IN_FORCE, "age": -3, "belt": "purple"})
    assert answer["ok"] is False
    assert answer["field"] == "age"
