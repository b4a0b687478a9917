"""Run every data-driven case in ``tests/cases/<edition>/*.toml``.

The cases are written from the federation's source documents, one topic per file. Each
``[[case]]`` has a ``name``, an ``input`` and an ``expected`` table (and may quote the
``source``). What a case checks depends on its input:

- ``catalogue = true``: the technique catalogue (``prohibited`` and ``restricted`` IDs);
- ``counts = true``: the counts the referee keeps (``seconds``, ``clause``, ``foul``,
  ``both``, ``clock`` of each, by ID);
- ``row = "<technique>"``: one row of the legal-techniques chart, checked against every
  athlete of the file's ``[[grid]]``; ``legal_for`` lists who may use it, as selectors
  (``min_age``, ``max_age``, ``lvls``/``belts``, ``uniforms``); everyone else may not;
- ``athlete`` and ``technique``: one eligibility answer (``legal``, ``cite``, ``notes``,
  ``reason_mentions``);
- ``athlete`` alone: the whole chart for one athlete (``legal`` lists every legal
  technique, all others are not legal), ``competes_at``;
- ``events`` (with ``athlete`` or the file's ``[defaults].athlete``): a scored match
  (``A`` and ``B`` tallies, ``result``, ``cites`` of every log line in order,
  ``log_mentions``, ``readings``: the editorial notes each log line carries, in order,
  ``result_readings``: those the result carries);
- ``clause = "<id>"``: one clause as a person reads it: ``changed`` (how the edition's
  amendment touched it: ``changed``, ``added`` or ``"none"``: only the update's words
  change a clause), ``notes`` (the editorial notes shown beside it, in order),
  ``our_number`` (the number is ours, not the federation's),
  ``mentions`` (words its rendered heading and text hold) and ``absent`` (words they do
  not hold);
- ``note = "<id>"``: one editorial note as published: its ``clause`` and ``mentions``
  (words its title, decision and reason hold).

Any of them may instead expect ``error = { field = ..., words = [...] }``: a RulesError
naming that field whose message contains those words. ``"none"`` stands for null.

The cases of a fixture edition (``tests/fixture_editions/``, never published) run where
the fixture joins the shipped editions (``LVL_RULES_MORE_EDITIONS``): this module runs
itself so, once, and every edition of the timeline then has cases too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from timeline_names import EDITIONS

import lvl_rules
from lvl_rules import RulesError, check, check_all, division, score_match
from lvl_rules.words import markdown as render

CASES = Path(__file__).parent / "cases"
FIXTURES = Path(__file__).parent / "fixture_editions"
MORE_EDITIONS = "LVL_RULES_MORE_EDITIONS"  # as lvl_rules.loading.editions reads it
# The fixture editions whose cases wait for the fixture to join the timeline.
WAITING = {p.name for p in FIXTURES.iterdir() if p.is_dir()} - set(EDITIONS)
FILE_KEYS = {"case", "defaults", "grid"}
CASE_KEYS = {"name", "source", "input", "expected"}
NONE = "none"


def _load() -> list[Any]:
    params = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir() and p.name not in WAITING):
        for path in sorted(folder.glob("*.toml")):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            assert set(data) <= FILE_KEYS, f"{path}: unknown top-level keys {set(data) - FILE_KEYS}"
            for case in data["case"]:
                assert set(case) <= CASE_KEYS, f"{path}: {case.get('name')}: unknown keys"
                case_id = f"{folder.name}/{path.stem}/{case['name']}"
                params.append(pytest.param(folder.name, data, case, id=case_id))
    return params


PARAMS = _load()


def test_case_names_are_unique() -> None:
    """Every case has its own name, so a failure points at one case."""
    ids = [param.id for param in PARAMS]
    assert sorted(set(ids)) == sorted(ids)


def test_every_edition_has_cases() -> None:
    """Every edition of the timeline has case files (and every folder of cases is an
    edition's, or a fixture edition's): an edition without cases fails here instead of
    passing silently."""
    assert set(EDITIONS) == {param.values[0] for param in PARAMS}
    folders = {p.name for p in CASES.iterdir() if p.is_dir()}
    assert set(EDITIONS) | WAITING == folders


@pytest.mark.host
@pytest.mark.skipif(not WAITING, reason="the fixture editions are on the timeline here")
def test_the_fixture_editions_cases(tmp_path: Path) -> None:
    """The cases of the fixture editions, with the fixture joined to the shipped editions:
    this module, run so, passes every case (of every edition, the fixture's among them)."""
    wanted = sum(
        len(tomllib.loads(path.read_text(encoding="utf-8"))["case"])
        for name in WAITING
        for path in (CASES / name).glob("*.toml")
    )
    assert wanted > 0
    done = subprocess.run(
        [sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "run"), "-k", " or ".join(f"{n}/" for n in WAITING)],
        capture_output=True, text=True, check=False, timeout=900,
        env={**os.environ, MORE_EDITIONS: str(FIXTURES)}, cwd=CASES.parent.parent,
    )  # fmt: skip
    assert 0 == done.returncode, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"{wanted} passed" in done.stdout, done.stdout[-3000:]


@pytest.mark.parametrize(("edition_id", "data", "case"), PARAMS)
def test_case(edition_id: str, data: dict[str, Any], case: dict[str, Any]) -> None:
    """The engines give what the source documents say for this case."""
    given = case["input"]
    wanted = case["expected"]
    if "catalogue" in given:
        expected, actual = _catalogue(edition_id, wanted)
    elif "counts" in given:
        counts = lvl_rules.load_edition(edition_id).counts
        actual = {
            count.id: {key: getattr(count, key) for key in wanted.get(count.id, {})}
            for count in counts.values()
        }
        expected = dict(wanted)
    elif "clause" in given:
        expected, actual = dict(wanted), _clause(edition_id, given["clause"], wanted)
    elif "note" in given:
        expected, actual = dict(wanted), _note(edition_id, given["note"], wanted)
    elif "row" in given:
        expected, actual = _row(edition_id, data["grid"], given["row"], wanted)
    else:
        athlete = given.get("athlete", data.get("defaults", {}).get("athlete"))
        assert athlete is not None, "the case needs an athlete"
        if "events" in given:
            expected, actual = _outcome(wanted, lambda: _match(edition_id, athlete, given, wanted))
        elif "technique" in given:
            expected, actual = _outcome(
                wanted, lambda: _answer(edition_id, athlete, given["technique"], wanted)
            )
        else:
            expected, actual = _outcome(wanted, lambda: _chart(edition_id, athlete, wanted))
    assert expected == actual


# ---------------------------------------------------------------- the kinds of case


def _outcome(wanted: dict[str, Any], run: Any) -> tuple[Any, Any]:
    """Run a case; compare the RulesError when one is expected."""
    if "error" not in wanted:
        return _plain(wanted), run()
    expected = wanted["error"]
    try:
        run()
    except RulesError as error:
        message = str(error)
        return expected, {
            "field": error.field,
            "words": [word for word in expected["words"] if word in message],
        }
    return expected, "no error"


def _catalogue(edition_id: str, wanted: dict[str, Any]) -> tuple[Any, Any]:
    techniques = lvl_rules.load_edition(edition_id).techniques.values()
    actual = {
        "prohibited": sorted(t.id for t in techniques if t.prohibited),
        "restricted": sorted(t.id for t in techniques if not t.prohibited),
    }
    return {key: sorted(value) for key, value in wanted.items()}, actual


def _row(
    edition_id: str, grid: list[dict[str, Any]], technique: str, wanted: dict[str, Any]
) -> tuple[Any, Any]:
    expected: dict[str, Any] = {}
    actual: dict[str, Any] = {}
    cites = set()
    for athlete in _grid(grid):
        label = _label(athlete)
        expected[label] = any(_selects(rule, athlete) for rule in wanted["legal_for"])
        answer = check(_division(edition_id, athlete), technique)
        actual[label] = answer.legal
        cites.add(answer.cite)
    if "cite" in wanted:
        expected["cite"] = wanted["cite"]
        actual["cite"] = cites.pop() if len(cites) == 1 else sorted(cites)
    return expected, actual


def _answer(
    edition_id: str, athlete: dict[str, Any], technique: str, wanted: dict[str, Any]
) -> dict[str, Any]:
    answer = check(_division(edition_id, athlete), technique)
    actual = {
        "legal": answer.legal,
        "cite": answer.cite,
        "notes": list(answer.notes),
        "reason_mentions": _mentions(wanted.get("reason_mentions", ()), [answer.reason]),
    }
    return {key: actual[key] for key in wanted}


def _chart(edition_id: str, athlete: dict[str, Any], wanted: dict[str, Any]) -> dict[str, Any]:
    athlete_division = _division(edition_id, athlete)
    actual = {
        "legal": sorted(a.technique.id for a in check_all(athlete_division) if a.legal),
        "competes_at": athlete_division.effective_rank or NONE,
    }
    return {key: actual[key] for key in wanted}


def _match(
    edition_id: str, athlete: dict[str, Any], given: dict[str, Any], wanted: dict[str, Any]
) -> dict[str, Any]:
    report = score_match(_division(edition_id, athlete), given["events"]).to_json()
    actual: dict[str, Any] = {}
    for key, value in wanted.items():
        if key in ("A", "B"):
            tally = report["athletes"][key]
            actual[key] = {field: _none(tally[field]) for field in value}
        elif key == "result":
            actual[key] = {field: _none(report["result"][field]) for field in value}
        elif key == "cites":
            actual[key] = [line["cite"] for line in report["log"]]
        elif key == "log_mentions":
            actual[key] = _mentions(value, [line["effect"] for line in report["log"]])
        elif key == "readings":  # each log line's readings: the notes that decided it
            actual[key] = [[r["id"] for r in line.get("readings", ())] for line in report["log"]]
        elif key == "result_readings":
            actual[key] = [r["id"] for r in report["result"].get("readings", ())]
        else:
            raise AssertionError(f"unknown expected key {key!r} for a match")
    return actual


def _clause(edition_id: str, clause_id: str, wanted: dict[str, Any]) -> dict[str, Any]:
    edition = lvl_rules.load_edition(edition_id)
    clause = edition.clauses[clause_id]
    change = edition.changed("clauses", clause_id)
    text = f"{render.heading(edition, clause)}\n{render.body(edition, clause)}"
    actual = {
        "changed": change.kind if change else NONE,
        "notes": [note.id for note in edition.notes_for(clause_id)],
        "our_number": clause.our_number,
        "mentions": _mentions(wanted.get("mentions", ()), [text]),
        "absent": [word for word in wanted.get("absent", ()) if word.lower() not in text.lower()],
    }
    return {key: actual[key] for key in wanted}


def _note(edition_id: str, note_id: str, wanted: dict[str, Any]) -> dict[str, Any]:
    edition = lvl_rules.load_edition(edition_id)
    note = edition.notes[note_id]
    text = render.expand(edition, f"{note.title}\n{note.decision}\n{note.reason}")
    actual = {"clause": note.clause, "mentions": _mentions(wanted.get("mentions", ()), [text])}
    return {key: actual[key] for key in wanted}


def _plain(wanted: dict[str, Any]) -> dict[str, Any]:
    if "legal" in wanted and isinstance(wanted["legal"], list):
        return {**wanted, "legal": sorted(wanted["legal"])}
    return dict(wanted)


# ---------------------------------------------------------------- helpers


def _division(edition_id: str, athlete: dict[str, Any]) -> lvl_rules.Division:
    return division(edition_id, **athlete)


def _grid(grid: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for block in grid:
        rank_key = "lvls" if "lvls" in block else "belts"
        for age in block["ages"]:
            for rank in block[rank_key]:
                for uniform in ("gi", "nogi"):
                    athlete: dict[str, Any] = {"age": age, "uniform": uniform}
                    if rank != NONE:
                        athlete[rank_key[:-1]] = rank
                    out.append(athlete)
    return out


def _label(athlete: dict[str, Any]) -> str:
    rank = athlete.get("lvl", athlete.get("belt", "no rank"))
    rank = f"LVL {rank}" if "lvl" in athlete else rank
    return f"age {athlete['age']}, {rank}, {athlete['uniform']}"


def _selects(rule: dict[str, Any], athlete: dict[str, Any]) -> bool:
    rank = athlete.get("lvl", athlete.get("belt"))
    ranks = rule.get("lvls", rule.get("belts"))
    return (
        rule.get("min_age", 4) <= athlete["age"] <= rule.get("max_age", 120)
        and (ranks is None or rank in ranks)
        and athlete["uniform"] in rule.get("uniforms", ("gi", "nogi"))
    )


def _mentions(words: Any, texts: list[str]) -> list[str]:
    joined = "\n".join(texts).lower()
    return [word for word in words if word.lower() in joined]


def _none(value: Any) -> Any:
    return NONE if value is None else value
