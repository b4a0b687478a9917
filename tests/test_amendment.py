"""Edition 2 is Edition 1 merged with the amendment, and ``edition.changes`` says exactly how.

Whatever the amendment does not list is identical in both editions; whatever differs is
listed; IDs are never reused for different content. Clauses are compared as published
(``render.heading`` and ``render.body``), since a clause's generated tables can change
when the data behind them changes.
"""

from __future__ import annotations

from typing import Any

import pytest

from lvl_rules import Clause, Edition
from lvl_rules.words import markdown as render

KEYED = (
    "clauses", "notes", "techniques", "ranks", "experiences", "groups", "bands",
    "positions", "escapes", "awards", "advantages", "fouls", "counts", "ladders", "methods",
)  # fmt: skip


def _records(edition: Edition, collection: str) -> dict[str, Any]:
    records = getattr(edition, collection)
    return records if isinstance(records, dict) else {record.id: record for record in records}


def _listed(edition: Edition, collection: str, kind: str) -> set[str]:
    return {
        change.key
        for change in edition.changes
        if change.collection == collection and change.kind == kind and change.key is not None
    }


def _published(edition: Edition, clause: Clause) -> tuple[str, str]:
    return render.heading(edition, clause), render.body(edition, clause)


def _same(one: Edition, two: Edition, collection: str, key: str) -> bool:
    first, second = _records(one, collection)[key], _records(two, collection)[key]
    if collection == "clauses":
        shown_alike = _published(one, first) == _published(two, second)
        return first == second and (shown_alike or _ours(two, collection, key))
    return bool(first == second)


def _ours(edition: Edition, collection: str, key: str) -> bool:
    """Whether one of the edition's notes names the whole record as a place of our reading:
    its words are the federation's, and what it shows differently (a generated list of
    section titles) is ours, marked there, not a change the amendment made."""
    return any(
        (place.collection, place.key, place.field) == (collection, key, None)
        for note in edition.notes.values()
        for place in note.readings
    )


@pytest.fixture(scope="module")
def pair(editions: dict[str, Edition]) -> tuple[Edition, Edition]:
    """Edition 1 and Edition 2."""
    return editions["1"], editions["2"]


def test_edition_2_is_based_on_edition_1(pair: tuple[Edition, Edition]) -> None:
    """Edition 2 names Edition 1 as its base and lists its changes; Edition 1 lists none."""
    one, two = pair
    assert ("1", None, ()) == (two.based_on, one.based_on, one.changes)
    assert two.changes


@pytest.mark.parametrize("collection", KEYED)
def test_unlisted_records_are_unchanged(pair: tuple[Edition, Edition], collection: str) -> None:
    """Every Edition 1 record the amendment does not change or remove is identical in Ed 2."""
    one, two = pair
    listed = _listed(two, collection, "changed") | _listed(two, collection, "removed")
    unlisted = [key for key in _records(one, collection) if key not in listed]
    expected = dict.fromkeys(unlisted, True)
    actual = {
        key: key in _records(two, collection) and _same(one, two, collection, key)
        for key in unlisted
    }
    assert expected == actual


@pytest.mark.parametrize("collection", KEYED)
def test_every_difference_is_listed(pair: tuple[Edition, Edition], collection: str) -> None:
    """Every record that differs between the editions is listed as changed, added or removed."""
    one, two = pair
    first, second = _records(one, collection), _records(two, collection)
    expected = {
        "changed": sorted(
            k for k in first.keys() & second.keys() if not _same(one, two, collection, k)
        ),
        "added": sorted(second.keys() - first.keys()),
        "removed": sorted(first.keys() - second.keys()),
    }
    actual = {kind: sorted(_listed(two, collection, kind)) for kind in expected}
    assert expected == actual


def test_changed_clauses_really_differ(pair: tuple[Edition, Edition]) -> None:
    """Every clause listed as changed reads differently in Edition 2 than in Edition 1."""
    one, two = pair
    changed = sorted(_listed(two, "clauses", "changed"))
    expected = dict.fromkeys(changed, True)
    actual = {
        key: _published(one, one.clauses[key]) != _published(two, two.clauses[key])
        for key in changed
    }
    assert expected == actual


def test_ids_are_never_reused(pair: tuple[Edition, Edition]) -> None:
    """An added ID is new, a removed ID is gone, and no change entry is listed twice."""
    one, two = pair
    entries = [(c.collection, c.key) for c in two.changes]
    assert sorted(set(entries), key=str) == sorted(entries, key=str)
    for collection in KEYED:
        added, removed = _listed(two, collection, "added"), _listed(two, collection, "removed")
        assert set() == added & set(_records(one, collection)), collection
        assert set() == removed & set(_records(two, collection)), collection


def test_settings_changes_are_listed(pair: tuple[Edition, Edition]) -> None:
    """The settings tables that differ (edition, eligibility) are listed as changed."""
    one, two = pair
    differ = {
        name
        for name, first, second in (
            ("edition", (one.id, one.title, one.description), (two.id, two.title, two.description)),
            ("eligibility", one.eligibility, two.eligibility),
            ("scoring", one.scoring, two.scoring),
        )
        if first != second
    }
    listed = {c.collection for c in two.changes if c.key is None and c.kind == "changed"}
    assert differ == listed


def test_every_change_says_why(pair: tuple[Edition, Edition]) -> None:
    """Every change entry carries a summary for the "What changed" page."""
    _, two = pair
    assert [] == [(c.collection, c.key) for c in two.changes if not c.summary.strip()]


def test_clause_order_is_kept(pair: tuple[Edition, Edition]) -> None:
    """Edition 2 keeps Edition 1's clause order; new clauses sit after their neighbours."""
    one, two = pair
    kept = [key for key in two.clauses if key in one.clauses]
    assert [key for key in one.clauses if key in two.clauses] == kept
    order = list(two.clauses)
    assert (order.index("1") + 1, order.index("5.6") + 1) == (
        order.index("1.1"),
        order.index("5.7"),
    )
