"""The lookup page's rules table: the build's check against the engine catches a
disagreement, the screen's state made from the table (Node's test runner), and the
table's size.

The page answers from the table alone. The build checks the table, read by the page's own
reader (docs/assets/app/division-table.js) under Node, against the engine on every key
(build_scripts/pages/lookup_check.py: every site build runs it, test_build's among them);
here, that the check fails when the two differ, and passes when they agree, on a few keys.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from build_scripts.pages.lookup_check import check_table
from lvl_rules import load_all
from lvl_rules.faces.my_division import canonical, compare, placement, table

pytestmark = [pytest.mark.host]

ROOT = Path(__file__).resolve().parent.parent
STATE_TESTS = ROOT / "tests" / "lookup" / "lookup_state.test.mjs"
BUDGET_BYTES = 30_000
PARENT = {"age": "13", "belt": "white", "uniform": "gi"}
WRESTLER = {"age": "30", "lvl": "3", "belt": "blue", "uniform": "nogi"}


@pytest.fixture(scope="module")
def editions():
    return load_all()


@pytest.fixture(scope="module")
def rules_table(editions):
    return table(editions)


def a_few_keys(editions):
    """The placements of the parent's and the wrestler's questions in both editions (and
    with a uniform unknown, empty or not given), their comparison, and the fields asked
    at 13 and 30."""
    old, new = editions
    return {
        "placements": [
            (new, PARENT), (new, {**WRESTLER, "experience": ["wrestling"]}),
            (old, {**WRESTLER, "belt": ""}), (old, {**PARENT, "lvl": "", "belt": ""}),
            # issue 36, item 11: a uniform unknown, empty or not given (the page failed)
            (new, {**PARENT, "uniform": "no-gi"}), (new, {**PARENT, "uniform": ""}),
            (new, {"age": "30", "belt": "blue"}),
        ],
        "compares": [(new, PARENT), (new, WRESTLER), (new, {**WRESTLER, "lvl": ""}),
                     (new, {"age": "30", "belt": "blue"})],
        "ages": [(new, "13"), (new, "30"), (old, "30"), (new, "")],
    }  # fmt: skip


def test_the_check_passes_where_table_and_engine_agree(editions, rules_table):
    """On the table as lvl_rules makes it, the check finds nothing to say."""
    check_table(editions, rules_table, **a_few_keys(editions))


def parents(t, editions):
    """The parent's placement in the table (the one the check asks for)."""
    text = canonical(placement(editions[1], PARENT))
    return next(shown for shown in t["placements"] if canonical(shown) == text)


def wrestlers(t, editions):
    """The wrestler's comparison in the table."""
    text = canonical(compare(editions[1], WRESTLER))
    return next(shown for shown in t["comparisons"] if canonical(shown) == text)


@pytest.mark.parametrize(
    ("spoil", "named"),
    [
        (lambda t, e: parents(t, e)["answer"]["legal"].append("heel-hook"), "placement"),
        (lambda t, e: wrestlers(t, e)["differences"].pop(), "comparison"),
        (lambda t, e: wrestlers(t, e)["everyone"].pop(), "comparison"),
        (lambda t, e: t["asks"]["2"]["runs"][1][1].remove("belt"), "fields asked, edition 2"),
        (lambda t, e: t["editions"]["2"]["keys"]["shared"].reverse(), "placement, edition 2"),
    ],
    ids=["an-answer", "a-difference", "a-change-for-everyone", "a-field-asked", "a-key"],
)
def test_the_check_catches_a_disagreement(editions, rules_table, spoil, named):
    """A table that differs from the engine in an answer, a comparison, the fields asked
    or a key stops the build, with a message naming where."""
    spoilt = copy.deepcopy(rules_table)
    spoil(spoilt, editions)
    with pytest.raises(SystemExit) as stopped:
        check_table(editions, spoilt, **a_few_keys(editions))
    assert "rules table disagrees with the engine" in str(stopped.value)
    assert named in str(stopped.value)


def test_the_screen_state_under_nodes_test_runner(tmp_path, rules_table):
    """The lookup screen's DOM-free state (lookup-state.js, the fields asked) on the real
    table: tests/lookup/lookup_state.test.mjs, run by Node's test runner."""
    (tmp_path / "table.json").write_text(json.dumps(rules_table), encoding="utf-8")
    done = subprocess.run(
        ["node", "--test", str(STATE_TESTS)],
        capture_output=True, text=True, check=False,
        env={**os.environ, "LVL_LOOKUP_TABLE": str(tmp_path / "table.json")},
    )  # fmt: skip
    assert 0 == done.returncode, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
    assert "# pass 7" in done.stdout


def test_the_table_is_small(rules_table):
    """Both editions' table within 30 KB compressed (gzip and brotli), as written into
    the page."""
    import brotli

    from build_scripts.pages.lookup_page import compact_json

    raw = compact_json(rules_table).encode("utf-8")
    assert len(gzip.compress(raw, compresslevel=9)) <= BUDGET_BYTES
    assert len(brotli.compress(raw, quality=11)) <= BUDGET_BYTES
