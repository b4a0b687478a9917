"""Rows of the "Scoring at a glance" page, straight from an edition's scoring data."""

from __future__ import annotations

from typing import Any

from lvl_rules.faces.site import Edition, award_words, foul_effect, label, points_words
from lvl_rules.faces.site import markdown as render

from .reading_marks import reading_mark
from .urls import clause_page, md_link


def _where(edition: Edition, page: str, clause_id: str) -> str:
    return md_link(page, clause_page(edition.id, edition.clauses[clause_id]))


def points_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Every position, every variant, the escaped submissions and the points given outside a
    position, with their award."""
    rows = []
    for position in edition.positions.values():
        rows.append(
            {
                "name": position.name,
                "award": points_words(position.points),
                "clause": position.clause,
            }
        )
        for variant_id, variant in position.variants.items():
            if variant.standard:
                continue
            award = award_words(variant)
            if variant.explain:
                award += f". {variant.explain}"
            rows.append(
                {
                    "name": label(edition, position.id, variant_id),
                    "award": award,
                    "clause": variant.clause,
                }
            )
    for escape in edition.escapes.values():
        rows.append({"name": escape.name, "award": award_words(escape), "clause": escape.clause})
    for award in edition.awards.values():
        rows.append({"name": award.name, "award": award_words(award), "clause": award.clause})
    return [{**row, "page": _where(edition, page, row["clause"])} for row in rows]


def advantage_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Named reasons for an advantage."""
    return [
        {"name": r.name, "clause": r.clause, "page": _where(edition, page, r.clause)}
        for r in edition.advantages.values()
    ]


def foul_anchor(foul_id: str) -> str:
    """The id of a foul's row, where its search entry lands (search_entries.py)."""
    return f"foul-{foul_id}"


def foul_rows(edition: Edition, page: str) -> list[dict[str, str]]:
    """Every named foul and the generic ones, with their effect."""
    return [
        {
            "id": foul_anchor(foul.id),
            "name": foul.name,
            "effect": foul_effect(edition, foul) + _reading(edition, page, "fouls", foul.id),
            "clause": foul.clause,
            "page": _where(edition, page, foul.clause),
        }
        for foul in edition.fouls.values()
    ]


def _reading(edition: Edition, page: str, collection: str, key: str) -> str:
    """A record that follows an editorial note, not the source's words, says so."""
    mark = reading_mark(edition, page, [n.id for n in edition.readings(collection, key)])
    return f". {mark}" if mark else ""


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
