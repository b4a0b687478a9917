"""The limits at the edges: how much a request, an events file or a link may hold.

Everything a person or a program hands to lvl_rules from outside (a JSON request to
:func:`lvl_rules.faces.api.handle`, an events file or standard input for the command
line, a link's fields in the browser) is checked against these numbers before it is
parsed, or, for what only a parsed value shows, before any engine sees it. Each limit
is a clear RulesError naming the field and the limit; none is ever met by a real use.

Where the sources are silent, the numbers are chosen as the federation would: safety
first (no input can crash the engine, exhaust memory or stall the page), then fairness
(every real match, however long, and every link to it, fits with room to spare).
:data:`LIMITS` holds them under their JSON names; the build writes it into the pages, so
the browser checks a link with the same numbers before the engine starts, and
``{"action": "limits"}`` returns it from the engine.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from ..errors import RulesError
from ..words.errors import member

# The longest event list. A real match has tens of events; one event a second for a
# ten-minute match would be 600. The stress case is a 10,000-event match that must
# stay usable; twice that leaves room to keep recording in it.
MAX_EVENTS = 20_000
# The longest JSON text: a request, an events file (in bytes) or a link (in characters).
# MAX_EVENTS events of the longest kind, pretty-printed (under 150 characters each), fit;
# a link of ~800 events is ~64 KiB.
MAX_JSON_CHARS = 4 * 1024 * 1024
# The deepest nesting of arrays and objects. The deepest valid request has 4 levels (the
# request, its events, one event, a panel's rulings); Python's parser gives out near
# 1,000 and Pyodide's stack sooner, so the text is measured before it is parsed.
MAX_DEPTH = 16
# The most digits in an integer. No valid field needs more than 3 (an age); every integer
# of 15 digits is exact in JavaScript (below 2**53) and in Python, so the browser and the
# engine always see the same number (a 5,000-digit one became null in JavaScript).
MAX_INTEGER_DIGITS = 15
# The longest text in a field or key. The longest valid one is an ID (under 40 characters)
# or the four kinds of prior experience joined by commas (50).
MAX_TEXT_CHARS = 200

LIMITS = {
    "max_events": MAX_EVENTS,
    "max_json_chars": MAX_JSON_CHARS,
    "max_depth": MAX_DEPTH,
    "max_integer_digits": MAX_INTEGER_DIGITS,
    "max_text_chars": MAX_TEXT_CHARS,
}

_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A number beyond the limits, kept as it was written (``read_json(keep=True)``) with
    the error it gets, so that one event holding it can be set aside and recorded as it
    was, instead of the whole input refused; :func:`check_value` raises the error."""

    written: str
    error: RulesError


def read_json(text: Any, field: str, *, source: str | None = None, keep: bool = False) -> Any:
    """JSON text (``str``, or ``bytes`` in UTF-8) parsed within the limits, or a RulesError
    about ``field`` (``"request"``, ``"events"``); ``source`` names the file it came from.

    Checked in order, each before the next step can go wrong: the type, the length, the
    encoding, the nesting depth (before parsing: the parser recurses), then while parsing,
    every number (digits, size, no NaN or Infinity). Values inside are checked by
    :func:`check_value`. Numbers have one form, as in JavaScript: a whole number written
    with a fraction or an exponent (``5.0``, ``5e0``) is the integer (``5``). With
    ``keep``, a number beyond the limits is an :class:`Unreadable` instead of an error.
    """
    where = {"field": field, "source": source}
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_JSON_CHARS:
            raise RulesError("input-too-long", **where, limit=MAX_JSON_CHARS, unit="bytes")
        text = _decoded(bytes(text), where)
    elif not isinstance(text, str):
        raise RulesError("not-json-text", field=field, kind=type(text).__name__)
    if len(text) > MAX_JSON_CHARS:
        raise RulesError("input-too-long", **where, limit=MAX_JSON_CHARS, unit="characters")
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise RulesError("too-deep", **where, depth=depth, limit=MAX_DEPTH)

    def refuse(written: str, problem: str, **details: Any) -> Unreadable:
        error = RulesError(problem, **where, value=written, **details)
        if not keep:
            raise error
        return Unreadable(written, error)

    def integer(digits: str) -> int | Unreadable:
        count = len(digits.lstrip("-"))
        if count > MAX_INTEGER_DIGITS:
            return refuse(digits, "number-too-long", digits=count, limit=MAX_INTEGER_DIGITS)
        return int(digits)

    def number(written: str) -> float | int | Unreadable:
        value = float(written)
        if not math.isfinite(value):
            return refuse(written, "number-too-large")
        if value.is_integer():  # 5.0 and 5e0 are 5; 1e20 is 100000000000000000000
            return integer(str(int(value)))
        return value

    def constant(name: str) -> Unreadable:
        return refuse(name, "not-a-json-number")

    try:
        return json.loads(text, parse_int=integer, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise RulesError("not-json", **where, reason=str(error)) from None
    except RecursionError:  # not reached within MAX_DEPTH; kept as the last guard
        raise RulesError("too-deep", **where, depth=depth, limit=MAX_DEPTH) from None


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text, without parsing it: at least the
    depth the parser would reach, even in invalid JSON.

    Escaped backslashes, then escaped quotes are taken out, so every quote left opens or
    closes a string; the brackets outside strings are counted. Each step runs over the
    whole text at the speed of ``str`` methods (no regular expression that can backtrack,
    no loop in Python over the characters).
    """
    plain = text.replace("\\\\", "").replace('\\"', "")
    outside = "".join(plain.split('"')[::2])
    brackets = _BRACKETS.sub("", outside)
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def check_value(value: Any, field: str) -> None:
    """Every text, key and list inside a parsed value within the limits, or a RulesError
    naming where (``events[3].type``); ``field`` is the value's own name ("" for a request,
    whose fields are named by their keys). An :class:`Unreadable` number raises its error."""
    if isinstance(value, Unreadable):
        raise value.error
    if isinstance(value, str):
        if len(value) > MAX_TEXT_CHARS:
            raise RulesError(
                "text-too-long", field=field, length=len(value), value=value,
                limit=MAX_TEXT_CHARS,
            )  # fmt: skip
    elif isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key)
            if len(name) > MAX_TEXT_CHARS:
                raise RulesError(
                    "key-too-long", field=field or "request", length=len(name), value=name,
                    limit=MAX_TEXT_CHARS,
                )  # fmt: skip
            check_value(item, member(field, name))
    elif isinstance(value, list | tuple):
        if len(value) > MAX_EVENTS:
            raise RulesError("too-many-items", field=field, count=len(value), limit=MAX_EVENTS)
        for index, item in enumerate(value):
            check_value(item, f"{field}[{index}]")


def _decoded(raw: bytes, where: Mapping[str, Any]) -> str:
    """UTF-8 text (a leading byte-order mark, which some editors write, is dropped)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RulesError(
            "input-not-utf8", **where, position=error.start,
            line=raw.count(b"\n", 0, error.start) + 1,
        ) from None  # fmt: skip
