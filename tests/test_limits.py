"""The limits at the edges (``lvl_rules.faces.limits``), as the JSON API applies them.

Each limit is a refusal that names the field and the limit and quotes at most 80
characters of what was given; each is far beyond any real use (the longest, deepest and
widest valid requests are measured against them), and what is exactly at a limit passes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from timeline_names import AMENDMENT, EDITIONS

from lvl_rules import RulesError, division, load_edition, score_match
from lvl_rules.engines.events import EVENT_TYPES
from lvl_rules.faces import limits
from lvl_rules.faces.api import handle
from lvl_rules.faces.limits import (
    LIMITS,
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_INTEGER_DIGITS,
    MAX_JSON_CHARS,
    MAX_TEXT_CHARS,
    nesting,
)

ADULT = {"edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
SCORE = {"action": "score", **ADULT}
LONG = "x" * 1_000_000  # a value far too long to repeat in a message
SHOWN = 80  # words.errors.SHOWN_CHARS: the most of a value a message repeats


def _answer(request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(request))
    return answer


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


class Raw:
    """A request handed to handle() as it is, not written as JSON text."""

    def __init__(self, value: Any) -> None:
        self.value = value


# (id, request (text or bytes; Raw; or a value written as JSON), field, problem, words)
REFUSALS: list[Any] = [
    ("not-text-none", Raw(None), "request", "not-json-text",
     ["request", "JSON text", "NoneType"]),
    ("not-text-int", Raw(5), "request", "not-json-text", ["request", "int"]),
    ("not-text-list", Raw(["{}"]), "request", "not-json-text", ["request", "list"]),
    ("too-long", " " * (MAX_JSON_CHARS + 1), "request", "input-too-long",
     ["request", "4,194,304 characters"]),
    ("too-long-bytes", b" " * (MAX_JSON_CHARS + 1), "request", "input-too-long",
     ["request", "4,194,304 bytes"]),
    ("latin-1", '{"action": "caf\xe9"}'.encode("latin-1"), "request", "input-not-utf8",
     ["request", "UTF-8", "byte 15", "line 1"]),
    ("utf-16", '{"action": "editions"}'.encode("utf-16"), "request", "input-not-utf8",
     ["UTF-8", "byte 0"]),
    ("deep-arrays", "[" * 100_000, "request", "too-deep", ["request", "100,000", "16"]),
    ("deep-objects", '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "request",
     "too-deep", ["17 levels", "16"]),
    ("deep-events", json.dumps({**SCORE, "events": json.loads(_nested(MAX_DEPTH))}),
     "request", "too-deep", ["17 levels", "16"]),
    ("integer-5000-digits", '{"action": "score", "age": ' + "9" * 5000 + "}", "request",
     "number-too-long", ["5,000 digits", "15"]),
    ("integer-16-digits", '{"age": -1234567890123456}', "request", "number-too-long",
     ["16 digits", "-1234567890123456", "15"]),
    ("float-overflow", '{"age": 1e999}', "request", "number-too-large", ["'1e999'"]),
    ("nan", '{"age": NaN}', "request", "not-a-json-number", ["NaN"]),
    ("infinity", '[-Infinity]', "request", "not-a-json-number", ["-Infinity"]),
    ("not-json", '{"action": ', "request", "not-json", ["request", "not valid JSON"]),
    ("text-too-long", {"action": "eligibility", **ADULT, "belt": "b" * 201}, "belt",
     "text-too-long", ["belt", "201 characters", "200"]),
    ("event-text-too-long", {**SCORE, "events": [{"type": LONG}]}, "events[0].type",
     "text-too-long", ["events[0].type", "1,000,000 characters", "200"]),
    ("key-too-long", {"k" * 201: 1}, "request", "key-too-long", ["key of 201", "200"]),
    ("event-key-too-long", {**SCORE, "events": [{"type": "end", LONG: 1}]}, "events[0]",
     "key-too-long", ["events[0]", "1,000,000", "200"]),
    ("too-many-events", {**SCORE, "events": [{"type": "end"}] * (MAX_EVENTS + 1)}, "events",
     "too-many-items", ["events", "20,001 items", "20,000"]),
    ("too-many-experiences", {**SCORE, "experience": ["mma"] * (MAX_EVENTS + 1)},
     "experience", "too-many-items", ["experience", "20,000"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "request_value", "field", "problem", "words"),
    REFUSALS,
    ids=[case[0] for case in REFUSALS],
)
def test_a_limit_is_a_clear_refusal(
    name: str, request_value: Any, field: str, problem: str, words: list[str]
) -> None:
    """Beyond a limit: ok false, the field, the problem's code, one line naming the limit."""
    del name
    if isinstance(request_value, Raw):
        answer = _answer(request_value.value)
    elif isinstance(request_value, str | bytes):
        answer = _answer(request_value)
    else:
        answer = _answer(json.dumps(request_value))
    error = answer.get("error", "")
    assert {
        "ok": False,
        "field": field,
        "problem": problem,
        "words": words,
        "one line": True,
        "shows at most 80 of a value": True,
    } == {
        "ok": answer["ok"],
        "field": answer.get("field"),
        "problem": answer.get("problem"),
        "words": [word for word in words if word in error],
        "one line": len(error.splitlines()) == 1,
        "shows at most 80 of a value": not any(c * (SHOWN + 1) in error for c in "x9bk "),
    }, error


def test_what_is_at_each_limit_passes() -> None:
    """Text of the longest length, the deepest nesting, the longest integer and the longest
    list still pass; the limits are limits, not a margin below them."""
    at_limit = {
        "action": "editions",
        "text": "t" * MAX_TEXT_CHARS,
        "k" * MAX_TEXT_CHARS: 1,
        "integer": int("9" * MAX_INTEGER_DIGITS),
        "negative": -int("9" * MAX_INTEGER_DIGITS),
        "deep": json.loads(_nested(MAX_DEPTH - 1)),  # inside the request: MAX_DEPTH levels
        "long": [0] * MAX_EVENTS,
    }
    text = json.dumps(at_limit)
    text += " " * (MAX_JSON_CHARS - len(text))
    assert (MAX_DEPTH, MAX_JSON_CHARS) == (nesting(text), len(text))
    answer = _answer(text)
    assert (True, None) == (answer["ok"], answer.get("error"))


@pytest.mark.slow
def test_a_match_of_the_most_events_is_scored() -> None:
    """A match of MAX_EVENTS events (the issue's 10,000-event stress case, twice) is
    answered, not refused."""
    events = [{"type": "advantage", "athlete": "A"}] * MAX_EVENTS
    answer = _answer(json.dumps({**SCORE, "events": events}))
    assert (True, MAX_EVENTS) == (answer["ok"], answer["result"]["athletes"]["A"]["advantages"])


# ---------------------------------------------------------------- the limits fit real use


def _longest_event(edition_id: str) -> dict[str, Any]:
    """The event of the edition that takes the most characters, every field filled with
    the longest value its kind allows."""
    edition = load_edition(edition_id)

    def longest(ids: Any) -> str:
        return max(ids, key=len)

    values = {
        "athlete": "both",
        "winner": "A",
        "flag": True,
        "position": longest(edition.positions),
        "variant": longest([v for p in edition.positions.values() for v in p.variants]),
        "reason": longest(edition.advantages),
        "technique": longest(edition.techniques),
        "severity": longest(("technical", "disciplinary")),
        "foul": longest(edition.fouls),
        "rulings": [longest([*edition.positions, "advantage", "none", "penalty"])] * 3,
        "award": longest(edition.awards),
        "time": 3_599,  # the last second of an hour's match
    }
    events = [
        {"type": kind.TYPE, **{f.name: values[f.metadata["kind"]] for f in kind.slots()}}
        for kind in EVENT_TYPES.values()
    ]
    return max(events, key=lambda event: len(json.dumps(event, indent=2)))


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_longest_real_match_fits(edition_id: str) -> None:
    """MAX_EVENTS of the longest event, pretty-printed as a file would be, in a request
    with the longest division fields, fit in MAX_JSON_CHARS, and no real list is longer."""
    request = {**SCORE, "experience": ["grappling-black-belt"] * 4}
    request["events"] = [_longest_event(edition_id)] * MAX_EVENTS
    assert len(json.dumps(request, indent=2)) <= MAX_JSON_CHARS


def test_the_deepest_real_request_fits() -> None:
    """The deepest valid request (a panel's rulings inside an event inside the events inside
    the request) has 4 levels, well within MAX_DEPTH."""
    panel = {"type": "panel", "athlete": "A", "rulings": ["mount", "advantage", "none"]}
    text = json.dumps({**SCORE, "events": [panel]})
    assert (True, 4) == (_answer(text)["ok"], nesting(text))
    assert 4 * 4 <= MAX_DEPTH


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_real_text_fits(edition_id: str) -> None:
    """Every ID a request can name, and all prior experience joined by commas, is far
    shorter than MAX_TEXT_CHARS."""
    edition = load_edition(edition_id)
    texts = [
        *edition.techniques, *edition.ranks, *edition.experiences, *edition.positions,
        *edition.advantages, *edition.fouls, *(v for p in edition.positions.values()
                                                for v in p.variants),
        ",".join(edition.experiences), "latest", "disciplinary", "submission-escaped",
    ]  # fmt: skip
    assert max(len(text) for text in texts) * 4 <= MAX_TEXT_CHARS


def test_integers_within_the_limit_are_exact_in_javascript() -> None:
    """Every integer of MAX_INTEGER_DIGITS digits is below 2**53, so the browser (which
    reads JSON numbers as doubles) and Python see the same number; ages need 3 digits."""
    assert 10**MAX_INTEGER_DIGITS - 1 < 2**53


def test_the_limits_are_published() -> None:
    """LIMITS holds every limit under its JSON name, for the build to put into the pages,
    and the engine answers ``{"action": "limits"}`` with the same numbers."""
    expected = {
        "max_events": MAX_EVENTS,
        "max_json_chars": MAX_JSON_CHARS,
        "max_depth": MAX_DEPTH,
        "max_integer_digits": MAX_INTEGER_DIGITS,
        "max_text_chars": MAX_TEXT_CHARS,
    }
    assert (expected, expected) == (
        json.loads(json.dumps(LIMITS)),
        _answer('{"action": "limits"}')["result"],
    )


# ---------------------------------------------------------------- nesting, unparsed


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("", 0),
        ("1", 0),
        ("[]", 1),
        ('{"a": [{"b": [1]}]}', 4),
        ('["[[[[", "{{"]', 1),  # brackets inside strings do not count
        ('["\\"[[[[", []]', 2),  # nor after an escaped quote
        ('["\\\\", [[]]]', 3),  # an escaped backslash does not escape the quote after it
        ('["\\\\\\"[[", []]', 2),  # an escaped backslash, then an escaped quote
        ('"[[[', 0),  # an unterminated string: the parser stops at it
        ("[[[[", 4),  # unclosed: counted as deep as the parser would go
        ("]]][[", 0),  # closers first: the parser fails at once
        ("[}[}[}", 1),
    ],
)
def test_nesting_is_measured_without_parsing(text: str, depth: int) -> None:
    """``nesting`` counts brackets outside strings, as deep as the parser would recurse."""
    assert depth == nesting(text)


# ---------------------------------------------------------------- values in messages

LIBRARY_CALLS = {
    "edition": lambda: division(LONG, age=30, uniform="gi"),
    "age": lambda: division("2", age=LONG, uniform="gi"),
    "uniform": lambda: division("2", age=30, uniform=LONG),
    "belt": lambda: division("2", age=30, uniform="gi", belt=LONG),
    "lvl": lambda: division("1", age=30, uniform="gi", lvl=LONG),
    "experience": lambda: division("2", age=30, uniform="gi", belt="white", experience=[LONG]),
    "experience-text": lambda: division("2", age=30, uniform="gi", belt="white", experience=LONG),
    "event-type": lambda: _score([{"type": LONG}]),
    "event-field-name": lambda: _score([{"type": "end", LONG: 1}]),
    "event-field-name-line-break": lambda: _score([{"type": "end", "a\nb" + LONG: 1}]),
    "athlete": lambda: _score([{"type": "advantage", "athlete": LONG}]),
    "position": lambda: _score([{"type": "score", "athlete": "A", "position": LONG}]),
    "rulings": lambda: _score([{"type": "panel", "athlete": "A", "rulings": [LONG] * 3}]),
    "flag": lambda: _score([{"type": "end", "final": LONG}]),
    "events": lambda: _score(LONG),
}


def _score(events: Any) -> Any:
    return score_match(division("2", age=30, uniform="gi", belt="blue"), events)


@pytest.mark.parametrize("name", list(LIBRARY_CALLS))
def test_messages_repeat_at_most_80_characters_of_a_value(name: str) -> None:
    """The Python API has no limits on what it is given, but its messages never repeat more
    than 80 characters of a value, and stay on one line."""
    with pytest.raises(RulesError) as caught:
        LIBRARY_CALLS[name]()
    message = str(caught.value)
    assert (False, 1) == ("x" * (SHOWN + 1) in message, len(message.splitlines())), message


def test_the_limits_module_checks_values_not_only_text() -> None:
    """``check_value`` names the path of a value beyond a limit, keys quoted when they are
    not plain names."""
    with pytest.raises(RulesError) as caught:
        limits.check_value({"events": [{"a b": "x" * 201}]}, "")
    assert "events[0]['a b']" == caught.value.field
