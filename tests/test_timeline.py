"""The editions timeline: each edition's own data says where it stands and what it
amends, and one place (``lvl_rules.timeline``) answers for every face, page and test."""

from __future__ import annotations

from pathlib import Path

import pytest
from broken_editions import editions_copy

from lvl_rules import RulesError, load_all, load_edition, resolve_edition, timeline
from lvl_rules.faces import api
from lvl_rules.loading import Entry, clear_cache

STATUS_LINE = 'status = "{}"'


def _status_file(root: Path, entry: Entry) -> Path:
    """The file that says an edition's status: its amendment, or its edition table."""
    folder = root / entry.id
    return folder / ("amendment.toml" if entry.amends else "edition.toml")


def _set_status(root: Path, entry: Entry, status: str) -> None:
    path = _status_file(root, entry)
    text = path.read_text(encoding="utf-8")
    old = STATUS_LINE.format(entry.status)
    assert 1 == text.count(old), path
    path.write_text(text.replace(old, STATUS_LINE.format(status)), encoding="utf-8")
    clear_cache()  # the copy's files were read before


def test_each_edition_says_its_own_status() -> None:
    """The timeline's status and amended edition are the loaded edition's own."""
    found = [(e.id, e.status, e.based_on, e.in_force_from) for e in load_all()]
    expected = [(e.id, e.status, e.amends, e.in_force_from) for e in timeline().entries]
    assert expected == found


def test_exactly_one_edition_is_in_force_and_latest_is_it() -> None:
    """One edition is in force; "latest" resolves to it, and the JSON API says so."""
    line = timeline()
    in_force = [entry.id for entry in line.entries if entry.status == "in-force"]
    assert [line.in_force()] == in_force
    assert line.in_force() == resolve_edition("latest")
    assert line.in_force() == api.editions()["latest"]


def test_no_date_is_invented() -> None:
    """The federation gives no date for the shipped editions: none is in the data."""
    assert [None] * len(timeline().entries) == [e.in_force_from for e in timeline().entries]


def test_pairs_are_each_amendment_and_what_it_amends() -> None:
    """The pairs compared are (amended, amending) for every amendment, oldest first."""
    line = timeline()
    pairs = [(load_edition(new).based_on, new) for new in line.editions() if line.amends(new)]
    assert pairs == list(line.pairs())
    for old, new in line.pairs():
        assert new in line.amended_by(old)


def test_in_force_follows_the_data_not_the_number(tmp_path: Path) -> None:
    """Put the newest edition back to draft and the one it amends in force: "latest" and
    the timeline follow the data."""
    root = editions_copy(tmp_path)
    line = timeline(root)
    newest = line.entries[-1]
    amended = line.entry(newest.amends or "")
    _set_status(root, newest, "draft")
    _set_status(root, amended, "in-force")
    moved = timeline(root)
    assert (amended.id, True) == (moved.in_force(), moved.is_draft(newest.id))
    assert amended.id == resolve_edition("latest", root)
    assert newest.id not in moved.published()


def test_two_editions_in_force_are_refused(tmp_path: Path) -> None:
    """Two editions in force: the timeline refuses, naming both."""
    root = editions_copy(tmp_path)
    line = timeline(root)
    superseded = line.entries[0]
    _set_status(root, superseded, "in-force")
    with pytest.raises(RulesError) as caught:
        timeline(root)
    assert "in-force" in str(caught.value)
    assert superseded.id in str(caught.value)
    assert line.in_force() in str(caught.value)


def test_a_draft_before_the_edition_in_force_is_refused(tmp_path: Path) -> None:
    """A draft comes after the edition in force, never before it."""
    root = editions_copy(tmp_path)
    first = timeline(root).entries[0]
    _set_status(root, first, "draft")
    with pytest.raises(RulesError) as caught:
        timeline(root)
    assert f"Edition {first.id}" in str(caught.value)
    assert "superseded" in str(caught.value)
