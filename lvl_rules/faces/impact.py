"""What an edition would change, for whom: for an edition against the one it amends,
every division whose answer changes (techniques that become legal or illegal, fouls
that come or go, the penalty scale) with the clauses, and what changes for everyone
(the scoring tables). Computed from the engines (:mod:`lvl_rules.engines.my_division`)
over every division of the two editions; ``lvl-rules impact`` and the JSON API show it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import loading
from ..engines.division import Division
from ..engines.my_division import differences, for_everyone
from ..errors import RulesError
from ..model import MAX_AGE, MIN_AGE, UNIFORMS, Edition
from .library import load_edition
from .my_division import _cached, _difference_json, _place

Json = dict[str, Any]


def impact(edition: Edition) -> Json:
    """Every division whose answer changes from the amended edition to this one: the
    divisions (uniform, the ranks on each edition's axis, a run of ages) with the same
    differences together, and the changes that concern every athlete."""
    base_id = loading.timeline().amends(edition.id)
    if base_id is None:
        raise RulesError("amends-none", field="edition", edition=edition.id)
    old = load_edition(base_id)
    runs: dict[tuple[Any, ...], list[list[int]]] = {}
    for uniform, ranks, age, before, after in _divisions(old, edition):
        found = differences(_cached(before)[1], _cached(after)[1])
        if not found:
            continue
        key = (uniform, tuple(ranks.items()), found)
        ages = runs.setdefault(key, [])
        if ages and ages[-1][1] == age - 1:
            ages[-1][1] = age
        else:
            ages.append([age, age])
    # The divisions with the same ages and differences together, when they are every
    # combination of their uniforms and ranks (else each apart).
    together: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for (uniform, ranks, found), ages in runs.items():
        key = (tuple(map(tuple, ages)), found)
        together.setdefault(key, []).append(((UNIFORM, uniform), *ranks))
    rows = []
    for (ages, found), combos in together.items():
        for fields in _products(combos):
            uniforms = fields.pop(UNIFORM)
            rows.append(
                {
                    "uniforms": uniforms,
                    "ranks": fields,
                    "ages": [list(run) for run in ages],
                    "differences": [_difference_json(d) for d in found],
                }
            )
    return {
        "edition": edition.id,
        "amends": old.id,
        "draft": loading.timeline().is_draft(edition.id),
        "axes": list(dict.fromkeys((old.eligibility.axis, edition.eligibility.axis))),
        "divisions": rows,
        "for_everyone": [
            {"collection": c.collection, "id": c.id, "kind": c.kind, "cite": c.cite}
            for c in for_everyone(old, edition)
        ],
    }


UNIFORM = "uniform"


def _products(combos: list[tuple[Any, ...]]) -> list[dict[str, list[Any]]]:
    """The combinations (each a tuple of (field, value)) as fields with lists of values:
    one when they are every combination of those lists, else one per combination."""
    names = [name for name, _ in combos[0]]
    values = [list(dict.fromkeys(combo[i][1] for combo in combos)) for i in range(len(names))]
    size = 1
    for each in values:
        size *= len(each)
    if size == len(set(combos)):
        return [dict(zip(names, values, strict=True))]
    return [{name: [value] for name, value in combo} for combo in combos]


def _divisions(
    old: Edition, new: Edition
) -> Iterator[tuple[str, dict[str, str | None], int, Division, Division]]:
    """Each person as both editions place them: uniform, age, a rank on each edition's
    axis (one rank when both go by the same axis; none where none is needed). Prior
    experience acts through the rank (one rank up), so every rank covers it."""
    old_axis, new_axis = old.eligibility.axis, new.eligibility.axis
    for uniform in UNIFORMS:
        for age in range(MIN_AGE, MAX_AGE + 1):
            params = {"age": age, "uniform": uniform}
            for old_rank, before in _ranked(old, params):
                if old_axis == new_axis:
                    pairs = [
                        (old_rank, after) for r, after in _ranked(new, params) if r == old_rank
                    ]
                else:
                    pairs = list(_ranked(new, params))
                for new_rank, after in pairs:
                    ranks = {old_axis: old_rank, new_axis: new_rank}
                    yield uniform, ranks, age, before, after


def _ranked(edition: Edition, params: dict[str, Any]) -> Iterator[tuple[str | None, Division]]:
    axis = edition.eligibility.axis
    for rank in (None, *edition.ranks):
        try:
            yield rank, _place(edition, {**params, axis: rank})
        except RulesError:
            continue  # not a rank at this age (or a rank needed)
