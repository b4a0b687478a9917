"""A third edition in the tests: ``tests/fixture_editions/`` (never published) joins the
shipped editions with ``LVL_RULES_MORE_EDITIONS``. It is a draft amending the edition in
force: the command line lists it, never as the default, exports it, answers for it, and
says what it would change (``impact``), checked against the fixture's own data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from timeline_names import EDITIONS, IN_FORCE

FIXTURES = Path(__file__).parent / "fixture_editions"
DRAFT = next(entry.name for entry in FIXTURES.iterdir() if entry.is_dir())
AMENDMENT = tomllib.loads((FIXTURES / DRAFT / "amendment.toml").read_text("utf-8"))
MOVED = "leg-stretching-submission"  # the technique the fixture moves from group 2 to 3

pytestmark = pytest.mark.host


def _cli(*argv: str) -> Any:
    env = {**os.environ, "LVL_RULES_MORE_EDITIONS": str(FIXTURES)}
    done = subprocess.run(
        [sys.executable, "-m", "lvl_rules", *argv, "--json"],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert (0, "") == (done.returncode, done.stderr)
    return json.loads(done.stdout)


def test_the_draft_joins_the_timeline_but_is_not_in_force() -> None:
    """With the fixture, the editions are the shipped ones and the draft; the edition in
    force (the default, "latest") stays the shipped one."""
    found = _cli("editions")
    listed = {e["id"]: (e["status"], e["based_on"]) for e in found["editions"]}
    assert (*EDITIONS, DRAFT) == tuple(listed)
    assert ("draft", AMENDMENT["amends"]) == listed[DRAFT]
    assert IN_FORCE == found["latest"]
    assert IN_FORCE == _cli("export")["edition"]


def test_the_draft_exports_as_a_draft() -> None:
    """Its export says it is a draft, not in force, with the reworded clause."""
    found = _cli("export", "--edition", DRAFT)
    assert (DRAFT, "draft", False) == (found["edition"], found["status"], found["latest"])
    clause = next(c for c in found["clauses"] if c["id"] == "1")
    assert "the referee must pause or stop the match" in clause["markdown"]


def test_what_the_draft_would_change_is_the_moved_group() -> None:
    """``impact``: the moved technique becomes illegal at exactly the ages of the group it
    left (13-15 in the fixture's data), for every rank, and nothing else changes."""
    found = _cli("impact", "--edition", DRAFT)
    group = AMENDMENT["change"]["groups"]
    left = next(name for name, g in group.items() if MOVED not in g["adds"])
    assert (DRAFT, AMENDMENT["amends"], True) == (found["edition"], found["amends"], found["draft"])
    changed = {
        (d["kind"], d["id"], d["before"], d["after"])
        for r in found["divisions"]
        for d in r["differences"]
    }
    assert {("technique", MOVED, True, False)} == changed
    ages = {tuple(run) for row in found["divisions"] for run in row["ages"]}
    assert {(13, 15)} == ages, left
    assert [] == found["for_everyone"]


def test_an_athlete_of_the_draft_gets_its_answer() -> None:
    """A 14-year-old white belt may use the moved technique in force, not in the draft."""
    athlete = ["--age", "14", "--belt", "white", "--uniform", "gi"]
    draft = _cli("eligibility", "--edition", DRAFT, *athlete)
    in_force = _cli("eligibility", "--edition", IN_FORCE, *athlete)
    legal = lambda answer: {t["id"]: t["legal"] for t in answer["techniques"]}[MOVED]  # noqa: E731
    assert (True, False) == (legal(in_force), legal(draft))


GENERATE = """
import json
from lvl_rules import load_all
from build_scripts.pages.site_pages import generate
from build_scripts.pages.navigation import nav
from build_scripts.pages.poster import poster_html
pages = generate(load_all(), page_policy=None)
posters = {e.id: poster_html(e, None, "a4") for e in load_all()}
print(json.dumps({"pages": pages, "nav": nav(load_all()), "posters": posters}))
"""


def test_the_draft_is_marked_on_its_pages() -> None:
    """The site's pages of the draft: a banner on each, "a draft" in their titles, its
    citations marked; the navigation names it a draft; no page of the others has it."""
    env = {**os.environ, "LVL_RULES_MORE_EDITIONS": str(FIXTURES)}
    done = subprocess.run(
        [sys.executable, "-c", GENERATE], capture_output=True, text=True, env=env,
        cwd=FIXTURES.parent.parent, check=True, timeout=600,
    )  # fmt: skip
    found = json.loads(done.stdout)
    pages: dict[str, str] = found["pages"]
    draft = [name for name in pages if name.startswith(f"rules/{DRAFT}/")]
    shown = [name for name in draft if not name.endswith("print.md")]
    banner = f"Edition {DRAFT} is a draft, not in force"
    assert [] == [name for name in shown if banner not in pages[name]]
    assert [] == [name for name in shown if f"Edition {DRAFT}, a draft" not in pages[name]]
    assert f"LVL Rules, Edition {DRAFT} (draft), §1" in pages[f"rules/{DRAFT}/1.md"]
    assert [] == [name for name in pages if banner in pages[name] and name not in draft]
    assert f"Edition {DRAFT} (draft)" in json.dumps(found["nav"])
    # What is printed says so too: the printable rulebook (the PDF's source) and the poster.
    printed = pages[f"rules/{DRAFT}/print.md"]
    assert f"Edition {DRAFT}: a draft, not in force {{ .lvl-print-title }}" in printed
    assert f"“LVL Rules, Edition {DRAFT} (draft), §number”" in printed
    assert f"Edition {DRAFT}: a draft, not in force</h1>" in found["posters"][DRAFT]
    others = [e for e in found["posters"] if e != DRAFT]
    assert [] == [e for e in others if "a draft" in found["posters"][e]]
    assert [] == [e for e in others if "a draft" in pages[f"rules/{e}/print.md"]]
