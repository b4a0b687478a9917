"""A whole edition as JSON: the file the site publishes and tournament software reads.

The shape is described by ``schema.json`` (shipped in the package) and versioned by
``FORMAT``: fields are only ever added within a format version.
"""

from __future__ import annotations

from typing import Any

from . import render
from .loading import edition_ids
from .model import Criteria, Edition

FORMAT = 1


def export_edition(edition: Edition) -> dict[str, Any]:
    """Every clause, note, technique, chart group and scoring table of an edition."""
    return {
        "format": FORMAT,
        "edition": edition.id,
        "title": edition.title,
        "name": edition.name,
        "description": edition.description,
        "based_on": edition.based_on,
        "latest": edition.id == edition_ids()[-1],
        "clauses": [_clause(edition, clause_id) for clause_id in edition.clauses],
        "notes": [
            {
                "id": n.id,
                "clause": n.clause,
                "title": n.title,
                "decision": n.decision,
                "reason": n.reason,
            }
            for n in edition.notes.values()
        ],
        "techniques": [
            {"id": t.id, "name": t.name, "description": t.description, "prohibited": t.prohibited}
            for t in edition.techniques.values()
        ],
        "eligibility": _eligibility(edition),
        "scoring": _scoring(edition),
        "changes": [
            {"collection": c.collection, "key": c.key, "kind": c.kind, "summary": c.summary}
            for c in edition.changes
        ],
    }


def _clause(edition: Edition, clause_id: str) -> dict[str, Any]:
    clause = edition.clauses[clause_id]
    change = edition.changed("clauses", clause_id)
    return {
        "id": clause.id,
        "title": render.title(edition, clause),
        "parent": clause.parent,
        "markdown": render.body(edition, clause),
        "source": clause.text.strip(),
        "references": list(dict.fromkeys(clause.references())),
        "notes": [note.id for note in edition.notes_for(clause.id)],
        "status": change.kind if change else "unchanged",
    }


def _criteria(item: Criteria, axis: str) -> dict[str, Any]:
    out: dict[str, Any] = {"min_age": item.min_age, "max_age": item.max_age}
    if item.ranks:
        out[f"{axis}s"] = [int(r) if axis == "lvl" else r for r in item.ranks]
    if item.uniforms:
        out["uniforms"] = list(item.uniforms)
    return out


def _eligibility(edition: Edition) -> dict[str, Any]:
    rules = edition.eligibility
    axis = rules.axis
    return {
        "axis": axis,
        "clause": rules.clause,
        "rank_required_from": rules.rank_required_from,
        "prohibited_label": rules.prohibited_label,
        "ranks": [
            {"id": r.id, "name": r.name, "min_age": r.min_age, "max_age": r.max_age}
            for r in edition.ranks.values()
        ],
        "experiences": [{"id": x.id, "name": x.name} for x in edition.experiences.values()],
        "promotion": None
        if rules.promotion_clause is None
        else {
            "clause": rules.promotion_clause,
            "from": rules.promote_from,
            "to": rules.promote_to,
            "min_age": rules.promote_min_age,
        },
        "groups": [
            {
                "id": g.id,
                "label": g.label,
                "when": [_criteria(c, axis) for c in g.when],
                "adds": list(g.adds),
                "limits": {t: _criteria(c, axis) for t, c in g.limits.items()},
                "clause": g.clause,
                "notes": list(g.notes),
            }
            for g in edition.groups
        ],
        "bands": [
            {"id": b.id, "label": b.label, "when": _criteria(b.when, axis)} for b in edition.bands
        ],
    }


def _award(award: Any) -> dict[str, Any]:
    return {
        "name": award.name,
        "award": award.kind,
        "points": award.points,
        "clause": award.clause,
        "explain": award.explain,
        "standard": award.standard,
    }


def _scoring(edition: Edition) -> dict[str, Any]:
    axis = edition.eligibility.axis
    settings = edition.scoring
    return {
        "positions": [
            {
                "id": p.id,
                "name": p.name,
                "points": p.points,
                "clause": p.clause,
                "variants": [{"id": k, **_award(v)} for k, v in p.variants.items()],
            }
            for p in edition.positions.values()
        ],
        "escapes": {k: _award(v) for k, v in edition.escapes.items()},
        "advantages": [
            {"id": r.id, "name": r.name, "clause": r.clause} for r in edition.advantages.values()
        ],
        "fouls": [
            {
                "id": f.id,
                "name": f.name,
                "group": f.group,
                "clause": f.clause,
                "description": render.expand(edition, f.description),
                "generic": f.generic,
                "only_for": [_criteria(c, axis) for c in f.only_for],
                "opponent_points": f.opponent_points,
                "opponent_points_if_defending": f.opponent_points_if_defending,
                "restart": f.restart,
                "unless_legal": f.unless_legal,
            }
            for f in edition.fouls.values()
        ],
        "ladders": [
            {
                "id": ladder.id,
                "name": ladder.name,
                "clause": ladder.clause,
                "when": [_criteria(c, axis) for c in ladder.when],
                "steps": [{"effect": s.effect, "points": s.points} for s in ladder.steps],
            }
            for ladder in edition.ladders
        ],
        "methods": [
            {"id": m.id, "name": m.name, "clause": m.clause, "summary": m.summary}
            for m in edition.methods.values()
        ],
        "rules": {
            "repeat_clause": settings.repeat_clause,
            "advantage_clause": settings.advantage_clause,
            "severe_penalty_clause": settings.severe_penalty_clause,
            "panel_clause": settings.panel_clause,
            "double_stalling_step": settings.double_stalling_step,
            "double_stalling_clause": settings.double_stalling_clause,
            "random_draw_clause": settings.random_draw_clause,
        },
    }
