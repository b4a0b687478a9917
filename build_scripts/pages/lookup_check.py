"""The build's check of the lookup page's rules table against the engine, on every key.

The page answers from the table alone, read by docs/assets/app/division-table.js; so the
build runs that very reader under Node on every key the form can send, and compares what
it finds with the engine's own answer (:mod:`lvl_rules.faces.my_division`):

- every placement key: each edition, uniform (and none, and an unknown one), LVL or belt
  (and none, and an unknown one), set of experience boxes, and age (every age the table
  lists, none, and ages past it, padded, too long or not a number);
- every comparison key, for every pair of editions the timeline compares: each uniform,
  age from 4 to 120, each rank of each of the two editions' rank axes (and none), with
  no experience box and with each one ticked (every set of boxes places like one
  of these: above);
- which fields the page asks for, at every age the table lists and the odd ones above.

A disagreement stops the build, naming the first keys where the two differ.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterator
from itertools import product
from pathlib import Path
from typing import Any

from lvl_rules.faces.my_division import (
    age_keys,
    asked_at,
    canonical,
    compare,
    comparison_text,
    experience_sets,
    placement,
    placement_text,
    rank_keys,
)
from lvl_rules.faces.site import MAX_AGE, MIN_AGE, Edition, timeline

ROOT = Path(__file__).resolve().parent.parent.parent
READER = ROOT / "tests" / "lookup" / "table_answers.mjs"
EXTRA_AGES = ("131", "999", "1234567890", " 13 ", "0013", "4.5", "-3", "thirty")
UNIFORMS = ("gi", "nogi", "", "kimono")  # the two of the rules first
SHOWN = 5  # disagreements named in the message

Key = tuple[Edition, dict[str, Any]]


def placement_keys(editions: tuple[Edition, ...]) -> Iterator[Key]:
    """Every placement key the check tries: (edition, the form's fields)."""
    for edition in editions:
        axis = edition.eligibility.axis
        for uniform in UNIFORMS:
            for rank in (*rank_keys(edition)[:-1], "bogus"):
                for boxes in experience_sets(edition):
                    for age in (*age_keys(), *EXTRA_AGES):
                        fields = {"age": age, "uniform": uniform, axis: rank}
                        if boxes:
                            fields["experience"] = list(boxes)
                        yield edition, fields


def compare_keys(editions: tuple[Edition, ...]) -> Iterator[Key]:
    """Every comparison key the check tries: on each edition the timeline compares with
    the one it amends, every rank of each rank axis of the two (and none)."""
    by_id = {edition.id: edition for edition in editions}
    for old_id, new_id in timeline().pairs():
        if old_id in by_id and new_id in by_id:
            yield from _pair_keys(by_id[old_id], by_id[new_id])


def _pair_keys(old: Edition, new: Edition) -> Iterator[Key]:
    ranks: dict[str, dict[str, None]] = {}
    for edition in (old, new):
        ranks.setdefault(edition.eligibility.axis, {}).update(
            dict.fromkeys(rank_keys(edition)[:-1])
        )
    axes = list(ranks)
    boxes = [[], *([x] for x in dict.fromkeys((*old.experiences, *new.experiences)))]
    for uniform in UNIFORMS[:2]:
        for age in range(MIN_AGE, MAX_AGE + 1):
            for chosen in product(*(list(ranks[axis]) for axis in axes)):
                for given in boxes:
                    fields = {
                        "age": str(age),
                        "uniform": uniform,
                        **dict(zip(axes, chosen, strict=True)),
                    }
                    if given:
                        fields["experience"] = given
                    yield new, fields


def ask_keys(editions: tuple[Edition, ...]) -> Iterator[tuple[Edition, str]]:
    """Every (edition, age as typed) whose asked fields the check tries."""
    for edition in editions:
        for age in (*age_keys(), *EXTRA_AGES):
            yield edition, age


def check_table(
    editions: tuple[Edition, ...],
    answers: dict[str, Any],
    *,
    placements: list[Key] | None = None,
    compares: list[Key] | None = None,
    ages: list[tuple[Edition, str]] | None = None,
) -> None:
    """Stop the build (SystemExit) if the page's reader finds, for any key, anything but
    the engine's answer. The keys default to every one (above)."""
    places = list(placement_keys(editions)) if placements is None else placements
    pairs = list(compare_keys(editions)) if compares is None else compares
    typed = list(ask_keys(editions)) if ages is None else ages
    found = read_table(
        answers,
        {
            "placements": [[e.id, f] for e, f in places],
            "compares": [[e.id, f] for e, f in pairs],
            "asks": [[e.id, {"age": age}] for e, age in typed],
            "answers": [],
        },
    )
    shown = [placement_text(p) for p in answers["placements"]]  # type: ignore[union-attr]
    wrong = [
        f"placement, edition {edition.id}, {fields}"
        for (edition, fields), index in zip(places, found["placements"], strict=True)
        if shown[index] != placement_text(placement(edition, fields))
    ]
    said = [canonical(c) for c in answers["comparisons"]]  # type: ignore[union-attr]
    wrong += [
        f"comparison, edition {edition.id}, {fields}"
        for (edition, fields), index in zip(pairs, found["compares"], strict=True)
        if ("null" if index is None else said[index]) != comparison_text(compare(edition, fields))
    ]
    wrong += [
        f"fields asked, edition {edition.id}, age {age!r}"
        for (edition, age), fields in zip(typed, found["asks"], strict=True)
        if fields != asked_at(edition, age)
    ]
    if wrong:
        raise SystemExit(
            f"LVL Rules: the lookup page's rules table disagrees with the engine on "
            f"{len(wrong)} keys, e.g. " + "; ".join(wrong[:SHOWN])
        )


def read_table(answers: dict[str, Any], keys: dict[str, Any]) -> dict[str, Any]:
    """What the page's own reader finds in the table for each key (tests/lookup/
    table_answers.mjs, under Node)."""
    with tempfile.TemporaryDirectory(prefix="lvl-lookup-") as folder:
        table_file, keys_file = Path(folder) / "table.json", Path(folder) / "keys.json"
        table_file.write_text(json.dumps(answers), encoding="utf-8")
        keys_file.write_text(json.dumps(keys), encoding="utf-8")
        done = subprocess.run(
            ["node", str(READER), str(table_file), str(keys_file)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    return json.loads(done.stdout)
