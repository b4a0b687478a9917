"""The ``lvl-rules`` command line: its JSON shapes and its contract for bad input.

Bad input of any kind exits with status 2 and prints exactly one line on stderr that names
the field and what is allowed, never a traceback. Checked in-process through
``lvl_rules.faces.cli.main(argv)`` and, on the host, through the installed ``lvl-rules`` console
script and ``python -m lvl_rules``.
"""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys
import sysconfig
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cli_contract import expected, verdict
from timeline_names import AMENDMENT, EDITIONS, FULL, IN_FORCE, TITLE, UNKNOWN

from lvl_rules import load_edition
from lvl_rules.faces.cli import main

ED1 = ["--edition", FULL]
ED2 = ["--edition", AMENDMENT]
ADULT = ["--age", "30", "--uniform", "gi"]
SCORE2 = ["score", *ED2, "--age", "30", "--belt", "blue", "--uniform", "gi", "--json"]
SCORE1_LVL2_NOGI = ["score", *ED1, "--age", "30", "--lvl", "2", "--uniform", "nogi", "--json"]
NO_EVENTS = "(no events file)"
MISSING_FILE = "(a file that does not exist)"

# (id, arguments, events JSON for `score` (its file is appended), words the line must hold)
BAD: list[Any] = [
    ("unknown-edition", ["eligibility", "--edition", UNKNOWN, *ADULT, "--lvl", "2"], NO_EVENTS,
     ["edition", "'3'", "1, 2, latest"]),
    ("age-too-young", ["eligibility", *ED1, "--age", "3", "--uniform", "gi"], NO_EVENTS,
     ["age", "4", "120"]),
    ("age-too-old", ["eligibility", *ED1, "--age", "121", "--lvl", "1", "--uniform", "gi"],
     NO_EVENTS, ["age", "4", "120"]),
    ("age-not-a-number", ["eligibility", *ED2, "--age", "thirty", "--uniform", "gi"], NO_EVENTS,
     ["age", "thirty", "4", "120"]),
    ("age-fraction", ["eligibility", *ED2, "--age", "15.5", "--uniform", "gi"], NO_EVENTS,
     ["age", "15.5", "4", "120"]),
    ("age-superscript-digit", ["eligibility", *ED2, "--age", "²", "--uniform", "gi"], NO_EVENTS,
     ["age", "4", "120"]),
    ("age-empty", ["eligibility", *ED2, "--age", "", "--uniform", "gi"], NO_EVENTS,
     ["age", "4", "120"]),
    ("lvl-does-not-exist", ["eligibility", *ED1, *ADULT, "--lvl", "5"], NO_EVENTS,
     ["lvl", "'5'", "1, 2, 3, 4"]),
    ("lvl-in-a-belt-edition", ["eligibility", *ED2, *ADULT, "--lvl", "2"], NO_EVENTS,
     ["lvl", "belt", "white"]),
    ("belt-in-an-lvl-edition", ["eligibility", *ED1, *ADULT, "--belt", "blue"], NO_EVENTS,
     ["belt", "lvl", "1, 2, 3, 4"]),
    ("belt-does-not-exist", ["eligibility", *ED2, *ADULT, "--belt", "red"], NO_EVENTS,
     ["belt", "'red'", "white", "black"]),
    ("belt-does-not-fit-the-age",
     ["eligibility", *ED2, "--age", "15", "--belt", "blue", "--uniform", "gi"], NO_EVENTS,
     ["belt", "blue", "15", "grey", "green"]),
    ("kids-belt-from-16",
     ["eligibility", *ED2, "--age", "16", "--belt", "green", "--uniform", "gi"], NO_EVENTS,
     ["belt", "green", "16", "purple"]),
    ("lvl-missing-from-16", ["eligibility", *ED1, "--age", "16", "--uniform", "gi"], NO_EVENTS,
     ["lvl", "16", "1, 2, 3, 4"]),
    ("belt-missing-from-16", ["eligibility", *ED2, "--age", "40", "--uniform", "nogi"],
     NO_EVENTS, ["belt", "16", "white", "black"]),
    ("unknown-experience",
     ["eligibility", *ED2, *ADULT, "--belt", "white", "--experience", "boxing"], NO_EVENTS,
     ["experience", "boxing", "judo-black-belt", "mma"]),
    ("experience-in-edition-1",
     ["eligibility", *ED1, *ADULT, "--lvl", "1", "--experience", "mma"], NO_EVENTS,
     ["experience", TITLE[FULL]]),
    ("unknown-uniform",
     ["eligibility", *ED2, "--age", "30", "--belt", "blue", "--uniform", "kimono"], NO_EVENTS,
     ["uniform", "kimono", "gi", "nogi"]),
    ("unknown-technique", ["divisions-for", "flying-armbar", *ED2], NO_EVENTS,
     ["technique", "flying-armbar", "heel-hook"]),
    ("unknown-position", SCORE2, '[{"type": "score", "athlete": "A", "position": "side-control"}]',
     ["events[0].position", "side-control", "guard-pass", "mount"]),
    ("unknown-foul", SCORE2, '[{"type": "penalty", "athlete": "A", "foul": "tickling"}]',
     ["events[0].foul", "tickling", "stalling"]),
    ("unknown-athlete", SCORE2, '[{"type": "advantage", "athlete": "C"}]',
     ["events[0].athlete", "'C'", "A, B"]),
    ("unknown-technique-in-events", SCORE2,
     '[{"type": "technique", "athlete": "A", "technique": "flying-armbar"}]',
     ["events[0].technique", "flying-armbar", "heel-hook"]),
    ("unknown-event-type", SCORE2, '[{"type": "armbar"}]', ["events[0].type", "score", "end"]),
    ("events-not-a-list", SCORE2, '{"type": "end"}', ["events", "list"]),
    ("event-not-an-object", SCORE2, "[1]", ["events[0]", "object"]),
    ("event-after-the-end", SCORE2, '[{"type": "end"}, {"type": "advantage", "athlete": "A"}]',
     ["events[1]", "ended", "events[0]"]),
    ("events-not-json", SCORE2, "[{", ["events", "JSON"]),
    ("unknown-award", SCORE2, '[{"type": "award", "athlete": "A", "award": "bonus"}]',
     ["events[0].award", "'bonus'", "exit-caused-by-defender", "disqualified-in-error"]),
    ("withdrawal-without-a-disqualification", SCORE2,
     '[{"type": "award", "athlete": "A", "award": "disqualified-in-error"}]',
     ["events[0]", "disqualification in error", "§2.1"]),
    ("withdrawal-after-a-substance", SCORE2,
     '[{"type": "severe-foul", "athlete": "A", "foul": "slippery-substance"},'
     ' {"type": "award", "athlete": "A", "award": "disqualified-in-error"}]',
     ["events[1]", "'slippery-substance' (§7.2.3), not for using a hold", "§2.1", "illegal-hold"]),
    ("withdrawal-after-no-undergarment", SCORE2,
     '[{"type": "severe-foul", "athlete": "B", "foul": "no-undergarment"},'
     ' {"type": "award", "athlete": "B", "award": "disqualified-in-error"}]',
     ["events[1]", "'no-undergarment'", "not for using a hold", "§2.1"]),
    ("withdrawal-after-a-hold-judged-illegal", SCORE1_LVL2_NOGI,
     '[{"type": "technique", "athlete": "A", "technique": "heel-hook"},'
     ' {"type": "award", "athlete": "A", "award": "disqualified-in-error"}]',
     ["events[1]", "'heel-hook'", "(§1)", "stands (§2.1)", "correct events[0]"]),
    ("position-after-time", SCORE2,
     '[{"type": "time-expired"}, {"type": "score", "athlete": "A", "position": "mount"}]',
     ["events[1]", "time already expired at events[0]", "§6"]),
    ("time-expired-has-no-athlete", SCORE2, '[{"type": "time-expired", "athlete": "A"}]',
     ["events[0].athlete", "'time-expired'"]),
    ("events-file-missing", SCORE2, MISSING_FILE, ["events", "cannot read"]),
    ("lvl-with-a-newline", ["eligibility", *ED1, *ADULT, "--lvl", "2\n3"], NO_EVENTS, ["lvl"]),
    ("edition-with-a-newline", ["eligibility", "--edition", "1\n2", *ADULT, "--lvl", "2"],
     NO_EVENTS, ["edition"]),
    ("missing-uniform", ["eligibility", *ED2, "--age", "30", "--belt", "blue"], NO_EVENTS,
     ["--uniform"]),
    ("no-command", [], NO_EVENTS, ["command"]),
    ("unknown-command", ["judge"], NO_EVENTS, ["judge", "eligibility", "score"]),
]  # fmt: skip


def _ids(case: Any) -> str:
    return case.id if hasattr(case, "id") else case[0]


def _argv(args: list[str], events: str, folder: Path, name: str) -> list[str]:
    if events == NO_EVENTS:
        return list(args)
    path = folder / f"{name}.json"
    if events != MISSING_FILE:
        path.write_text(events, encoding="utf-8")
    return [*args, str(path)]


def _stdin_argv(
    args: list[str], events: str, folder: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """In-process runs read events from stdin (see test_events_file_is_closed)."""
    if events in (NO_EVENTS, MISSING_FILE):
        return _argv(args, events, folder, name)
    monkeypatch.setattr(sys, "stdin", io.StringIO(events))
    return [*args, "-"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own errors exit from inside main
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("name", "args", "events", "words"), BAD, ids=[_ids(c) for c in BAD])
def test_bad_input_in_process(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    args: list[str],
    events: str,
    words: list[str],
) -> None:
    """Bad input: exit status 2 and one line on stderr naming the field, no traceback."""
    status, out, err = _run(_stdin_argv(args, events, tmp_path, name, monkeypatch), capsys)
    assert expected(words) == verdict(status, out, err, words), err


# ---------------------------------------------------------------- JSON shapes


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    status, out, err = _run(argv, capsys)
    assert (0, "") == (status, err)
    return json.loads(out)


@pytest.mark.parametrize(
    ("edition_id", "rank"), [("1", ["--lvl", "3"]), ("2", ["--belt", "purple"])]
)
def test_eligibility_json(
    capsys: pytest.CaptureFixture[str], edition_id: str, rank: list[str]
) -> None:
    """Eligibility JSON lists every technique of the catalogue with legal, reason and cite."""
    result = _json(["eligibility", "--edition", edition_id, *ADULT, *rank, "--json"], capsys)
    catalogue = list(load_edition(edition_id).techniques)
    assert edition_id == result["edition"]
    assert catalogue == [t["id"] for t in result["techniques"]]
    assert 26 == len(catalogue)
    shapes = {
        (type(t["name"]), type(t["legal"]), type(t["reason"]), type(t["cite"]))
        for t in result["techniques"]
    }
    assert {(str, bool, str, str)} == shapes
    assert {"id", "name", "legal", "reason", "cite"} <= set(result["techniques"][0])


def test_eligibility_json_answers(capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON answers agree with the chart: a heel hook for an adult LVL 3 in No-Gi only."""
    legal = {}
    for uniform in ("gi", "nogi"):
        argv = ["eligibility", *ED1, "--age", "30", "--lvl", "3", "--uniform", uniform, "--json"]
        techniques = _json(argv, capsys)["techniques"]
        legal[uniform] = next(t["legal"] for t in techniques if t["id"] == "heel-hook")
    assert {"gi": False, "nogi": True} == legal


def test_score_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Score JSON: both athletes' tallies, the result and a log whose lines cite clauses."""
    events = [
        {"type": "score", "athlete": "A", "position": "guard-pass"},
        {"type": "score", "athlete": "A", "position": "mount"},
        {"type": "penalty", "athlete": "B", "foul": "stalling"},
        {"type": "end"},
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(events)))
    result = _json([*SCORE2, "-"], capsys)
    tally = {"points", "advantages", "penalties", "disqualified"}
    assert {"A", "B"} == set(result["athletes"])
    assert tally <= set(result["athletes"]["A"])
    assert tally <= set(result["athletes"]["B"])
    assert {"winner", "method"} <= set(result["result"])
    assert all({"event", "effect", "cite"} <= set(line) for line in result["log"])
    expected = {
        "A": {"points": 7, "advantages": 0, "penalties": 0, "disqualified": False},
        "B": {"points": 0, "advantages": 0, "penalties": 1, "disqualified": False},
        "result": {"winner": "A", "method": "points"},
        "cites": ["5.2", "5.4", "7.2.1", "8.2", "3.5"],
    }
    actual = {
        "A": {key: result["athletes"]["A"][key] for key in expected["A"]},
        "B": {key: result["athletes"]["B"][key] for key in expected["B"]},
        "result": {key: result["result"][key] for key in expected["result"]},
        "cites": [line["cite"] for line in result["log"]],
    }
    assert expected == actual


def test_score_json_new_events(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Points outside a position (2.3.7, 2.1) and an advantage after time (6), in JSON."""
    events = [
        {"type": "award", "athlete": "B", "award": "exit-caused-by-defender"},
        {"type": "severe-foul", "athlete": "A", "foul": "illegal-hold"},
        {"type": "award", "athlete": "A", "award": "disqualified-in-error"},
        {"type": "time-expired"},
        {"type": "advantage", "athlete": "A"},
        {"type": "end"},
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(events)))
    result = _json([*SCORE2, "-"], capsys)
    expected = {
        "tallies": {"A": (2, 1, False), "B": (2, 0, False)},
        "result": ("A", "advantages"),
        "cites": ["2.3.7", "7.2.3", "8.1", "3.3", "2.1", "2.1", "6", "6", "3.5"],
        "events": [0, 1, 1, 1, 2, 2, 3, 4, 5],
    }
    athletes = result["athletes"]
    actual = {
        "tallies": {
            name: (t["points"], t["advantages"], t["disqualified"]) for name, t in athletes.items()
        },
        "result": (result["result"]["winner"], result["result"]["method"]),
        "cites": [line["cite"] for line in result["log"]],
        "events": [line["event"] for line in result["log"]],
    }
    assert expected == actual


def test_score_json_legal_hold_withdrawn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """2.1: a hold the chart allows (a wrist lock from adult LVL 2), called by the referee
    as prohibited for the division: the withdrawal still gives two points and the match
    goes on, and the log says which disqualification was withdrawn."""
    events = [
        {"type": "technique", "athlete": "A", "technique": "wrist-lock"},
        {"type": "severe-foul", "athlete": "A", "foul": "illegal-hold"},
        {"type": "award", "athlete": "A", "award": "disqualified-in-error"},
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(events)))
    result = _json([*SCORE1_LVL2_NOGI, "-"], capsys)
    withdrawn = [line for line in result["log"] if line["event"] == 2]
    assert {"points": 2, "disqualified": False} == {
        key: result["athletes"]["A"][key] for key in ("points", "disqualified")
    }
    assert (None, ["2.1", "2.1"]) == (result["result"]["winner"], [w["cite"] for w in withdrawn])
    assert withdrawn[0]["effect"].startswith(
        "Withdrawn: A's disqualification (hold prohibited for the division)."
    )


def test_score_json_without_a_winner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match that has not ended has no winner and no method (JSON null)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("[]"))
    result = _json([*SCORE2, "-"], capsys)
    assert (None, None) == (result["result"]["winner"], result["result"]["method"])


def test_score_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-`` reads the events from standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO('[{"type": "submission", "athlete": "B"}]'))
    result = _json([*SCORE2, "-"], capsys)
    assert {"winner": "B", "method": "submission"} == {
        key: result["result"][key] for key in ("winner", "method")
    }


def test_text_output(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --json every command prints plain text and exits 0."""
    events = '[{"type": "score", "athlete": "A", "position": "mount"}]'
    monkeypatch.setattr(sys, "stdin", io.StringIO(events))
    commands = [
        ["eligibility", *ED1, *ADULT, "--lvl", "2"],
        ["score", *ED1, *ADULT, "--lvl", "2", "-"],
        ["divisions-for", "heel-hook", *ED2],
        ["export", *ED1],
        ["editions"],
    ]
    outcomes = [_run(argv, capsys) for argv in commands]
    assert [(0, True, "")] * len(commands) == [(s, bool(out), err) for s, out, err in outcomes]


def test_events_file_is_closed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Reading the events from a file leaves no file open (no ResourceWarning)."""
    path = tmp_path / "match.json"
    path.write_text('[{"type": "end"}]', encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, _, err = _run([*SCORE2, str(path)], capsys)
        gc.collect()
    assert (0, "", []) == (status, err, [str(w.message) for w in caught])


def test_divisions_for_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``divisions-for`` lists the chart cells where a technique is legal."""
    result = _json(["divisions-for", "heel-hook", *ED2, "--json"], capsys)
    expected = [("adult-brown-black", "nogi")]
    assert expected == [(cell["band"], cell["uniform"]) for cell in result["legal_in"]]


def test_editions_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``editions`` lists every edition of the timeline and the one in force."""
    result = _json(["editions", "--json"], capsys)
    found = (result["latest"], tuple(e["id"] for e in result["editions"]))
    assert (IN_FORCE, EDITIONS) == found


# ---------------------------------------------------------------- the real commands


def _console_script() -> list[str]:
    script = Path(sysconfig.get_path("scripts")) / "lvl-rules"
    assert script.is_file(), f"{script} is missing: install the wheel (`make wheel`)"
    return [str(script)]


@pytest.fixture(scope="module")
def console_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """Every bad-input case run through the installed ``lvl-rules`` script, in parallel."""
    folder = tmp_path_factory.mktemp("console")

    def run(case: Any) -> tuple[str, tuple[int, str, str]]:
        name, args, events, _ = case.values if hasattr(case, "values") else case
        argv = _console_script() + _argv(args, events, folder, name)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=folder)
        return name, (done.returncode, done.stdout, done.stderr)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(pool.map(run, BAD))


@pytest.mark.host
@pytest.mark.parametrize(("name", "args", "events", "words"), BAD, ids=[_ids(c) for c in BAD])
def test_bad_input_console_script(
    console_runs: dict[str, tuple[int, str, str]],
    name: str,
    args: list[str],
    events: str,
    words: list[str],
) -> None:
    """The installed ``lvl-rules`` script: exit 2, one line on stderr, no traceback."""
    del args, events
    status, out, err = console_runs[name]
    assert expected(words) == verdict(status, out, err, words), err


@pytest.mark.host
@pytest.mark.parametrize(
    "command", [["lvl-rules"], [sys.executable, "-m", "lvl_rules"]], ids=["script", "module"]
)
def test_real_command_runs(tmp_path: Path, command: list[str]) -> None:
    """``lvl-rules`` and ``python -m lvl_rules`` answer, exit 0, and print JSON."""
    argv = _console_script() if command == ["lvl-rules"] else command
    argv = [*argv, "eligibility", *ED2, "--age", "16", "--belt", "white", "--uniform", "gi"]
    done = subprocess.run(
        [*argv, "--json"], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert (0, "") == (done.returncode, done.stderr)
    assert "2" == json.loads(done.stdout)["edition"]


@pytest.mark.host
def test_module_bad_input(tmp_path: Path) -> None:
    """``python -m lvl_rules`` with bad input: exit 2, one line on stderr, no traceback."""
    argv = [sys.executable, "-m", "lvl_rules", "eligibility", "--age", "²", "--uniform", "gi"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    words = ["age", "4", "120"]
    assert expected(words) == verdict(done.returncode, done.stdout, done.stderr, words)
