"""The JSON API: the same requests and answers for the CLI, the browser and other tools.

Every function takes plain JSON-like values and returns plain JSON-like values.
:func:`handle` wraps them for the browser's engine worker: one JSON request string in,
one JSON response string out, errors included (never an exception), within the limits
of :mod:`.limits`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from .. import loading
from ..engines.chart import who_may_use
from ..engines.division import Division
from ..engines.eligibility import group_of, technique
from ..errors import RulesError
from ..model import in_uniform
from ..words import division as division_words
from ..words import eligibility as eligibility_words
from ..words.readings import readings_json
from . import limits, my_division
from .export import export_edition
from .library import (
    KeptMatches,
    Names,
    check_all,
    division,
    division_json,
    load_edition,
    rank_axes,
    score_match,
)
from .sheet import details_from, names_from, sheet, who_from

# The browser's engine sends the whole match after every change, under its own key
# (``match``); each caller's match is kept so that only what changed is scored again
# (the answers are the same as a fresh scoring's).
KEPT_MATCHES = KeptMatches()


def division_from(params: Mapping[str, Any]) -> Division:
    """A division from request fields: edition, age, lvl or belt, experience, uniform."""
    return division(
        params.get("edition", "latest"),
        age=params.get("age"),
        uniform=params.get("uniform"),
        lvl=params.get("lvl"),
        belt=params.get("belt"),
        experience=params.get("experience") or (),
    )


def eligibility(params: Mapping[str, Any]) -> dict[str, Any]:
    """Every technique of the catalogue for one division: legal or not, why, which clause."""
    athlete = division_from(params)
    group = group_of(athlete)
    return {
        "edition": athlete.edition_id,
        "division": division_json(athlete),
        "description": division_words.describe(athlete),
        "remarks": list(division_words.remarks(athlete)),
        "group": {"id": group.id, "label": group.label},
        "techniques": [answer.to_json() for answer in check_all(athlete)],
    }


def divisions_for(params: Mapping[str, Any]) -> dict[str, Any]:
    """Which chart columns (age/rank bands, Gi or No-Gi) may use one technique."""
    edition = load_edition(params.get("edition", "latest"))
    move = technique(edition, params.get("technique", ""))
    cells = who_may_use(edition, move.id)
    return {
        "edition": edition.id,
        "technique": {"id": move.id, "name": move.name, "prohibited": move.prohibited},
        "cite": edition.eligibility.clause,
        "legal_in": [
            {
                "band": c.band.id,
                "label": c.band.label,
                "uniform": c.uniform,
                "reason": eligibility_words.reason(c.verdict),
            }
            for c in cells
        ],
        "summary": eligibility_words.who_may_use(
            move.name, [(c.band.label, c.uniform) for c in cells]
        ),
    }


def score(params: Mapping[str, Any], events: Any) -> dict[str, Any]:
    """Score a match: the division's fields and the list of events.

    Optional: ``set_aside`` (true: an event refused where it stands is set aside, its log
    line saying why, and the rest is scored, instead of refusing the whole match);
    ``names`` (what the sentences call athletes A and B: {"A": "Ana"});
    ``log_from`` (an event index) leaves out the log lines of the events before it;
    ``match`` (a caller's key for the match it is recording, instead of ``log_from``): the
    match is kept and re-scored from its first changed event, and the answer's
    ``log_from`` says from which event its log lines are new (those before are the ones
    the previous answer for that key gave); ``legality`` (true: the answer's ``illegal``
    lists the techniques the division may not use, for a page's technique picker, and its
    ``other_uniform`` the fouls and counts that exist only in the other uniform, which a
    page leaves out of its pickers, with the notes behind the counts left out).
    """
    set_aside, legality = (_flag(params, name) for name in ("set_aside", "legality"))
    athlete = division_from(params)
    answer = _score(params, athlete, events, set_aside=set_aside, names=names_from(params))
    if legality:
        answer["illegal"] = list(_illegal(athlete))
        answer["other_uniform"] = _other_uniform(athlete)
    return answer


def _flag(params: Mapping[str, Any], name: str) -> bool:
    value = params.get(name, False)
    if type(value) is not bool:
        raise RulesError("event-flag", field=name, value=value)
    return value


@functools.lru_cache(maxsize=16)
def _illegal(athlete: Division) -> tuple[str, ...]:
    """The techniques a division may not use (asked with every score a page asks for)."""
    return tuple(answer.technique.id for answer in check_all(athlete) if not answer.legal)


def _other_uniform(athlete: Division) -> dict[str, Any]:
    """The fouls and counts no athlete in this division's uniform can meet (a gi's lapel in
    No-Gi), which a page does not offer, and the notes that left the counts out (a page
    marks them as our reading where it says which counts are not offered)."""
    edition = athlete.edition
    fouls = [f.id for f in edition.fouls.values() if not in_uniform(f.only_for, athlete.uniform)]
    counts = [c.id for c in edition.counts.values() if not in_uniform(c.only_for, athlete.uniform)]
    notes = dict.fromkeys(n for c in counts for n in edition.reading_ids("counts", c, "only_for"))
    return {"fouls": fouls, "counts": counts, "readings": readings_json(edition, notes)}


def _score(
    params: Mapping[str, Any],
    athlete: Division,
    events: Any,
    *,
    set_aside: bool,
    names: Names | None,
) -> dict[str, Any]:
    key = params.get("match")
    if key is None:
        log_from = params.get("log_from", 0)
        if type(log_from) is not int or log_from < 0:
            raise RulesError("log-from", field="log_from", value=log_from)
        report = score_match(athlete, events, set_aside=set_aside, names=names)
        return report.to_json(log_from=log_from)
    if not isinstance(key, str) or not key or "log_from" in params:
        raise RulesError("match-key", field="match", value=key)
    report, unchanged = KEPT_MATCHES.score(key, athlete, events, set_aside=set_aside, names=names)
    answer = report.to_json(log_from=unchanged)
    answer["log_from"] = unchanged
    return answer


def match_sheet(params: Mapping[str, Any], events: Any) -> dict[str, Any]:
    """The match sheet (:mod:`.sheet`): the division's fields, the events as recorded,
    and optionally ``names`` and ``colours`` ({"A": ..., "B": ...}), ``details`` (date,
    event, mat, match_number: texts) and ``verify`` (a fingerprint to check)."""
    verify = params.get("verify")
    if verify is not None and not isinstance(verify, str):
        raise RulesError("verify", field="verify", value=verify)
    who, details = who_from(params), details_from(params)
    return sheet(division_from(params), events, who, details, verify=verify)


# The actions whose events are checked against the limits one by one (one beyond them is
# set aside), not with the request.
EVENTS_CHECKED_ONE_BY_ONE = frozenset({"sheet"})


def editions() -> dict[str, Any]:
    """The editions, oldest first, which one is in force, each one's status, and the rank
    axes a division may name (``lvl``, ``belt``, ...)."""
    every = loading.load_all()  # each checked first: a bad status is its file's error
    timeline = loading.timeline()
    return {
        "latest": timeline.in_force(),
        "rank_axes": list(rank_axes()),
        "editions": [
            {
                "id": e.id, "title": e.title, "description": e.description,
                "based_on": e.based_on, "status": e.status, "in_force_from": e.in_force_from,
            }
            for e in every
        ],
    }  # fmt: skip


def export(params: Mapping[str, Any]) -> dict[str, Any]:
    """A whole edition as JSON."""
    return export_edition(load_edition(params.get("edition", "latest")))


ACTIONS = {
    "eligibility": eligibility,
    "divisions-for": divisions_for,
    "score": lambda request: score(request, request.get("events")),
    "editions": lambda request: editions(),
    "export": export,
    "limits": lambda request: dict(limits.LIMITS),
    "sheet": lambda request: match_sheet(request, request.get("events")),
    "my-division": my_division.answer,
}


def handle(request: Any) -> str:
    """Answer one JSON request: ``{"action": "eligibility", ...}`` -> ``{"ok": ..., ...}``.

    Never raises, whatever ``request`` is (text, bytes, anything): bad input is an answer
    with ``ok`` false, the message, the field at fault and the problem's code. Input is
    checked against :mod:`.limits` before it is parsed.
    """
    try:
        parsed = limits.read_json(request, "request", keep=True)
        if not isinstance(parsed, dict):
            limits.check_value(parsed, "")
            raise RulesError("request-not-object", field="request")
        action = parsed.get("action")
        if isinstance(action, str) and action in EVENTS_CHECKED_ONE_BY_ONE:
            limits.check_value({k: v for k, v in parsed.items() if k != "events"}, "")
        else:
            limits.check_value(parsed, "")
        if not isinstance(action, str) or action not in ACTIONS:
            raise RulesError("unknown-action", field="action", value=action, known=tuple(ACTIONS))
        return json.dumps({"ok": True, "result": ACTIONS[action](parsed)})
    except RulesError as error:
        return _refusal(error)
    except Exception as error:  # a defect of ours, still answered (the fuzz tests hunt it)
        return _refusal(RulesError("internal-error", kind=type(error).__name__, reason=str(error)))


def _refusal(error: RulesError) -> str:
    return json.dumps(
        {"ok": False, "error": str(error), "field": error.field, "problem": error.problem}
    )
