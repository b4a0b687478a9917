"""Every clause ID cited anywhere exists in the edition it is cited for.

Citations come from the engines (every log line of a broad set of matches covering every
event type, every eligibility answer), from the rule data (groups, positions and their
variants, escapes, advantages, fouls, ladders, methods, scoring settings, notes) and from
cross-references written inside text (``{§x}`` in clauses, notes and fouls, ``§x`` in
the engines' plain-words reasons).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from timeline_names import EDITIONS, FULL

from lvl_rules import Division, Edition, check_all, division, score_match
from lvl_rules.model.rulebook import REFERENCE
from lvl_rules.words.division import describe

PLAIN_REFERENCE = re.compile(r"§(\d+(?:\.\d+)*)")
Cited = list[tuple[str, str]]  # (where it is cited, clause ID)


def _athletes(edition_id: str, all_athletes: Any) -> Iterator[Division]:
    ages = (4, 12, 13, 14, 15, 16, 17, 18, 40, 120)
    for athlete in all_athletes(edition_id, ages):
        yield division(edition_id, **athlete)


def _matches(edition: Edition, age: int = 30) -> Iterator[list[dict[str, Any]]]:
    """Event lists that together use every event type, field and record of the edition.

    Penalties run to the last step of the scale: the 6th under fifteen, else the 4th (8.2).
    """
    steps = 6 if age <= 14 else 4
    for position in edition.positions.values():
        yield [{"type": "score", "athlete": "A", "position": position.id}]
        yield [{"type": "score", "athlete": "B", "position": position.id, "repeated": True}]
        for variant in position.variants:
            yield [{"type": "score", "athlete": "A", "position": position.id, "variant": variant}]
    yield [{"type": "advantage", "athlete": "A"}]
    for reason in edition.advantages:
        yield [{"type": "advantage", "athlete": "B", "reason": reason}]
    for locked in (False, True):
        yield [{"type": "submission-escaped", "athlete": "A", "locked": locked}]
    for foul in edition.fouls.values():
        if foul.on_ladder:
            for defending in (False, True):
                event = {"type": "penalty", "athlete": "A", "foul": foul.id}
                yield [{**event, "defending": defending}] * steps
        else:
            yield [{"type": "severe-foul", "athlete": "B", "foul": foul.id}]
    for kind in ("technical", "disciplinary"):
        yield [{"type": "severe-foul", "athlete": "A", "kind": kind}]
    for count in (3, steps):
        yield [{"type": "penalty", "athlete": "both", "foul": "stalling"}] * count
    for technique in edition.techniques:
        yield [{"type": "technique", "athlete": "A", "technique": technique}]
    rulings = [*edition.positions, "advantage", "none", "penalty"]
    for index, ruling in enumerate(rulings):
        yield [{"type": "panel", "athlete": "A", "rulings": [ruling, rulings[index - 1], "none"]}]
    for award in edition.awards:
        given = {"type": "award", "athlete": "B", "award": award}
        if award == "disqualified-in-error":  # it withdraws the disqualification before it
            yield [{"type": "severe-foul", "athlete": "B", "foul": "illegal-hold"}, given]
        else:
            yield [given]
    yield [{"type": "time-expired"}, {"type": "advantage", "athlete": "A"}, {"type": "end"}]
    yield [{"type": "submission", "athlete": "A"}]
    yield [{"type": "stoppage", "athlete": "B"}]
    yield [{"type": "loss-of-consciousness", "athlete": "A", "head_trauma": True}]
    scoreboards: list[list[dict[str, Any]]] = [
        [{"type": "score", "athlete": "A", "position": "takedown"}],
        [{"type": "advantage", "athlete": "B"}],
        [{"type": "penalty", "athlete": "A", "foul": "stalling"}],
        [],
    ]
    ends: list[dict[str, Any]] = [
        {"type": "end"},
        {"type": "end", "referee_decision": "B"},
        {"type": "end", "both_injured": True},
        {"type": "end", "both_injured": True, "final": True},
        {"type": "end", "both_injured": True, "final": True, "random_draw": "A"},
    ]
    for before in scoreboards:
        for end in ends:
            yield [*before, end]


def _engine_citations(edition: Edition, athletes: list[Division]) -> Cited:
    cited: Cited = []
    for athlete in athletes:
        for answer in check_all(athlete):
            where = f"answer {answer.technique.id} for {describe(athlete)}"
            cited.append((where, answer.cite))
            cited += [(f"{where}, reason", ref) for ref in PLAIN_REFERENCE.findall(answer.reason)]
    top = {"lvl": "4"} if edition.id == FULL else {"belt": "black"}
    low = {"lvl": "1"} if edition.id == FULL else {"belt": "white", "experience": ["mma"]}
    extra = [
        division(edition.id, age=30, uniform="nogi", **top),
        division(edition.id, age=30, uniform="gi", **low),
    ]
    for athlete in [*athletes[:: max(1, len(athletes) // 12)], *extra]:
        for events in _matches(edition, athlete.age):
            report = score_match(athlete, events)
            for line in report.log:
                where = f"log of {events[line.event]['type']} for {describe(athlete)}"
                cited.append((where, line.cite))
                cited += [(f"{where}, text", ref) for ref in PLAIN_REFERENCE.findall(line.effect)]
            result = report.to_json()["result"]
            if result.get("cite") is not None:
                cited.append((f"result of {events[-1]['type']}", result["cite"]))
    return cited


def _data_citations(edition: Edition) -> Cited:
    cited: Cited = [("eligibility.clause", edition.eligibility.clause)]
    if edition.eligibility.promotion is not None:
        cited.append(("eligibility.promotion.clause", edition.eligibility.promotion.clause))
    scoring = edition.scoring
    for name in (
        "repeat_clause", "advantage_clause", "severe_penalty_clause", "panel_clause",
        "double_stalling_clause", "random_draw_clause", "after_time_clause",
    ):  # fmt: skip
        cited.append((f"scoring.{name}", getattr(scoring, name)))
    cited += [(f"groups.{g.id}", g.clause) for g in edition.groups]
    for position in edition.positions.values():
        cited.append((f"positions.{position.id}", position.clause))
        cited += [
            (f"positions.{position.id}.variants.{name}", variant.clause)
            for name, variant in position.variants.items()
        ]
    cited += [(f"escapes.{name}", escape.clause) for name, escape in edition.escapes.items()]
    cited += [(f"awards.{name}", award.clause) for name, award in edition.awards.items()]
    cited += [(f"advantages.{r.id}", r.clause) for r in edition.advantages.values()]
    for foul in edition.fouls.values():
        cited.append((f"fouls.{foul.id}", foul.clause))
        cited += [(f"fouls.{foul.id}.description", r) for r in REFERENCE.findall(foul.description)]
    cited += [(f"counts.{c.id}", c.clause) for c in edition.counts.values()]
    cited += [(f"ladders.{ladder.id}", ladder.clause) for ladder in edition.ladders]
    cited += [(f"methods.{m.id}", m.clause) for m in edition.methods.values()]
    for note in edition.notes.values():
        cited.append((f"notes.{note.id}.clause", note.clause))
        for field in ("decision", "reason"):
            text = getattr(note, field)
            cited += [(f"notes.{note.id}.{field}", ref) for ref in REFERENCE.findall(text)]
    for clause in edition.clauses.values():
        cited += [(f"clauses.{clause.id} text", ref) for ref in REFERENCE.findall(clause.text)]
        cited += [(f"clauses.{clause.id} title", ref) for ref in REFERENCE.findall(clause.title)]
    return cited


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_engine_citations_exist(
    editions: dict[str, Edition], all_athletes: Any, edition_id: str
) -> None:
    """Every clause the engines cite (log lines, answers, reasons) is in the edition."""
    edition = editions[edition_id]
    cited = _engine_citations(edition, list(_athletes(edition_id, all_athletes)))
    assert len(cited) > 1000
    assert [] == [(where, ref) for where, ref in cited if ref not in edition.clauses]


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_engine_log_covers_every_event_type(editions: dict[str, Edition], edition_id: str) -> None:
    """The matches above use every event type, so no handler's citations go unchecked."""
    edition = editions[edition_id]
    used = {event["type"] for events in _matches(edition) for event in events}
    expected = {
        "score", "advantage", "submission-escaped", "penalty", "severe-foul", "technique",
        "panel", "submission", "stoppage", "loss-of-consciousness", "end", "award",
        "time-expired",
    }  # fmt: skip
    assert expected == used


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_data_citations_exist(editions: dict[str, Edition], edition_id: str) -> None:
    """Every clause the rule data cites (records, notes, cross-references) is in the edition."""
    edition = editions[edition_id]
    cited = _data_citations(edition)
    assert [] == [(where, ref) for where, ref in cited if ref not in edition.clauses]


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_cited_notes_exist(
    editions: dict[str, Edition], all_athletes: Any, edition_id: str
) -> None:
    """Every editorial note named by a group or an eligibility answer is in the edition."""
    edition = editions[edition_id]
    named = [(f"groups.{g.id}", note) for g in edition.groups for note in g.notes]
    for athlete in _athletes(edition_id, all_athletes):
        named += [
            (f"answer {a.technique.id}", note) for a in check_all(athlete) for note in a.notes
        ]
    assert [] == [(where, note) for where, note in named if note not in edition.notes]


def test_edition_2_cites_its_own_new_clauses(editions: dict[str, Edition]) -> None:
    """Edition 2 cites its new clauses (1.1, 5.7), which Edition 1 does not have."""
    cited = {ref for _, ref in _data_citations(editions["2"])}
    assert {"1.1", "5.7"} <= cited
    assert set() == {"1.1", "5.7"} & set(editions["1"].clauses)
