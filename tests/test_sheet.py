"""The match sheet and its fingerprint: the same match gives the same SHA-256 from the
JSON API and from the command line; any change of one event, of the division, of a name
or a colour gives another; the order of keys, the way a number or the experience is
written do not. A refused event is set aside, never the sheet."""

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
from timeline_names import AMENDMENT, FULL, IN_FORCE, TITLE  # noqa: E402

from lvl_rules.faces.api import handle  # noqa: E402
from lvl_rules.faces.cli import main as cli_main  # noqa: E402

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
    assert {"id": IN_FORCE, "title": TITLE[IN_FORCE], "in_force": True} == result["edition"]
    assert "age 30" in result["description"]
    assert EVENTS == result["events"]
    assert all(line["cite"] for line in result["log"])
    assert "Ana" in result["result"]["summary"]
    assert result["result"]["cite"]
    canonical = json.dumps(
        {
            "form": "lvl-rules-match/2",
            "edition": AMENDMENT,
            "division": result["division"],
            "athletes": {
                "A": {"name": "Ana", "colour": "blue"},
                "B": {"name": "Bia", "colour": "white"},
            },
            "details": {},
            "events": EVENTS,
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    expected = hashlib.sha256(canonical.encode()).hexdigest()
    assert {"sha256": expected, "form": "lvl-rules-match/2"} == result["fingerprint"]
    older = {"action": "sheet", "edition": FULL, "age": 30, "lvl": 3, "uniform": "gi"}
    answer = json.loads(handle(json.dumps({**older, "events": EVENTS})))
    assert answer["result"]["edition"]["in_force"] is False


@pytest.mark.host
def test_the_command_line_gives_the_same_fingerprint(tmp_path):
    """lvl-rules sheet prints the fingerprint the JSON API gives, as text and as JSON."""
    events = tmp_path / "events.json"
    events.write_text(json.dumps(EVENTS), encoding="utf-8")
    expected = sheet(EVENTS, names={"A": "Ana"})["fingerprint"]["sha256"]
    argv = [sys.executable, "-m", "lvl_rules", "sheet", "--edition", AMENDMENT, "--age", "30",
            "--belt", "blue", "--uniform", "gi", "--name-a", "Ana", str(events)]  # fmt: skip
    text = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120).stdout
    assert text.rstrip().endswith(expected)
    as_json = subprocess.run(
        [*argv, "--json"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert expected == json.loads(as_json)["fingerprint"]["sha256"]


def test_key_order_does_not_change_it():
    """The keys of an event in any order are the same event."""
    reordered = [dict(reversed(list(event.items()))) for event in EVENTS]
    prints = {
        sheet(EVENTS)["fingerprint"]["sha256"],
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


def print_of(request_text: str) -> str:
    answer = json.loads(handle(request_text))
    assert answer["ok"], answer
    return answer["result"]["fingerprint"]["sha256"]


def request_text(events_text: str, **fields) -> str:
    """A sheet request whose events are JSON text as written (5.0 stays 5.0)."""
    head = json.dumps({"action": "sheet", **DIVISION, **fields})
    return f'{head[:-1]}, "events": {events_text}}}'


def test_who_is_who_and_the_details_are_in_it():
    """Issue 36, item 15: the names the other way round, another colour or another
    detail (date, event, mat, match number) is another match."""
    ana_bia = {"A": "Ana", "B": "Bia"}
    prints = [
        sheet(EVENTS)["fingerprint"]["sha256"],
        sheet(EVENTS, names=ana_bia)["fingerprint"]["sha256"],
        sheet(EVENTS, names={"A": "Bia", "B": "Ana"})["fingerprint"]["sha256"],
        sheet(EVENTS, names=ana_bia, colours={"A": "red"})["fingerprint"]["sha256"],
        sheet(EVENTS, names=ana_bia, details={"mat": "2"})["fingerprint"]["sha256"],
        sheet(EVENTS, names=ana_bia, details={"mat": "3"})["fingerprint"]["sha256"],
    ]
    assert len(prints) == len(set(prints))
    given = sheet(EVENTS, names=ana_bia, colours={"B": "white"}, details={"date": " 2026-12-07 "})
    assert {"A": {"name": "Ana", "colour": "blue"}, "B": {"name": "Bia", "colour": "white"}} == (
        given["who"]
    )
    assert {"date": "2026-12-07"} == given["details"]
    assert "Ana" in given["result"]["summary"]


def test_a_number_has_one_form():
    """Issue 36, item 3: a time written 5.0 or 5e0 is the time 5, scored, with one
    fingerprint (the page's JavaScript writes 5 for all three)."""
    takedown = '[{"type": "score", "athlete": "A", "position": "takedown", "time": %s}]'
    prints = {print_of(request_text(takedown % written)) for written in ("5", "5.0", "5e0")}
    assert 1 == len(prints)
    answer = json.loads(handle(request_text(takedown % "5.0")))["result"]
    assert answer["athletes"]["A"]["points"] > 0
    assert [{"type": "score", "athlete": "A", "position": "takedown", "time": 5}] == (
        answer["events"]
    )


def test_experience_in_any_order_is_one_division():
    """Issue 36, item 4: prior experience given in another order is the same division."""
    white = {"edition": "latest", "age": 30, "belt": "white", "uniform": "gi"}
    prints = {
        sheet(EVENTS, **white, experience=kinds)["fingerprint"]["sha256"]
        for kinds in (["mma", "wrestling"], ["wrestling", "mma"], "wrestling,mma")
    }
    assert 1 == len(prints)


def test_an_event_beyond_a_limit_is_kept_as_recorded():
    """Issue 36, item 5: two matches that differ only in an event holding a number beyond
    the limits (a 16-digit time) have two fingerprints; the event is set aside, marked,
    and the rest scored."""
    template = '[{"type": "score", "athlete": "A", "position": "takedown", "time": %s}, %s]'
    advantage = '{"type": "advantage", "athlete": "B", "time": 9}'
    first, second = (
        json.loads(handle(request_text(template % (time, advantage))))
        for time in ("1234567890123456", "1234567890123457")
    )
    assert first["ok"], first
    assert second["ok"], second
    assert first["result"]["fingerprint"] != second["result"]["fingerprint"]
    refused = first["result"]["log"][0]
    assert {"field": "events[0]", "problem": "number-too-long"} == refused["refused"]
    assert "1234567890123456" == first["result"]["events"][0]["time"]
    assert 1 == first["result"]["athletes"]["B"]["advantages"]


def test_a_lone_surrogate_sets_one_event_aside():
    """Issue 36, item 9: an unpaired surrogate in one event sets that event aside; the
    sheet, its fingerprint and the rest of the match stand (it was an internal error)."""
    events = '[{"type": "score\\udc00", "athlete": "A"}, {"type": "advantage", "athlete": "B"}]'
    answer = json.loads(handle(request_text(events)))
    assert answer["ok"], answer
    result = answer["result"]
    assert "unknown-event-type" == result["log"][0]["refused"]["problem"]
    assert 1 == result["athletes"]["B"]["advantages"]
    assert 64 == len(result["fingerprint"]["sha256"])


def test_an_over_long_match_scores_its_first_events():
    """Issue 36, item 12: a match of 20,001 events is scored as the calculator scores it:
    the first 20,000, the last set aside and marked (the whole sheet was refused)."""
    limit = json.loads(handle('{"action": "limits"}'))["result"]["max_events"]
    events = [{"type": "advantage", "athlete": "A"}] * (limit + 1)
    result = sheet(events)
    assert limit == result["athletes"]["A"]["advantages"]
    last = result["log"][-1]
    assert (limit, "event-beyond-limit") == (last["event"], last["refused"]["problem"])
    assert limit + 1 == len(result["events"])


def first_form_fingerprint() -> str:
    """The fingerprint of EVENTS in the first canonical form (lvl-rules-match/1): the
    edition, the division and the events, no names."""
    division = {
        "form": "lvl-rules-match/1",
        "edition": AMENDMENT,
        "division": sheet(EVENTS)["division"],
    }
    first = json.dumps({**division, "events": EVENTS}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(first.encode()).hexdigest()


def test_old_fingerprints_still_verify():
    """The first form's fingerprint of a match still verifies (``verify``), the current
    one too; another match's does not."""
    old = first_form_fingerprint()
    current = sheet(EVENTS)["fingerprint"]["sha256"]
    assert "lvl-rules-match/1" == sheet(EVENTS, verify=old.upper())["verified"]
    assert "lvl-rules-match/2" == sheet(EVENTS, verify=current)["verified"]
    assert sheet(EVENTS[1:], verify=old)["verified"] is None


SHEET_ARGS = ["sheet", "--edition", AMENDMENT, "--age", "30", "--belt", "blue", "--uniform", "gi"]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli_main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def events_file(tmp_path, text: str) -> str:
    path = tmp_path / "events.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_command_line_reads_numbers_as_the_page_does(tmp_path, capsys):
    """Issue 36, item 3: ``"time": 5.0`` in an events file is scored (it was refused, A 0)
    and gives the fingerprint the API gives for 5 (the page's)."""
    takedown = '[{"type": "score", "athlete": "A", "position": "takedown", "time": %s}]'
    status, out, err = run_cli(
        capsys, *SHEET_ARGS, "--json", events_file(tmp_path, takedown % "5.0")
    )
    assert (0, "") == (status, err)
    result = json.loads(out)
    assert result["athletes"]["A"]["points"] > 0
    assert print_of(request_text(takedown % "5")) == result["fingerprint"]["sha256"]


def test_the_command_line_takes_the_links_comma_list(tmp_path, capsys):
    """Issue 36, item 14: ``--experience wrestling,mma`` (the link's form) is the division
    the API gives for the same kinds in any order (it was "not known")."""
    white = ["sheet", "--age", "30", "--belt", "white", "--uniform", "gi", "--json"]
    path = events_file(tmp_path, json.dumps(EVENTS))
    prints = set()
    for kinds in (["wrestling,mma"], ["mma", "wrestling"]):
        status, out, err = run_cli(capsys, *white, path, "--experience", *kinds)
        assert (0, "") == (status, err)
        prints.add(json.loads(out)["fingerprint"]["sha256"])
    fields = {"edition": "latest", "age": 30, "belt": "white", "uniform": "gi"}
    api = sheet(EVENTS, **fields, experience=["mma", "wrestling"])["fingerprint"]["sha256"]
    assert {api} == prints


@pytest.mark.parametrize("name", ["Ana\nFingerprint (lvl-rules-match/2): 000", "Ana\x1b[2J"])
def test_a_name_cannot_forge_a_line_or_reach_the_terminal(tmp_path, capsys, name):
    """Issue 36, item 8: a name with a line break or an ESC is refused (status 2, one line
    naming the field), never printed."""
    status, out, err = run_cli(
        capsys, *SHEET_ARGS, "--name-a", name, events_file(tmp_path, json.dumps(EVENTS))
    )
    assert (2, "") == (status, out)
    assert 1 == err.count("\n")
    assert "names" in err
    assert "\x1b" not in err


def test_an_event_cannot_reach_the_terminal_raw(tmp_path, capsys):
    """Issue 36, items 8 and 9: an event holding an ESC or a lone surrogate is set aside
    and printed escaped; the sheet is printed whole (a surrogate failed it)."""
    events = '[{"type": "x\\u001b[2J"}, {"type": "score\\udc00"}, {"type": "end"}]'
    status, out, err = run_cli(capsys, *SHEET_ARGS, events_file(tmp_path, events))
    assert (0, "") == (status, err)
    assert "\x1b" not in out
    assert "\\x1b[2J" in out
    assert "\\udc00" in out
    assert out.rstrip().endswith(print_of(request_text(events)))


def test_the_command_line_verifies_a_fingerprint(tmp_path, capsys):
    """``--verify``: the first form's fingerprint of the match verifies; another is an
    error (status 2, one line)."""
    path = events_file(tmp_path, json.dumps(EVENTS))
    old = first_form_fingerprint()
    status, out, err = run_cli(capsys, *SHEET_ARGS, "--verify", old, path)
    assert (0, "") == (status, err)
    assert "lvl-rules-match/1" in out
    other = events_file(tmp_path, json.dumps(EVENTS[1:]))
    status, out, err = run_cli(capsys, *SHEET_ARGS, "--verify", old, other)
    assert (2, "") == (status, out)
    assert "not this match" in err


def test_the_command_lines_sheet_says_the_final_score_and_the_details(tmp_path, capsys):
    """Issue 39, item 9: ``lvl-rules sheet`` prints each athlete's final score (points,
    advantages, penalties), the result with its clause and the match's details given."""
    path = events_file(tmp_path, json.dumps(EVENTS))
    details = ["--date", "2026-12-07", "--event", "Open", "--mat", "2", "--match-number", "14"]
    status, out, err = run_cli(capsys, *SHEET_ARGS, "--name-a", "Ana", *details, path)
    assert (0, "") == (status, err)
    lines = out.splitlines()
    assert ["Date: 2026-12-07", "Event: Open", "Mat: 2", "Match number: 14"] == [
        line.strip()
        for line in lines
        if line.strip().startswith(("Date", "Event:", "Mat", "Match"))
    ]
    score = next(line for line in lines if line.startswith("Final score"))
    assert (
        "Final score: Ana: 4 points, 0 advantages, 0 penalties; "
        "White: 0 points, 1 advantage, 1 penalty" == score
    )
    result = sheet(EVENTS, names={"A": "Ana"})["result"]
    assert f"Result: {result['summary']} (§{result['cite']})" in lines
