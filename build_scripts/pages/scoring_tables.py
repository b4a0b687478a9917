"""Rows of the "Scoring at a glance" page, straight from an edition's scoring data."""

from __future__ import annotations

from typing import Any

from lvl_rules import render
from lvl_rules.division import describe_criteria
from lvl_rules.model import Award, Edition, Foul

from .urls import clause_page, md_link


def _where(edition: Edition, page: str, clause_id: str) -> str:
    return md_link(page, clause_page(edition.id, edition.clauses[clause_id]))


def _award_words(award: Award) -> str:
    if award.kind == "points":
        return f"{award.points} points"
    return "An advantage (not points)" if award.kind == "advantage" else "No points"


def points_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Every position, every variant and the escaped submissions, with their award."""
    rows = []
    for position in edition.positions.values():
        rows.append(
            {"name": position.name, "award": f"{position.points} points", "clause": position.clause}
        )
        for variant_id, variant in position.variants.items():
            if variant.standard:
                continue
            award = _award_words(variant)
            if variant.explain:
                award += f". {variant.explain}"
            rows.append(
                {"name": position.label(variant_id), "award": award, "clause": variant.clause}
            )
    for escape in edition.escapes.values():
        rows.append({"name": escape.name, "award": _award_words(escape), "clause": escape.clause})
    return [{**row, "page": _where(edition, page, row["clause"])} for row in rows]


def advantage_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Named reasons for an advantage."""
    return [
        {"name": r.name, "clause": r.clause, "page": _where(edition, page, r.clause)}
        for r in edition.advantages.values()
    ]


def foul_effect(edition: Edition, foul: Foul) -> str:
    """What a foul does, in words, from its data."""
    if foul.group == "severe":
        words = "Disqualification from the match"
    elif foul.group == "disciplinary":
        words = "Disqualification from the competition (Gi and No-Gi)"
    else:
        words = "The next penalty on the scale"
    if foul.restart:
        words += f"; the match restarts {foul.restart}"
    if foul.opponent_points:
        words += f"; {foul.opponent_points} points to the opponent"
    if foul.opponent_points_if_defending:
        words += (
            f"; {foul.opponent_points_if_defending} points to the opponent if done while "
            "defending a takedown or sweep"
        )
    if foul.unless_legal:
        name = edition.techniques[foul.unless_legal].name.lower()
        words += f". Not a foul where {name} is legal"
    if foul.only_for:
        words += ". A foul only in: " + "; ".join(
            describe_criteria(edition, c) for c in foul.only_for
        )
    return words


def foul_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Every named foul and the generic ones, with their effect."""
    return [
        {
            "name": foul.name,
            "effect": foul_effect(edition, foul),
            "clause": foul.clause,
            "page": _where(edition, page, foul.clause),
        }
        for foul in edition.fouls.values()
    ]


def decision_rows(edition: Edition, page: str) -> list[dict[str, Any]]:
    """Every way a match can be decided, in the rulebook's order, with its summary."""
    return [
        {
            "name": method.name,
            "clause": method.clause,
            "page": _where(edition, page, method.clause),
            "detail": method.summary,
        }
        for method in edition.methods.values()
    ]


def sequence_points(edition: Edition) -> str:
    """The worked example of section 4: guard pass then mount."""
    return render.expand(edition, "{points:guard-pass+mount}")
