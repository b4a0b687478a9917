"""The match sheet: the record of a match that settles a protest.

One request gives everything a sheet shows: the edition (and whether it is in force), the
division, every event scored with its log lines and clauses (refused events set aside,
marked), the result, and the match's **fingerprint**: the SHA-256 of the match in one
canonical JSON form. The same match (edition, division, events, each event's match time
included) always has the same fingerprint, whoever computes it: this API, the command
line (``lvl-rules sheet``) or the sheet page (which asks this API in the browser); any
change of one event changes it. Names are not part of the match: they only say who is who.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .. import loading
from ..engines.division import Division
from ..errors import RulesError
from ..words import division as division_words
from .library import Names, division_json, score_match

# The name and version of the canonical form, given with every fingerprint.
CANONICAL_FORM = "lvl-rules-match/1"


def canonical(athlete: Division, events: Any) -> str:
    """The match as one JSON text: its edition, its division (as the API shows it) and
    its events as given; keys sorted, no spaces, UTF-8 characters as themselves."""
    match = {
        "form": CANONICAL_FORM,
        "edition": athlete.edition_id,
        "division": division_json(athlete),
        "events": events,
    }
    return json.dumps(match, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(athlete: Division, events: Any) -> str:
    """The SHA-256 of the canonical form, in hexadecimal (64 characters)."""
    return hashlib.sha256(canonical(athlete, events).encode("utf-8")).hexdigest()


def sheet(athlete: Division, events: Any, names: Names | None = None) -> dict[str, Any]:
    """The match sheet as JSON: the score answer (refused events set aside) with the
    edition, the division in words and the fingerprint."""
    if not isinstance(events, list):
        raise RulesError("events-not-list", field="events", kind=type(events).__name__)
    report = score_match(athlete, events, set_aside=True, names=names)
    edition = athlete.edition
    return {
        **report.to_json(),
        "edition": {
            "id": edition.id,
            "title": edition.title,
            "in_force": loading.timeline().is_in_force(edition.id),
        },
        "description": division_words.describe(athlete),
        "events": events,
        "fingerprint": {"sha256": fingerprint(athlete, events), "form": CANONICAL_FORM},
    }


def names_from(params: Mapping[str, Any]) -> Names | None:
    """A request's ``names``: what the sentences call athletes A and B, or None."""
    names = params.get("names")
    if names is None:
        return None
    good = isinstance(names, dict) and set(names) <= {"A", "B"}
    if not good or not all(isinstance(v, str) and v.strip() for v in names.values()):
        raise RulesError("names", field="names", value=names)
    return {athlete: name.strip() for athlete, name in names.items()}
