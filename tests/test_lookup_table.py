"""The lookup page's rules table against the engine, on every key.

The page answers from the table at once and from the engine once it is ready: the two
must agree. The table is made by lvl_rules (:func:`lvl_rules.faces.my_division.table`);
the page reads it with docs/assets/app/division-table.js, which these tests run under
Node on every key:

- every placement key: each edition, uniform (and none, and an unknown one), LVL or belt
  (and none, and an unknown one), set of experience boxes, and age (every age the table
  lists, none, and ages past it, padded, too long or not a number);
- every comparison key: each uniform, age from 4 to 120, LVL, belt, with no experience
  box and with each one ticked (every set of boxes places like one of these: above).

And the table stays small: at most 30 KB compressed for both editions.
"""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from lvl_rules import load_all
from lvl_rules.faces.my_division import (
    age_keys,
    answer,
    canonical,
    compare,
    experience_sets,
    placement,
    placement_text,
    rank_keys,
    table,
)

pytestmark = [pytest.mark.host, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
READER = ROOT / "tests" / "lookup" / "table_answers.mjs"
BUDGET_BYTES = 30_000
EXTRA_AGES = ("131", "999", "1234567890", " 13 ", "0013", "4.5", "-3", "thirty")
UNIFORMS = ("gi", "nogi", "", "kimono")


@pytest.fixture(scope="module")
def editions():
    return load_all()


@pytest.fixture(scope="module")
def rules_table(editions):
    return table(editions)


def placement_keys(editions):
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


def compare_keys(editions):
    old, new = editions[0], editions[-1]
    boxes = [[], *([x] for x in new.experiences)]
    for uniform in ("gi", "nogi"):
        for age in range(4, 121):
            for lvl in rank_keys(old)[:-1]:
                for belt in rank_keys(new)[:-1]:
                    for given in boxes:
                        fields = {"age": str(age), "uniform": uniform, "lvl": lvl, "belt": belt}
                        if given:
                            fields["experience"] = given
                        yield new, fields


def run_reader(tmp_path, rules_table, keys):
    (tmp_path / "table.json").write_text(json.dumps(rules_table), encoding="utf-8")
    (tmp_path / "keys.json").write_text(json.dumps(keys), encoding="utf-8")
    done = subprocess.run(
        ["node", str(READER), str(tmp_path / "table.json"), str(tmp_path / "keys.json")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def test_table_and_engine_agree_on_every_key(tmp_path, editions, rules_table):
    """For every placement key and every comparison key, the page's table reader finds
    exactly what the engine answers."""
    places = list(placement_keys(editions))
    compares = list(compare_keys(editions))
    samples = [
        {"edition": "2", "age": "13", "belt": "white", "uniform": "gi"},
        {"edition": "1", "age": "30", "lvl": "3", "belt": "blue", "uniform": "nogi"},
        {"edition": "9", "age": "30", "belt": "blue", "uniform": "nogi"},
    ]
    found = run_reader(
        tmp_path,
        rules_table,
        {
            "placements": [[e.id, f] for e, f in places],
            "compares": [[e.id, f] for e, f in compares],
            "answers": samples[:2],
        },
    )
    shown = [placement_text(p) for p in rules_table["placements"]]
    wrong = [
        (edition.id, fields)
        for (edition, fields), index in zip(places, found["placements"], strict=True)
        if shown[index] != placement_text(placement(edition, fields))
    ]
    assert [] == wrong[:5]
    assert len(places) > 100_000
    said = [canonical(c) for c in rules_table["comparisons"]]
    wrong = [
        fields
        for (edition, fields), index in zip(compares, found["compares"], strict=True)
        if said[index] != canonical(compare(edition, fields))
    ]
    assert [] == wrong[:5]
    assert len(compares) > 40_000
    assert [answer(f) for f in samples[:2]] == found["answers"]


def test_the_table_is_small(rules_table):
    """Both editions' table within 30 KB compressed (gzip and brotli), as written into
    the page."""
    import brotli

    from build_scripts.pages.lookup_page import compact_json

    raw = compact_json(rules_table).encode("utf-8")
    assert len(gzip.compress(raw, compresslevel=9)) <= BUDGET_BYTES
    assert len(brotli.compress(raw, quality=11)) <= BUDGET_BYTES
