"""The match sheet and its fingerprint: the same match gives the same SHA-256 from the
JSON API and from the command line; any change of one event, or of the division, gives
another; names and the order of keys do not."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from timeline_names import AMENDMENT, FULL  # noqa: E402

from lvl_rules.faces.api import handle  # noqa: E402

DIVISION = {"edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
EVENTS = [
    {"type": "score", "athlete": "A", "position": "takedown", "time": 12},
    {"type": "penalty", "athlete": "B", "foul": "stalling", "time": 75},
    {"type": "advantage", "athlete": "B", "time": 200},
    {"type": "submission-escaped", "athlete": "A", "locked": True, "time": 241},
    {"type": "end", "time": 300},
]


def sheet(events, **fields) -> dict:
    answer = json.loads(
        handle(json.dumps({"action": "sheet", **DIVISION, **fields, "events": events}))
    )
    assert answer["ok"], answer
    return answer["result"]


def test_the_sheet_holds_what_settles_a_protest():
    """Edition and whether it is in force, the division in words, each event with its
    time and lines citing clauses, the result with its clause, and the fingerprint."""
    result = sheet(EVENTS, names={"A": "Ana", "B": "Bia"})
    assert {"id": "2", "title": "Edition 2", "in_force": True} == result["edition"]
    assert "age 30" in result["description"]
    assert EVENTS == result["events"]
    assert all(line["cite"] for line in result["log"])
    assert "Ana" in result["result"]["summary"]
    assert result["result"]["cite"]
    canonical = json.dumps(
        {
            "form": "lvl-rules-match/1",
            "edition": AMENDMENT,
            "division": result["division"],
            "events": EVENTS,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    expected = hashlib.sha256(canonical.encode()).hexdigest()
    assert {"sha256": expected, "form": "lvl-rules-match/1"} == result["fingerprint"]
    older = {"action": "sheet", "edition": FULL, "age": 30, "lvl": 3, "uniform": "gi"}
    answer = json.loads(handle(json.dumps({**older, "events": EVENTS})))
    assert answer["result"]["edition"]["in_force"] is False


@pytest.mark.host
def test_the_command_line_gives_the_same_fingerprint(tmp_path):
    """lvl-rules sheet prints the fingerprint the JSON API gives, as text and as JSON."""
    events = tmp_path / "events.json"
    events.write_text(json.dumps(EVENTS), encoding="utf-8")
    expected = sheet(EVENTS)["fingerprint"]["sha256"]
    argv = [sys.executable, "-m", "lvl_rules", "sheet", "--edition", AMENDMENT, "--age", "30",
            "--belt", "blue", "--uniform", "gi", "--name-a", "Ana", str(events)]  # fmt: skip
    text = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120).stdout
    assert text.rstrip().endswith(expected)
    as_json = subprocess.run(
        [*argv, "--json"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert expected == json.loads(as_json)["fingerprint"]["sha256"]


def test_names_and_key_order_do_not_change_it():
    """Names only say who is who; the keys of an event in any order are the same event."""
    reordered = [dict(reversed(list(event.items()))) for event in EVENTS]
    prints = {
        sheet(EVENTS)["fingerprint"]["sha256"],
        sheet(EVENTS, names={"A": "Ana"})["fingerprint"]["sha256"],
        sheet(reordered)["fingerprint"]["sha256"],
        sheet(EVENTS, age="30", edition="latest")["fingerprint"]["sha256"],
    }
    assert 1 == len(prints)


CHANGES = st.sampled_from(["athlete", "time", "drop", "type", "add"])


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, len(EVENTS) - 1), how=CHANGES)
def test_any_change_of_one_event_changes_it(index, how):
    """Another athlete, another time, an event more or less, another kind: another print."""
    changed = copy.deepcopy(EVENTS)
    event = changed[index]
    if how == "athlete" and "athlete" in event:
        event["athlete"] = "B" if event["athlete"] == "A" else "A"
    elif how == "time":
        event["time"] += 1
    elif how == "drop":
        del changed[index]
    elif how == "type":
        changed[index] = {"type": "advantage", "athlete": "A", "time": event["time"]}
    else:
        changed.insert(index, {"type": "advantage", "athlete": "A"})
    if changed == EVENTS:
        return
    assert sheet(EVENTS)["fingerprint"]["sha256"] != sheet(changed)["fingerprint"]["sha256"]


def test_another_division_changes_it():
    """The same events for another division are another match."""
    assert sheet(EVENTS)["fingerprint"] != sheet(EVENTS, belt="purple")["fingerprint"]
