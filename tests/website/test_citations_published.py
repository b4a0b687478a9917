"""The append-only list of published citation URLs (citations.txt)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lvl_rules import load_all

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "citations.txt"


def published() -> list[str]:
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_every_current_clause_is_listed():
    """Every clause of every edition has its citation URL in the list (new ones appended)."""
    listed = set(published())
    missing = [
        f"/cite/{e.id}/{c}/"
        for e in load_all()
        for c in e.clauses
        if f"/cite/{e.id}/{c}/" not in listed
    ]
    assert [] == missing


def test_list_has_no_duplicates():
    """Each citation URL is listed once."""
    urls = published()
    assert len(set(urls)) == len(urls)


def test_every_listed_citation_resolves(built_site):
    """Every URL ever published still reaches a page in a fresh build."""
    missing = [
        url
        for url in published()
        if not (built_site.site / url.strip("/") / "index.html").is_file()
    ]
    assert [] == missing


@pytest.mark.skipif(
    not shutil.which("git") or not (ROOT / ".git").exists(), reason="needs git history"
)
def test_history_never_removed_a_citation():
    """No commit ever removed or changed a line of the list: it is append-only."""
    log = subprocess.run(
        ["git", "log", "-p", "--format=", "--", "citations.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    removed = [
        line for line in log.splitlines() if line.startswith("-") and not line.startswith("---")
    ]
    assert [] == removed
