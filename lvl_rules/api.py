"""The JSON API: the same requests and answers for the CLI, the browser and other tools.

Every function takes plain JSON-like values and returns plain JSON-like values.
:func:`handle` wraps them for the browser's engine worker: one JSON request string in,
one JSON response string out, errors included (never an exception).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .division import Division, division
from .eligibility import check_all, group_of, technique, who_may_use
from .errors import RulesError, allowed
from .export import export_edition
from .loading import edition_ids, load_edition
from .model.divisions import UNIFORM_NAMES
from .scoring import score_match


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
        "division": athlete.to_json(),
        "description": athlete.describe(),
        "remarks": list(athlete.remarks()),
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
                "reason": c.answer.reason,
            }
            for c in cells
        ],
        "summary": _who_summary(
            move.name, [(c.band.label, UNIFORM_NAMES[c.uniform]) for c in cells]
        ),
    }


def score(params: Mapping[str, Any], events: Any) -> dict[str, Any]:
    """Score a match: the division's fields and the list of events."""
    return score_match(division_from(params), events).to_json()


def editions() -> dict[str, Any]:
    """The editions, oldest first, and which one is in force."""
    ids = edition_ids()
    return {
        "latest": ids[-1],
        "editions": [
            {"id": e.id, "title": e.title, "description": e.description, "based_on": e.based_on}
            for e in (load_edition(i) for i in ids)
        ],
    }


def export(params: Mapping[str, Any]) -> dict[str, Any]:
    """A whole edition as JSON."""
    return export_edition(load_edition(params.get("edition", "latest")))


ACTIONS = {
    "eligibility": eligibility,
    "divisions-for": divisions_for,
    "score": lambda request: score(request, request.get("events")),
    "editions": lambda request: editions(),
    "export": export,
}


def handle(request: str) -> str:
    """Answer one JSON request: ``{"action": "eligibility", ...}`` -> ``{"ok": ..., ...}``."""
    try:
        parsed = json.loads(request)
        if not isinstance(parsed, dict):
            raise RulesError("a request must be a JSON object", field="request")
        action = parsed.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            raise RulesError(
                f"action {action!r} is not known; allowed: {allowed(ACTIONS)}", field="action"
            )
        return json.dumps({"ok": True, "result": ACTIONS[action](parsed)})
    except json.JSONDecodeError as error:
        return json.dumps(
            {"ok": False, "error": f"request is not valid JSON: {error}", "field": "request"}
        )
    except RulesError as error:
        return json.dumps({"ok": False, "error": str(error), "field": error.field})


def _who_summary(name: str, cells: list[tuple[str, str]]) -> str:
    if not cells:
        return f"{name}: not legal in any division."
    by_band: dict[str, list[str]] = {}
    for band, uniform in cells:
        by_band.setdefault(band, []).append(uniform)
    parts = [f"{band} ({' and '.join(kits)})" for band, kits in by_band.items()]
    return f"{name}: legal for " + "; ".join(parts) + "."
