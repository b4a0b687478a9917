"""The match sheet: the record of a match that settles a protest.

One request gives everything a sheet shows: the edition (and whether it is in force), the
division, who is who, the match's own details, every event scored with its log lines and
clauses (refused events set aside, marked), the result, and the match's **fingerprint**:
the SHA-256 of the match in one canonical JSON form. The same match always has the same
fingerprint, whoever computes it: this API, the command line (``lvl-rules sheet``) or the
sheet page (which asks this API in the browser); any change of one event, of a name or a
colour, changes it.

The match in the canonical form (``lvl-rules-match/2``) is the match as the engine reads
it: numbers in one form (``5.0`` is ``5``: :func:`.limits.read_json`), prior experience in
the edition's order, every event as recorded (refused ones too: a number beyond the
limits as it was written), names and colours, and the details given (date, event, mat,
match_number). Text is written with ``\\u`` escapes for every character beyond ASCII, so
that any text, a lone surrogate included, has one form. A fingerprint of the first form
(``lvl-rules-match/1``: edition, division and events only) still verifies.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from .. import loading
from ..engines.division import Division
from ..errors import RulesError
from ..words import division as division_words
from ..words.sheet import COLOURS, DEFAULT_COLOURS, SAME_LABEL
from . import limits
from .library import Names, division_json, score_match

# The name and version of the canonical form, given with every fingerprint.
CANONICAL_FORM = "lvl-rules-match/2"
FIRST_FORM = "lvl-rules-match/1"
# A match's own details, each a text, all optional.
DETAILS = ("date", "event", "mat", "match_number")
# Characters a name or a detail may not hold: control characters (a newline would forge
# a line of the terminal's sheet, an ESC reach the terminal), lone surrogates, line and
# paragraph separators.
_UNPRINTABLE = frozenset(("Cc", "Cs", "Zl", "Zp"))
_COLOUR_NAMES = {colour: name for colour, name, *_ in COLOURS}


class Who:
    """Who is who in a match: each athlete's name (if given) and colour."""

    def __init__(
        self, names: Names | None = None, colours: Mapping[str, str] | None = None
    ) -> None:
        self.names = dict(names or {})
        self.colours = {**DEFAULT_COLOURS, **(colours or {})}
        self.given = bool(names or colours)  # else the sentences call them A and B

    def label(self, athlete: str) -> str:
        """What the sentences call the athlete: the name, else the colour's name; never
        the same for both (the page's Setup.label says the same)."""

        def own(a: str) -> str:
            return self.names.get(a) or _COLOUR_NAMES.get(self.colours[a]) or a

        other = "B" if athlete == "A" else "A"
        if own(athlete) != own(other):
            return own(athlete)
        return SAME_LABEL.format(label=own(athlete), athlete=athlete)

    def labels(self) -> dict[str, str]:
        """Both athletes' labels."""
        return {a: self.label(a) for a in DEFAULT_COLOURS}

    def to_json(self) -> dict[str, dict[str, str]]:
        """Each athlete's colour, and name if given (the canonical form's ``athletes``)."""
        return {
            a: {"colour": colour, **({"name": self.names[a]} if a in self.names else {})}
            for a, colour in self.colours.items()
        }


def canonical(
    athlete: Division,
    events: Any,
    who: Who | None = None,
    details: Mapping[str, str] | None = None,
) -> str:
    """The match as one JSON text (form ``lvl-rules-match/2``): its edition, division,
    athletes, details given and events as recorded; keys sorted, no spaces, ASCII only."""
    division = division_json(athlete)
    if "experience" in division:
        division["experience"] = [e for e in athlete.edition.experiences if e in athlete.experience]
    match = {
        "form": CANONICAL_FORM,
        "edition": athlete.edition_id,
        "division": division,
        "athletes": (who or Who()).to_json(),
        "details": dict(details or {}),
        "events": events,
    }
    return _written(match)


def _written(value: Any) -> str:
    """``value`` as JSON text, as json.dumps writes it (sorted keys, no spaces, ASCII), with
    each unreadable number as it was written."""
    if isinstance(value, limits.Unreadable):
        return value.written
    if isinstance(value, Mapping):
        items = sorted((str(key), item) for key, item in value.items())
        return "{" + ",".join(f"{json.dumps(key)}:{_written(item)}" for key, item in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_written(item) for item in value) + "]"
    return json.dumps(value)


def first_canonical(athlete: Division, events: Any) -> str:
    """The match in the first form (``lvl-rules-match/1``): edition, division (experience
    as given) and events; UTF-8 characters as themselves."""
    match = {
        "form": FIRST_FORM,
        "edition": athlete.edition_id,
        "division": division_json(athlete),
        "events": events,
    }
    return json.dumps(match, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(
    athlete: Division,
    events: Any,
    who: Who | None = None,
    details: Mapping[str, str] | None = None,
) -> str:
    """The SHA-256 of the canonical form, in hexadecimal (64 characters)."""
    return _sha256(canonical(athlete, events, who, details))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def verified_form(
    claimed: str,
    athlete: Division,
    events: Any,
    who: Who | None = None,
    details: Mapping[str, str] | None = None,
) -> str | None:
    """The form in which ``claimed`` is this match's fingerprint, or None: the current
    form, or the first (which a match beyond its reach, an unreadable number or a text
    that is no UTF-8, never had)."""
    wanted = claimed.strip().lower()
    if wanted == fingerprint(athlete, events, who, details):
        return CANONICAL_FORM
    try:
        first = hashlib.sha256(first_canonical(athlete, events).encode("utf-8")).hexdigest()
    except (TypeError, UnicodeEncodeError):
        return None
    return FIRST_FORM if wanted == first else None


def sheet(
    athlete: Division,
    events: Any,
    who: Who | None = None,
    details: Mapping[str, str] | None = None,
    *,
    verify: str | None = None,
) -> dict[str, Any]:
    """The match sheet as JSON: the score answer (refused events set aside) with the
    edition, the division in words, who is who, the details and the fingerprint (with
    ``verify``, a fingerprint to check: ``verified`` names its form, or is null).

    Each event is checked against the limits on its own (one beyond them is set aside,
    never the sheet); in a match of more than the most events a request may score, the
    first are scored and the rest set aside, as the calculator does."""
    if not isinstance(events, list):
        raise RulesError("events-not-list", field="events", kind=type(events).__name__)
    who = who or Who()
    report = score_match(
        athlete,
        events,
        set_aside=True,
        names=who.labels() if who.given else None,
        refused=dict(_refused(events)),
    )
    edition = athlete.edition
    answer = {
        **report.to_json(),
        "edition": {
            "id": edition.id,
            "title": edition.title,
            "in_force": loading.timeline().is_in_force(edition.id),
        },
        "description": division_words.describe(athlete),
        "who": who.to_json(),
        "labels": who.labels(),
        "details": dict(details or {}),
        "events": [_readable(event) for event in events],
        "fingerprint": {
            "sha256": fingerprint(athlete, events, who, details),
            "form": CANONICAL_FORM,
        },
    }
    if verify is not None:
        answer["verified"] = verified_form(verify, athlete, events, who, details)
    return answer


def _refused(events: list[Any]) -> Any:
    """(index, error) of each event the engine must not see: beyond the most events, or
    holding a value beyond the limits."""
    for index, event in enumerate(events):
        where = f"events[{index}]"
        if index >= limits.MAX_EVENTS:
            yield index, RulesError("event-beyond-limit", field=where, limit=limits.MAX_EVENTS)
            continue
        try:
            limits.check_value(event, where)
        except RulesError as error:
            yield index, RulesError(error.problem, **{**error.details, "field": where})


def _readable(value: Any) -> Any:
    """The event as JSON can hold it: an unreadable number as the text it was written."""
    if isinstance(value, limits.Unreadable):
        return value.written
    if isinstance(value, dict):
        return {key: _readable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_readable(item) for item in value]
    return value


def printable(text: Any) -> bool:
    """Whether a name or a detail is a text without control characters or lone surrogates."""
    return isinstance(text, str) and not any(unicodedata.category(c) in _UNPRINTABLE for c in text)


def names_from(params: Mapping[str, Any]) -> Names | None:
    """A request's ``names``: each athlete's name as typed (or None): texts without
    control characters."""
    names = params.get("names")
    if names is None:
        return None
    good = isinstance(names, dict) and set(names) <= {"A", "B"}
    if not good or not all(printable(v) and v.strip() for v in names.values()):
        raise RulesError("names", field="names", value=names)
    return {athlete: name.strip() for athlete, name in names.items()}


def who_from(params: Mapping[str, Any]) -> Who:
    """A request's ``names`` and ``colours`` (each athlete's colour ID; by default A's and
    B's own)."""
    colours = params.get("colours")
    if colours is not None:
        good = isinstance(colours, dict) and set(colours) <= {"A", "B"}
        if not good or not all(c in _COLOUR_NAMES for c in colours.values()):
            raise RulesError("colours", field="colours", value=colours, known=tuple(_COLOUR_NAMES))
    return Who(names_from(params), colours)


def details_from(params: Mapping[str, Any]) -> dict[str, str]:
    """A request's ``details``: the match's date, event, mat and match_number, each a text
    (optional; an empty one is not given)."""
    details = params.get("details")
    if details is None:
        return {}
    good = isinstance(details, dict) and set(details) <= set(DETAILS)
    if not good or not all(printable(v) for v in details.values()):
        raise RulesError("details", field="details", value=details, known=DETAILS)
    return {key: value.strip() for key, value in details.items() if value.strip()}
