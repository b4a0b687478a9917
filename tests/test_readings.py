"""Our readings are records, and every decided sentence of the engines carries the reading
that decided it: built from the engines' outputs, every event of every type for every kind
of division, in every edition.

What a line must carry comes from the data (the places each editorial note names), not
from the engine's own bookkeeping: every record an event names (its foul, technique,
position, reason, award or escape), and every note with a place on that record, is
expected on the lines of that event from the first line that place could decide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from lvl_rules import RulesError, division, load_edition
from lvl_rules.engines import scoring
from lvl_rules.faces.api import editions
from lvl_rules.faces.library import score_match
from lvl_rules.model import UNIFORMS, Edition
from lvl_rules.words import terminal
from lvl_rules.words.markdown import heading

EDITIONS = [e["id"] for e in editions()["editions"]]
AGES = (9, 14, 15, 16, 17, 30, 40)
# The field of a record a place may name, and the kinds of line that field decides:
# who a foul applies to (only_for), and where the technique it needs is legal (unless_legal).
FIELD_DECIDES = {
    "only_for": {"foul-called", "not-a-foul-here", "severe-foul"},
    "unless_legal": {"legal-here"},
}
# The event's field that names a record, and the record's table.
NAMES = {"foul": "fouls", "technique": "techniques", "position": "positions",
         "reason": "advantages", "award": "awards"}  # fmt: skip


def _divisions(edition: Edition) -> Iterator[Any]:
    """One division of every kind the edition has: each age band and rank, both uniforms."""
    axis = edition.eligibility.axis
    for age in AGES:
        for rank in (None, *edition.ranks):
            for uniform in UNIFORMS:
                try:
                    yield division(edition, age=age, uniform=uniform, **{axis: rank})
                except RulesError:
                    continue  # a rank that does not exist at this age


def _events(edition: Edition) -> Iterator[dict[str, Any]]:
    """One event of every type, with every value the data gives it."""
    for foul in edition.fouls.values():
        kind = "penalty" if foul.group == "serious" else "severe-foul"
        yield {"type": kind, "athlete": "B", "foul": foul.id}
    for technique in edition.techniques:
        yield {"type": "technique", "athlete": "B", "technique": technique}
    for position in edition.positions:
        yield {"type": "score", "athlete": "A", "position": position}
    for reason in edition.advantages:
        yield {"type": "advantage", "athlete": "A", "reason": reason}
    for award in edition.awards:
        yield {"type": "award", "athlete": "A", "award": award}
    for locked in (False, True):
        yield {"type": "submission-escaped", "athlete": "A", "locked": locked}
    for simple in ("submission", "stoppage", "loss-of-consciousness"):
        yield {"type": simple, "athlete": "A"}
    yield {"type": "time-expired"}


def _expected(edition: Edition, event: dict[str, Any], kinds: list[str]) -> list[set[str]]:
    """The readings each line of a one-event match must carry, from the notes' places."""
    named = {(table, event[key]) for key, table in NAMES.items() if key in event}
    if "locked" in event:
        named.add(("escapes", "locked" if event["locked"] else "open"))
    wanted: list[set[str]] = []
    carried: set[str] = set()
    for kind in kinds:
        for note in edition.notes.values():
            for place in note.readings:
                if (place.collection, place.key) not in named:
                    continue
                if place.field is None or kind in FIELD_DECIDES.get(place.field, ()):
                    carried.add(note.id)
        wanted.append(set(carried))
    return wanted


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_decided_line_carries_its_reading(edition_id: str) -> None:
    """Score every event of every type for every kind of division: each line carries the
    readings of the records its event names (from the line they decide on), no other, the
    JSON lines say the same with the notes' titles, and a result carries its event's."""
    edition = load_edition(edition_id)
    marked = 0
    for athlete in _divisions(edition):
        for event in _events(edition):
            try:
                sheet = scoring.score(athlete, [event])
            except RulesError:
                continue  # an event this division cannot have (a generic foul's call, ...)
            kinds = [effect.kind for effect in sheet.effects]
            expected = _expected(edition, event, kinds)
            actual = [set(effect.readings) for effect in sheet.effects]
            assert expected == actual, (athlete, event, kinds)
            report = score_match(athlete, [event]).to_json()
            titles = [
                {r["id"]: r["title"] for r in line.get("readings", ())} for line in report["log"]
            ]
            want = [
                {n: edition.notes[n].title for n in effect.readings} for effect in sheet.effects
            ]
            assert want == titles, (athlete, event)
            result = {r["id"] for r in report["result"].get("readings", ())}
            assert result <= (actual[-1] if actual else set()), (athlete, event)
            marked += sum(1 for line in actual if line)
    assert marked > 0  # some lines of every edition are decided by a reading


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_cli_text_marks_each_decided_line(edition_id: str) -> None:
    """The CLI's text of a match prints the mark and the notes' titles on each line that
    carries a reading, and on no other line."""
    edition = load_edition(edition_id)
    for athlete in _divisions(edition):
        for event in _events(edition):
            try:
                report = score_match(athlete, [event]).to_json()
            except RulesError:
                continue
            printed = terminal.score(report).splitlines()[1 : 1 + len(report["log"])]
            for line, text in zip(report["log"], printed, strict=True):
                titles = [r["title"] for r in line.get("readings", ())]
                assert ("Our reading:" in text) == bool(titles), text
                assert all(title in text for title in titles), text


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_text_export_marks_every_clause_reading_and_prints_the_notes(edition_id: str) -> None:
    """``lvl-rules export`` text: each clause a reading names is followed by the mark with
    the note's title, and every editorial note is printed under its clause."""
    edition = load_edition(edition_id)
    text = terminal.rulebook(edition)
    for note in edition.notes.values():
        assert f"Editorial note: {note.title}" in text, note.id
        for place in note.readings:
            if place.collection != "clauses" or place.key is None:
                continue
            start = text.index(f"# {heading(edition, edition.clauses[place.key])}\n")
            after = text[start : text.index("\n#", start + 1)]
            assert "*Our reading:* " in after, (note.id, place.key)
            assert note.title in after, (note.id, place.key)
