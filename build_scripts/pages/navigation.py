"""The site navigation, laid out from the editions (newest first), and the name each
page of an edition goes by there and in its title."""

from __future__ import annotations

from typing import Any

from lvl_rules.model import Edition
from lvl_rules.words import markdown as render
from lvl_rules.words.site import edition_choice, section_name

from .urls import sections


def edition_pages(edition: Edition) -> list[tuple[str, str]]:
    """``(name, source page)`` of every page of an edition, in navigation order."""
    e = edition.id
    closing = edition.clauses["closing-note"]
    return [
        ("About these rules", f"rules/{e}/index.md"),
        *((section_name(edition, s), f"rules/{e}/{s.id}.md") for s in sections(edition)),
        (render.title(edition, closing), f"rules/{e}/closing-note.md"),
        ("Technique chart", f"rules/{e}/techniques.md"),
        ("Scoring at a glance", f"rules/{e}/scoring.md"),
        ("Printable rulebook", f"rules/{e}/print.md"),
    ]


def nav(editions: tuple[Edition, ...]) -> list[Any]:
    """The `nav` setting of mkdocs.yml, computed."""
    latest = editions[-1].id
    rules: list[Any] = ["rules/index.md"]
    for edition in reversed(editions):
        pages = [{name: page} for name, page in edition_pages(edition)]
        rules.append({edition_choice(edition, latest): pages})
    rules += [{"What changed": "rules/changes.md"}, {"Editorial notes": "rules/notes.md"}]
    return [
        {"Home": "index.md"},
        {"My division": "lookup.md"},
        {"Score calculator": "calculator.md"},
        {"Rules": rules},
        {"Data": "data/index.md"},
    ]
