"""One match, one fingerprint: the same match spelled any way JSON allows (the order of
keys, a number as 5, 5.0 or 5e0, prior experience in any order, whitespace, escaped
characters) gives one fingerprint in the JSON API (which the sheet page asks, through its
engine) and in the command line; a change of one event gives another (issue 36)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lvl_rules.faces.api import handle  # noqa: E402
from lvl_rules.faces.cli import main as cli_main  # noqa: E402

# A white belt with prior experience (whose order must not matter), in the edition in force.
DIVISION = {"edition": "latest", "age": 30, "belt": "white", "uniform": "gi"}
KINDS = ["mma", "wrestling", "judo-black-belt"]
EVENT = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("score"), "athlete": st.sampled_from("AB"),
         "position": st.sampled_from(["takedown", "mount", "sweep"])},
        optional={"repeated": st.booleans()},
    ),
    st.fixed_dictionaries({"type": st.just("advantage"), "athlete": st.sampled_from("AB")}),
    st.fixed_dictionaries(
        {"type": st.just("penalty"), "athlete": st.sampled_from("AB"),
         "foul": st.just("stalling")},
    ),
    st.fixed_dictionaries({"type": st.just("nonsense"), "note": st.text(max_size=5)}),
)  # fmt: skip
TIMED = st.tuples(EVENT, st.one_of(st.none(), st.integers(0, 600))).map(
    lambda pair: pair[0] if pair[1] is None else {**pair[0], "time": pair[1]}
)
MATCH = st.fixed_dictionaries(
    {
        "events": st.lists(TIMED, min_size=1, max_size=8),
        "experience": st.lists(st.sampled_from(KINDS), unique=True, max_size=3),
        "names": st.fixed_dictionaries(
            {}, optional={"A": st.sampled_from(["Ana", "Zoë", "李"]), "B": st.just("Bia")}
        ),
    }
)


@st.composite
def spelled(draw, value) -> str:
    """``value`` as JSON text, spelled one of the many ways that read as the same value."""
    space = lambda: draw(st.sampled_from(["", " ", "\n", "\t ", "\r\n  "]))  # noqa: E731
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        forms = [str(value), f"{value}.0", f"{value}e0", f"{value}.00E+0"]
        if value:
            forms.append(f"{value * 10}e-1")
        return draw(st.sampled_from(forms))
    if isinstance(value, str):
        escaped = "".join(
            draw(st.sampled_from([json.dumps(c)[1:-1], f"\\u{ord(c):04x}"]))
            if ord(c) < 0x10000 else json.dumps(c)[1:-1]
            for c in value
        )  # fmt: skip
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ",".join(space() + draw(spelled(item)) + space() for item in value) + "]"
    keys = draw(st.permutations(list(value)))
    members = (
        f"{space()}{draw(spelled(k))}{space()}:{space()}{draw(spelled(value[k]))}" for k in keys
    )
    return "{" + ",".join(members) + space() + "}"


def request(match: dict, experience: list[str]) -> dict:
    return {"action": "sheet", **DIVISION, "experience": experience, "names": match["names"],
            "events": match["events"]}  # fmt: skip


def fingerprint(text: str) -> str:
    answer = json.loads(handle(text))
    assert answer["ok"], answer
    return answer["result"]["fingerprint"]["sha256"]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match=MATCH, data=st.data())
def test_one_match_spelled_any_way_has_one_fingerprint(match, data):
    """The API: the match written plainly, and spelled another way (experience in another
    order), give one fingerprint."""
    plain = json.dumps(request(match, match["experience"]))
    order = data.draw(st.permutations(match["experience"]))
    other = data.draw(spelled(request(match, list(order))))
    assert fingerprint(plain) == fingerprint(other)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match=MATCH, data=st.data(), index=st.integers(0, 7))
def test_a_change_of_one_event_changes_it(match, data, index):
    """Another value in one event (one more second, another athlete, one event less or
    more) is another fingerprint."""
    events = match["events"]
    index %= len(events)
    event = events[index]
    how = data.draw(st.sampled_from(["time", "athlete", "drop", "add"]))
    changed = [dict(e) for e in events]
    if how == "time":
        changed[index]["time"] = event.get("time", -1) + 1
    elif how == "athlete" and "athlete" in event:
        changed[index]["athlete"] = "A" if event["athlete"] == "B" else "B"
    elif how == "drop":
        del changed[index]
    else:
        changed.insert(index, {"type": "advantage", "athlete": "A"})
    if changed == events:
        return
    before = fingerprint(json.dumps(request(match, match["experience"])))
    after = fingerprint(json.dumps(request({**match, "events": changed}, match["experience"])))
    assert before != after


def cli_argv(match: dict, order: list[str], path: str) -> list[str]:
    names = [arg for key, name in match["names"].items() for arg in (f"--name-{key.lower()}", name)]
    experience = ["--experience", ",".join(order)] if order else []
    return ["sheet", "--age", "30", "--belt", "white", "--uniform", "gi", "--json", *names,
            path, *experience]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(match=MATCH, data=st.data())
def test_the_command_line_agrees(match, data, tmp_path, capsys):
    """The command line (in process), given the events file spelled another way and the
    experience as the link's comma list in another order, prints the API's fingerprint."""
    order = list(data.draw(st.permutations(match["experience"])))
    path = tmp_path / "events.json"
    path.write_text(data.draw(spelled(match["events"])), encoding="utf-8")
    assert 0 == cli_main(cli_argv(match, order, str(path)))
    printed = json.loads(capsys.readouterr().out)["fingerprint"]["sha256"]
    assert fingerprint(json.dumps(request(match, match["experience"]))) == printed


@pytest.mark.host
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(match=MATCH, data=st.data())
def test_the_installed_command_agrees(match, data, tmp_path):
    """``python -m lvl_rules sheet`` (a process of its own: a few examples, each is slow)."""
    order = list(data.draw(st.permutations(match["experience"])))
    path = tmp_path / "events.json"
    path.write_text(data.draw(spelled(match["events"])), encoding="utf-8")
    argv = [sys.executable, "-m", "lvl_rules", *cli_argv(match, order, str(path))]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120)
    printed = json.loads(done.stdout)["fingerprint"]["sha256"]
    assert fingerprint(json.dumps(request(match, match["experience"]))) == printed
