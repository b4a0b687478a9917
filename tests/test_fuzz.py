"""Fuzzing the two faces that take anything from outside: the JSON API and the command line.

Properties: ``api.handle`` never raises, for any argument, and answers a JSON object (strict
JSON, no NaN) with ``ok``; a refusal is one line with the field and the problem's code,
never an internal error. The command line exits 0 with an answer and nothing on stderr,
or 2 with exactly one line on stderr and nothing on stdout; never a traceback.

Inputs: arbitrary JSON values (deep, wide, huge numbers, NaN and Infinity, any Unicode
including lone surrogates), requests and events shaped like real ones with junk mixed
in, deep and unbalanced nesting, arbitrary text, and arbitrary bytes: as a request, in an
events file and on standard input; arbitrary command-line arguments.

Derandomized: every run tries the same examples, so CI never meets a new one by chance;
the example counts keep the file to a few seconds here (and it runs inside Pyodide too).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")

from cli_contract import expected, verdict  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from timeline_names import AMENDMENT  # noqa: E402

from lvl_rules.engines.events import EVENT_TYPES  # noqa: E402
from lvl_rules.faces.api import ACTIONS, handle  # noqa: E402
from lvl_rules.faces.cli import main  # noqa: E402

FUZZ = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ_CLI = settings(FUZZ, max_examples=60)  # each example runs the whole command

# ---------------------------------------------------------------- strategies

ANY_CHAR = st.characters(codec=None, exclude_categories=())  # lone surrogates included
ODD_TEXT = st.text(ANY_CHAR, max_size=12) | st.sampled_from(
    ["", " ", "\n", "\u2028", "\x85", "\x00", "é", "\ud800", "🥋", "A", "both", "x" * 300]
)
# Python writes integers of up to 4,300 digits (longer ones come as text: nested(), below).
HUGE_INT = st.integers(min_value=15, max_value=4300).map(lambda n: int("9" * n))
NUMBERS = (
    st.integers()
    | HUGE_INT
    | HUGE_INT.map(lambda n: -n)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0, -0.0, 30, 30.0, 1e308, 4, 120, 121, 2**53])
)
SCALARS = st.none() | st.booleans() | NUMBERS | ODD_TEXT
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(ODD_TEXT, inner, max_size=5),
    max_leaves=25,
)

# Values a real request might hold, so that the examples reach the engines too.
PLAUSIBLE = {
    "edition": st.sampled_from(["1", "2", "latest", 1, 2, 3]),
    "age": st.integers(0, 130) | st.sampled_from(["30", "15", " 40 "]),
    "lvl": st.sampled_from(["1", "2", "3", "4", 2, "5"]),
    "belt": st.sampled_from(["white", "blue", "purple", "brown", "black", "grey", "green"]),
    "uniform": st.sampled_from(["gi", "nogi", "GI"]),
    "experience": st.lists(st.sampled_from(["mma", "wrestling", "judo-black-belt", "box"])),
    "technique": st.sampled_from(["heel-hook", "armbar", "slam", "flying-armbar"]),
}
EVENT_FIELDS = sorted({f.name for kind in EVENT_TYPES.values() for f in kind.slots()})
EVENT_VALUES = (
    st.sampled_from(
        ["A", "B", "both", "mount", "guard-pass", "stalling", "severe", "technical", "heel-hook"]
    )
    | st.booleans()
    | st.lists(st.sampled_from(["mount", "advantage", "none", "penalty"]))
)


@st.composite
def events(draw: Any) -> Any:
    """A list of events shaped like real ones, some fields junk, or junk altogether."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON_VALUES)
    made = []
    for _ in range(draw(st.integers(0, 6))):
        event: dict[str, Any] = {"type": draw(st.sampled_from([*EVENT_TYPES, "armbar"]))}
        for name in draw(st.lists(st.sampled_from(EVENT_FIELDS), max_size=4)):
            event[name] = draw(EVENT_VALUES | JSON_VALUES)
        made.append(event)
    return made


@st.composite
def requests(draw: Any) -> dict[str, Any]:
    """A request for one of the actions (or none), with plausible or junk fields."""
    request: dict[str, Any] = {}
    action = draw(st.sampled_from([*ACTIONS, None, "judge"]))
    if action is not None:
        request["action"] = action
    for name, plausible in PLAUSIBLE.items():
        choice = draw(st.integers(0, 3))
        if choice == 1:
            request[name] = draw(plausible)
        elif choice == 2:
            request[name] = draw(JSON_VALUES)
    if action == "score" or draw(st.booleans()):
        request["events"] = draw(events())
    return request


@st.composite
def nested(draw: Any) -> str:
    """Arrays and objects nested up to 3,000 deep, balanced or not."""
    depth = draw(st.integers(0, 3000))
    opener = draw(st.sampled_from(["[", '{"a":', '[{"b":', '{"events":[']))
    closer = {"[": "]", '{"a":': "}", '[{"b":': "}]", '{"events":[': "]}"}[opener]
    inner = draw(st.sampled_from(["1", "[]", '""', "9" * 5000, ""]))
    closed = draw(st.integers(0, depth))
    return opener * depth + inner + closer * closed


def _mutated(text: str, data: Any) -> str:
    """``text`` with a few characters inserted, deleted or replaced."""
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = data.draw(st.text(ANY_CHAR, max_size=3) | st.sampled_from(list('[]{}",:\\')))
        end = at + (0 if how == "insert" else 1)
        text = text[:at] + ("" if how == "delete" else piece) + text[end:]
    return text


JSON_TEXT = st.one_of(
    requests().map(json.dumps),
    JSON_VALUES.map(json.dumps),
    nested(),
    st.text(ANY_CHAR, max_size=60),
)

# ---------------------------------------------------------------- the JSON API


def _strict(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN or Infinity in an answer


def _assert_answer(text: Any) -> dict[str, Any]:
    """A strict JSON object with ok; a refusal is one line, a field, a problem's code."""
    assert isinstance(text, str)
    answer = json.loads(text, parse_constant=_strict)
    assert isinstance(answer, dict)
    assert answer["ok"] in (True, False)
    if not answer["ok"]:
        error, problem = answer["error"], answer["problem"]
        assert "internal-error" != problem, error
        assert isinstance(error, str)
        assert 1 == len(error.splitlines()), error
        assert not error.startswith(f"{problem}: {{"), error  # the fallback of a code without words
    return answer


@FUZZ
@given(data=st.data(), text=JSON_TEXT)
def test_handle_answers_any_text(data: Any, text: str) -> None:
    """Any text, JSON or nearly JSON: handle answers, never raises."""
    _assert_answer(handle(_mutated(text, data)))


@FUZZ
@given(request=requests())
def test_handle_answers_any_request(request: dict[str, Any]) -> None:
    """Requests shaped like real ones, with junk mixed in, reach the engines and are
    answered or refused in one line."""
    _assert_answer(handle(json.dumps(request)))


@FUZZ
@given(raw=st.binary(max_size=200) | JSON_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_handle_answers_any_bytes(raw: bytes) -> None:
    """Bytes: UTF-8 JSON is read as text; anything else is refused as not UTF-8."""
    _assert_answer(handle(raw))


@FUZZ
@given(value=JSON_VALUES | st.builds(object) | st.sets(st.integers()) | st.just(handle))
def test_handle_answers_anything_at_all(value: Any) -> None:
    """Not text at all (None, a number, a list, an object, a function): still an answer."""
    if isinstance(value, str):
        return  # text is the case above
    _assert_answer(handle(value))


# ---------------------------------------------------------------- the command line

SCORE = ["score", "--edition", AMENDMENT, "--age", "30", "--belt", "blue", "--uniform", "gi"]


def _run(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """``main(argv)`` with ``stdin`` as standard input's bytes."""
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = old
    return status, out.getvalue(), err.getvalue()


def _assert_contract(status: int, out: str, err: str) -> None:
    """Exit 0 with an answer and a quiet stderr, or 2 with one line on stderr only."""
    if status == 0:
        assert ("", True) == (err, bool(out))
        return
    assert expected([]) == verdict(status, out, err, []), err
    assert "internal error" not in err, err


EVENTS_BYTES = st.one_of(
    st.binary(max_size=300),
    events().map(lambda e: json.dumps(e).encode("utf-8", "surrogatepass")),
    JSON_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            '[{"type": "end"}]'.encode("utf-16"),
            '[{"type": "end", "final": "café"}]'.encode("latin-1"),
            b"\xef\xbb\xbf[]",
            b"[" * 100_000,
            b"[" + b"9" * 5000 + b"]",
            b"",
        ]
    ),
)


@FUZZ_CLI
@given(raw=EVENTS_BYTES)
def test_cli_any_bytes_on_stdin(raw: bytes) -> None:
    """``score -``: any bytes on standard input give exit 0, or 2 and one line."""
    _assert_contract(*_run([*SCORE, "-"], raw))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the events files of the examples."""
    return tmp_path_factory.mktemp("fuzz")


@FUZZ_CLI
@given(raw=EVENTS_BYTES, json_flag=st.booleans())
def test_cli_any_bytes_in_a_file(folder: Path, raw: bytes, json_flag: bool) -> None:
    """``score FILE``: any bytes in the events file give exit 0, or 2 and one line."""
    path = folder / "events.json"
    path.write_bytes(raw)
    _assert_contract(*_run([*SCORE, str(path), *(["--json"] if json_flag else [])]))


ARGUMENT = st.text(ANY_CHAR, max_size=8) | st.sampled_from(
    ["--json", "--edition", "--age", "--belt", "--lvl", "--experience", "-", "--help", "-h"]
)


@FUZZ_CLI
@given(
    command=st.sampled_from(["eligibility", "score", "divisions-for", "export", "editions", "x"]),
    fields=st.dictionaries(
        st.sampled_from(["--edition", "--age", "--lvl", "--belt", "--experience", "--uniform"]),
        st.text(ANY_CHAR, max_size=6) | st.sampled_from(["1", "2", "30", "gi", "white", "mma"]),
    ),
    extra=st.lists(ARGUMENT, max_size=4),
)
def test_cli_any_arguments(command: str, fields: dict[str, str], extra: list[str]) -> None:
    """Any arguments (line breaks, surrogates, unknown options, --help): exit 0, or 2 and
    one line (argparse's own messages included)."""
    argv = [command, *(f"{name}={value}" for name, value in fields.items()), *extra]
    _assert_contract(*_run(argv, b"[]"))
