""" "My division" for the lookup page: the answer for the raw form inputs, as JSON, and the
compact table of every answer, which the build writes into the page.

The form has one field per input of both editions side by side: age, LVL (Edition 1),
belt and prior experience (Edition 2), uniform, and the edition to show. An answer has
two parts, each the same from the engine (:func:`answer`, the ``my-division`` action) and
from the table (:func:`table`):

- ``placement``: the chosen edition's division from its own fields: the structured
  overview (:mod:`lvl_rules.engines.my_division`) and remarks on fields, or the error on
  the field at fault;
- ``compare``: what differs for this person between the edition and the one it amends
  (or that amends it), or which field is still needed for that.

The table holds each distinct placement and comparison once. A placement is found by
edition, uniform, rank and experience (a bit per box, in the table's order), then by
age in runs; a comparison by the two editions' placements. The page looks keys up and
never applies a rule; a test proves the table and the engine agree on every key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .. import loading
from ..engines.division import Division, place
from ..engines.my_division import (
    Difference,
    Overview,
    Unlock,
    differences,
    overview,
    rank_matters,
)
from ..errors import RulesError
from ..model import MAX_AGE, UNIFORMS, Edition
from ..words.my_division import field_problem
from .library import load_edition

FIELDS = ("edition", "age", "lvl", "belt", "uniform", "experience")
OTHER = "?"  # a rank the edition does not know: the table's key for every such value
AGE_DIGITS = 9  # the engine reads at most this many digits as an age
TABLE_AGES = range(0, MAX_AGE + 11)  # the ages the table lists: some on each side of the range
ERROR_AGES = ("", "x")  # no age, and an age that is not a number

Json = dict[str, Any]

# The engine is pure: one overview per distinct division, kept with its JSON and the
# edition it was made from (a reloaded edition, as under `mkdocs serve`, starts afresh).
_CACHE: dict[tuple[Any, ...], tuple[Edition, Overview, Json]] = {}
_TEXTS: dict[int, str] = {}  # id of a cached overview's JSON -> its canonical text
# (older overview's JSON, newer's, their comparison), by the ids of the two.
_COMPARED: dict[tuple[int, int], tuple[Json, Json, Json]] = {}


# ---------------------------------------------------------------- the engine's answer


def answer(params: Mapping[str, Any]) -> Json:
    """The answer to the lookup form: the chosen edition's placement and the comparison."""
    edition = load_edition(params.get("edition", "latest"))
    return {
        "edition": edition.id,
        "placement": placement(edition, params),
        "compare": compare(edition, params),
    }


def placement(edition: Edition, params: Mapping[str, Any]) -> Json:
    """One edition's division from its own fields: the overview and remarks, or the error."""
    try:
        athlete = _place(edition, params)
    except RulesError as error:
        return {"error": _error(error)}
    return {"answer": overview_json(athlete), "remarks": remarks(athlete)}


def compare(edition: Edition, params: Mapping[str, Any]) -> Json | None:
    """What differs for this person between two editions, or the field still needed."""
    pair = edition_pair(edition)
    if pair is None:
        return None
    old, new = pair
    athletes = []
    for rules in (old, new):
        try:
            athletes.append(_place(rules, params))
        except RulesError as error:
            return _missing(rules, error)
    return comparison(athletes[0], athletes[1])


def edition_pair(edition: Edition) -> tuple[Edition, Edition] | None:
    """The edition and the one it amends, or the one that amends it, oldest first."""
    if edition.based_on is not None:
        return load_edition(edition.based_on), edition
    newer = [e for e in loading.load_all() if e.based_on == edition.id]
    return (edition, newer[0]) if newer else None


def _place(edition: Edition, params: Mapping[str, Any]) -> Division:
    axis = edition.eligibility.axis
    rank = params.get(axis)
    experience = params.get("experience") if edition.experiences else None
    return place(
        edition,
        age=params.get("age"),
        uniform=params.get("uniform"),
        **{axis: None if rank == "" else rank},
        experience=experience or (),
    )


def _error(error: RulesError) -> Json:
    return {
        "field": error.field,
        "problem": error.problem,
        "message": field_problem(error.problem, error.details),
    }


def _missing(edition: Edition, error: RulesError) -> Json:
    if error.problem == "rank-required":
        return {"edition": edition.id, "needs": error.field}
    return {"edition": edition.id, "error": _error(error)}


def overview_json(athlete: Division) -> Json:
    """The structured overview of a division, without its age or given rank (so that
    athletes with the same answer share it)."""
    return _cached(athlete)[2]


def _cached(athlete: Division) -> tuple[Edition, Overview, Json]:
    key = (
        athlete.edition_id, athlete.age, athlete.rank, athlete.effective_rank,
        athlete.uniform, bool(athlete.experience),
    )  # fmt: skip
    found = _CACHE.get(key)
    if found is None or found[0] is not athlete.edition:
        facts = overview(athlete)
        shown = _overview_json(facts)
        found = (athlete.edition, facts, shown)
        if key in _CACHE:
            _TEXTS.pop(id(_CACHE[key][2]), None)
        _CACHE[key] = found
        _TEXTS[id(shown)] = _canonical(shown)
    return found


def canonical(value: Any) -> str:
    """JSON written one way only (keys sorted, no spaces): equal values, equal text."""
    return _canonical(value)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _overview_json(facts: Overview) -> Json:
    athlete = facts.division
    return {
        "edition": athlete.edition_id,
        "group": facts.group.id,
        "competes_at": athlete.effective_rank if athlete.promoted else None,
        "legal": [v.technique.id for v in facts.legal],
        "not_legal": [
            {
                "id": item.verdict.technique.id,
                "prohibited": item.verdict.technique.prohibited,
                "group": item.verdict.granting.id if item.verdict.granting else None,
                "cite": item.verdict.cite,
                "unlock": unlock_key(item.unlock),
            }
            for item in facts.not_legal
        ],
        "fouls": [
            {"id": fact.foul.id, "status": fact.status, "cite": fact.foul.clause}
            for fact in facts.fouls
        ],
        "ladder": facts.ladder.id,
    }


def unlock_key(found: Unlock) -> str:
    """An unlock as a short key (``never``, ``age=16``, ``age=18;rank=brown,black;uniform=
    nogi``), which the page's words name."""
    if found.never:
        return "never"
    parts = []
    if found.min_age is not None:
        parts.append(f"age={found.min_age}")
    if found.ranks:
        parts.append("rank=" + ",".join(found.ranks))
    if found.uniforms:
        parts.append("uniform=" + ",".join(found.uniforms))
    return ";".join(parts)


def remarks(athlete: Division) -> list[Json]:
    """Remarks on fields that were filled in but change nothing for this athlete."""
    found = []
    axis = athlete.edition.eligibility.axis
    if athlete.rank is not None and not rank_matters(athlete):
        found.append({"field": axis, "code": "rank-unused"})
    unused = athlete.unused_experience()
    if unused is not None:
        found.append({"field": "experience", "code": f"experience-{unused}"})
    return found


def comparison(old: Division, new: Division) -> Json:
    """What differs for the same person between an older and a newer edition."""
    before, after = _cached(old), _cached(new)
    key = (id(before[2]), id(after[2]))
    found = _COMPARED.get(key)
    if found is None or found[0] is not before[2] or found[1] is not after[2]:
        shown = {
            "editions": [old.edition_id, new.edition_id],
            "differences": [_difference_json(d) for d in differences(before[1], after[1])],
        }
        found = (before[2], after[2], shown)
        _COMPARED[key] = found
    return found[2]


def _difference_json(found: Difference) -> Json:
    return {
        "kind": found.kind,
        "id": found.id,
        "before": found.before,
        "after": found.after,
        "cites": list(found.cites),
        "notes": list(found.notes),
    }


# ---------------------------------------------------------------- the table


class _Distinct:
    """Each distinct JSON value once; its index is its key."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any, text: str | None = None) -> int:
        """The index of ``value`` (``text``: its canonical JSON, if already known)."""
        text = _canonical(value) if text is None else text
        if text not in self._index:
            self._index[text] = len(self.items)
            self.items.append(value)
        return self._index[text]


def placement_text(shown: Json) -> str:
    """The canonical JSON of a placement, reusing its overview's, made once."""
    if "answer" not in shown:
        return _canonical(shown)
    return _TEXTS[id(shown["answer"])] + _canonical(shown["remarks"])


def rank_keys(edition: Edition) -> list[str]:
    """The rank values the table lists for an edition: none, each rank, and any other."""
    return ["", *edition.ranks, OTHER]


def experience_sets(edition: Edition) -> list[tuple[str, ...]]:
    """Every set of experience boxes, by bit mask: bit i is the i-th experience."""
    ids = list(edition.experiences)
    return [tuple(x for i, x in enumerate(ids) if mask >> i & 1) for mask in range(1 << len(ids))]


def age_keys() -> list[str]:
    """The ages the table lists, as the form sends them."""
    return [*ERROR_AGES, *(str(age) for age in TABLE_AGES)]


def placement_keys(edition: Edition) -> Iterable[tuple[str, str, str, int, dict[str, Any]]]:
    """Every placement key of an edition: (uniform, rank, age, experience mask, params)."""
    axis = edition.eligibility.axis
    boxes = experience_sets(edition)
    ages = age_keys()
    for uniform in (*UNIFORMS, ""):
        for rank in rank_keys(edition):
            for mask, given in enumerate(boxes):
                for age in ages:
                    params = {"age": age, "uniform": uniform, axis: rank, "experience": given}
                    yield uniform, rank, age, mask, params


def table(editions: tuple[Edition, ...]) -> Json:
    """Every answer of the lookup form, deduplicated, with the keys that find them."""
    placements = _Distinct()
    comparisons = _Distinct()
    index: Json = {}
    # (edition, uniform, age) -> {placement: the params of a form that gives it}
    seen: dict[tuple[str, str, str], dict[int, dict[str, Any]]] = {}
    for edition in editions:
        runs: Json = {}
        for uniform, rank, age, mask, params in placement_keys(edition):
            shown = placement(edition, params)
            ref = placements.add(shown, placement_text(shown))
            seen.setdefault((edition.id, uniform, age), {}).setdefault(ref, params)
            runs.setdefault((uniform, rank, mask), []).append((age, ref))
        index[edition.id] = {
            "field": edition.eligibility.axis,
            "ranks": rank_keys(edition),
            "experience": list(edition.experiences),
            "keys": _compact(runs),
        }
    pairs: dict[str, int] = {}
    for edition in editions:
        pair = edition_pair(edition)
        if pair is None or pair[1] is not edition:
            continue
        old, new = pair
        for uniform in (*UNIFORMS, ""):
            for age in age_keys():
                for a, old_params in seen[(old.id, uniform, age)].items():
                    for b, new_params in seen[(new.id, uniform, age)].items():
                        key = f"{a},{b}"
                        if key not in pairs:
                            pairs[key] = comparisons.add(compare(new, {**old_params, **new_params}))
    compared = {}
    for edition in editions:
        pair = edition_pair(edition)
        if pair is not None:
            compared[edition.id] = [pair[0].id, pair[1].id]
    return {
        "version": 1,
        "latest": editions[-1].id,
        "ages": {"digits": AGE_DIGITS, "listed": [TABLE_AGES.start, TABLE_AGES.stop - 1]},
        "other": OTHER,
        "editions": index,
        "compare": compared,
        "placements": placements.items,
        "comparisons": comparisons.items,
        "pairs": pairs,
    }


def _compact(runs: Mapping[tuple[str, str, int], list[tuple[str, int]]]) -> Json:
    """For each uniform, rank and experience mask: the ages as runs, [[first age,
    placement], ...], a new run where the placement changes (ages past the last listed
    share the last run), with the placements for no age (``none``) and for an age that is
    not a number (``other``). Identical entries are stored once (``shared``)."""
    shared = _Distinct()
    keys: Json = {}
    for (uniform, rank, _mask), pairs in runs.items():  # masks in order: 0, 1, ...
        compact: list[list[int]] = []
        errors = {}
        for age, ref in pairs:
            if not age.isdigit():
                errors["none" if age == "" else "other"] = ref
            elif not compact or compact[-1][1] != ref:
                compact.append([int(age), ref])
        entry = shared.add({"runs": compact, **errors})
        keys.setdefault(uniform, {}).setdefault(rank, []).append(entry)
    return {"by": keys, "shared": shared.items}


__all__ = ["FIELDS", "answer", "compare", "placement", "table"]
