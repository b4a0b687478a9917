""" "My division" for the lookup page: the answer for the raw form inputs, as JSON, and the
compact table of every answer, which the build writes into the page.

The form has the edition to show, age, one field per rank axis of the editions (LVL,
belt), prior experience and uniform; it asks for those of the edition chosen. An answer has
two parts, each the same from the engine (:func:`answer`, the ``my-division`` action) and
from the table (:func:`table`):

- ``placement``: the chosen edition's division from its own fields: the structured
  overview (:mod:`lvl_rules.engines.my_division`) and remarks on fields, or the error on
  the field at fault;
- ``compare``: what differs for this person between the edition and the one it amends
  (or that amends it); where their LVL or belt in one of them is not given, what differs
  whatever it is and what depends on it; and what the newer edition changed for every
  athlete. Or the error of a field that stops the comparison.

The table holds each distinct placement and comparison once. A placement is found by
edition, uniform, rank and experience (a bit per box, in the table's order), then by
age in runs; a comparison by the two editions' placements. It also says which fields can
change anything at each age (``asks``), so that the page asks only for those. The page
looks keys up and never applies a rule; the build checks that the table and the engine
agree on every key (build_scripts/pages/lookup_check.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import loading
from ..engines.division import Division, place
from ..engines.my_division import (
    Difference,
    Overview,
    Unlock,
    asked_fields,
    differences_for_any,
    for_everyone,
    overview,
    rank_matters,
)
from ..errors import RulesError
from ..model import MAX_AGE, MIN_AGE, UNIFORMS, Edition
from ..words.my_division import field_problem
from .library import load_edition, rank_axes


def fields() -> tuple[str, ...]:
    """The form's fields: edition, age, one per rank axis of the editions, uniform and
    prior experience."""
    return ("edition", "age", *rank_axes(), "uniform", "experience")


OTHER = "?"  # a rank the edition does not know: the table's key for every such value
AGE_DIGITS = 9  # the engine reads at most this many digits as an age
TABLE_AGES = range(0, MAX_AGE + 11)  # the ages the table lists: some on each side of the range
ERROR_AGES = ("", "x")  # no age, and an age that is not a number

Json = dict[str, Any]

# The engine is pure: one overview per distinct division, kept with its JSON and the
# edition it was made from (a reloaded edition, as under `mkdocs serve`, starts afresh).
_CACHE: dict[tuple[Any, ...], tuple[Edition, Overview, Json]] = {}
_TEXTS: dict[int, str] = {}  # id of a cached overview's JSON -> its canonical text
# (older edition, newer edition, the comparison), by the editions and the overviews'
# canonical JSON on each side, and the fields not known.
_COMPARED: dict[tuple[Any, ...], tuple[Edition, Edition, Json]] = {}


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
    """What differs for this person between two editions (with every LVL or belt the
    person may have in one of them where it is needed and not given), or the error that
    stops it."""
    pair = edition_pair(edition)
    if pair is None:
        return None
    sides: list[tuple[Division, ...]] = []
    unknown = []
    for rules in pair:
        try:
            sides.append((_place(rules, params),))
        except RulesError as error:
            if error.problem != "rank-required" or unknown:
                return _refused(rules, error)  # at most one rank unknown: the other is needed
            every = _every_rank(rules, params)
            if not every:
                return _refused(rules, error)
            sides.append(every)
            unknown.append((rules.id, rules.eligibility.axis))
    return comparison(sides[0], sides[1], tuple(unknown))


def _every_rank(edition: Edition, params: Mapping[str, Any]) -> tuple[Division, ...]:
    """The person with each LVL or belt of the edition that exists at their age. Prior
    experience, which acts only through the rank (it moves one rank up), is left out:
    with the rank unknown, whatever it would do is among the ranks tried."""
    axis = edition.eligibility.axis
    found = []
    for rank in edition.ranks:
        try:
            found.append(_place(edition, {**params, axis: rank, "experience": ()}))
        except RulesError:
            continue  # not a rank at this age
    return tuple(found)


def edition_pair(edition: Edition) -> tuple[Edition, Edition] | None:
    """The edition and the one it amends, or the one that amends it, oldest first."""
    known = _PAIRS.get(id(edition))
    if known is None or known[0] is not edition:
        if edition.based_on is not None:
            pair = (load_edition(edition.based_on), edition)
        else:
            newer = loading.timeline().amended_by(edition.id)
            pair = (edition, load_edition(newer[0])) if newer else None
        # Looking the other edition up lists the editions' folder: once per edition
        # (measured: half the time of the build's check of the table).
        known = (edition, pair)
        _PAIRS[id(edition)] = known
    return known[1]


_PAIRS: dict[int, tuple[Edition, tuple[Edition, Edition] | None]] = {}


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


def _refused(edition: Edition, error: RulesError) -> Json:
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


def comparison_text(shown: Json | None) -> str:
    """The canonical JSON of a comparison (:func:`compare`), made once for each."""
    if shown is None:
        return "null"
    return _TEXTS.get(id(shown)) or _canonical(shown)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _overview_json(facts: Overview) -> Json:
    athlete = facts.division
    return {
        "edition": athlete.edition_id,
        "group": facts.group.id,
        "competes_at": athlete.effective_rank if athlete.promoted else None,
        "uniform": athlete.uniform,
        "unlisted": [technique.id for technique in facts.unlisted],
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
            | ({"readings": list(fact.readings)} if fact.readings else {})
            for fact in facts.fouls
        ],
        "severe": [foul.id for foul in facts.severe],
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


def comparison(
    olds: tuple[Division, ...],
    news: tuple[Division, ...],
    unknown: tuple[tuple[str, str], ...] = (),
) -> Json:
    """What differs for the same person between an older and a newer edition. Each side
    is the person, or the person with every rank they may have where it is ``unknown``
    ((edition ID, field) of the rank not given)."""
    before = tuple(_cached(old) for old in olds)
    after = tuple(_cached(new) for new in news)
    old, new = olds[0].edition, news[0].edition
    # By the overviews' text, not their ages: people of many ages share one comparison
    # (measured: the build's check of the table 8.0 -> 2.9 s).
    key = (
        id(old), id(new), tuple(_TEXTS[id(b[2])] for b in before),
        tuple(_TEXTS[id(a[2])] for a in after), unknown,
    )  # fmt: skip
    found = _COMPARED.get(key)
    if found is None or found[0] is not old or found[1] is not new:
        compared = differences_for_any([(b[1], a[1]) for b in before for a in after])
        shown = {
            "editions": [old.id, new.id],
            "differences": [_difference_json(d) for d in compared.differences],
            "unknown": [{"edition": edition, "field": field} for edition, field in unknown],
            "depends": [{"kind": kind, "id": ident} for kind, ident in compared.depends],
            "everyone": [
                {"collection": c.collection, "id": c.id, "kind": c.kind, "cite": c.cite}
                for c in for_everyone(old, new)
            ],
        }
        if key in _COMPARED:
            _TEXTS.pop(id(_COMPARED[key][2]), None)
        found = (old, new, shown)
        _COMPARED[key] = found
        _TEXTS[id(shown)] = _canonical(shown)
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
    """The canonical JSON of a placement, reusing its overview's where it was made once
    (any other placement, one read back from JSON say, has its own made)."""
    if "answer" not in shown:
        return _canonical(shown)
    answered = shown["answer"]
    return (_TEXTS.get(id(answered)) or _canonical(answered)) + _canonical(shown["remarks"])


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
        "version": 2,
        "latest": loading.timeline().in_force(),
        "ages": {"digits": AGE_DIGITS, "listed": [TABLE_AGES.start, TABLE_AGES.stop - 1]},
        "other": OTHER,
        "editions": index,
        "compare": compared,
        "asks": {edition.id: asks(edition) for edition in editions},
        "placements": placements.items,
        "comparisons": comparisons.items,
        "pairs": pairs,
    }


def asked_at(edition: Edition, age: Any) -> list[str]:
    """The form's fields (beside age and uniform) to ask for when this edition is chosen,
    for an age as the form sends it: those that can change anything in this edition (the
    edition chosen decides which rank field the form shows; where the edition it is
    compared with goes by another rank, the comparison says what differs whatever that
    rank is). None without a valid age: the age comes first."""
    text = str(age).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= AGE_DIGITS):
        return []  # as the engine reads an age (engines.division), then checks its range
    return list(asked_fields(edition, int(text)))


def asks(edition: Edition) -> Json:
    """:func:`asked_at` for every age the form can send, as a placement's runs are:
    [[first age, [fields]], ...] (ages past the last listed share the last run), with the
    fields for no age (``none``) and for one that is not a number (``other``)."""
    runs: list[list[Any]] = []
    for age in TABLE_AGES:
        fields = asked_at(edition, age)
        if not runs or runs[-1][1] != fields:
            runs.append([age, fields])
    return {"runs": runs, "none": asked_at(edition, ""), "other": asked_at(edition, "x")}


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


__all__ = [
    "DivisionAnswer",
    "answer",
    "asked_at",
    "asks",
    "compare",
    "division_answers",
    "fields",
    "placement",
    "table",
]


# ---------------------------------------------------------------- each answer's address


@dataclass(frozen=True, kw_only=True, slots=True)
class DivisionAnswer:
    """One distinct answer of My division (an edition's overview for some athletes), with
    who gets it: the address, link preview and poster of the answer are made from it."""

    edition: str
    answer: Json  # the overview (placement's ``answer``), as the table has it
    uniform: str
    ages: tuple[int, int]  # the youngest and oldest age that get it
    ranks: tuple[str, ...]  # the LVLs or belts that get it; empty: whatever the rank
    experience: bool | None  # with prior experience only, without only; None: either
    params: dict[str, Any]  # the form of the youngest athlete who gets it
    placements: tuple[int, ...]  # the table's placements (answer and remarks) that carry it

    @property
    def slug(self) -> str:
        """The answer's address under /lookup/: ``2-nogi-13-14``, ``2-gi-18-plus-white``."""
        low, high = self.ages
        parts = [self.edition, self.uniform, str(low)]
        if high != low:
            parts.append("plus" if high == MAX_AGE else str(high))
        parts += self.ranks
        if self.experience is not None:
            parts.append("experience" if self.experience else "no-experience")
        return "-".join(parts)


def division_answers(editions: tuple[Edition, ...], answers: Json) -> tuple[DivisionAnswer, ...]:
    """Every distinct answer the table (:func:`table` of these editions) gives a valid
    form, once, with the athletes who get it, in the table's order."""
    index = {placement_text(shown): n for n, shown in enumerate(answers["placements"])}
    found: dict[str, dict[str, Any]] = {}
    for edition in editions:
        for uniform, rank, age, mask, params in placement_keys(edition):
            if not uniform or not age.isdigit() or not MIN_AGE <= int(age) <= MAX_AGE:
                continue
            shown = placement(edition, params)
            if "answer" not in shown:
                continue
            key = (_TEXTS.get(id(shown["answer"])) or _canonical(shown["answer"])) + uniform
            seen = found.setdefault(key, {
                "edition": edition, "answer": shown["answer"], "uniform": uniform,
                "ages": set(), "ranks": set(), "masks": set(), "params": params,
                "placements": set(),
            })  # fmt: skip
            seen["ages"].add(int(age))
            seen["ranks"].add(rank)
            seen["masks"].add(mask)
            seen["placements"].add(index[placement_text(shown)])
    return tuple(_division(seen, len(experience_sets(seen["edition"]))) for seen in found.values())


def _division(seen: dict[str, Any], masks_of: int) -> DivisionAnswer:
    edition: Edition = seen["edition"]
    masks = seen["masks"]
    experience = None
    if edition.experiences and len(masks) < masks_of:
        experience = True if 0 not in masks else False if masks == {0} else None
    ranks = () if "" in seen["ranks"] else tuple(r for r in edition.ranks if r in seen["ranks"])
    params = {**seen["params"], "edition": edition.id}
    return DivisionAnswer(
        edition=edition.id,
        answer=seen["answer"],
        uniform=seen["uniform"],
        ages=(min(seen["ages"]), max(seen["ages"])),
        ranks=ranks,
        experience=experience,
        params={k: v for k, v in params.items() if v not in ("", ())},
        placements=tuple(sorted(seen["placements"])),
    )
