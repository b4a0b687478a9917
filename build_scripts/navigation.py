"""The site navigation, laid out from the editions (newest first)."""

from __future__ import annotations

from typing import Any

from lvl_rules.model import Edition
from lvl_rules.words import markdown as render

from .urls import sections


def nav(editions: tuple[Edition, ...]) -> list[Any]:
    """The `nav` setting of mkdocs.yml, computed."""
    latest = editions[-1].id
    rules: list[Any] = ["rules/index.md"]
    for edition in reversed(editions):
        e = edition.id
        title = f"{edition.title} (in force)" if e == latest else edition.title
        pages: list[Any] = [{"About these rules": f"rules/{e}/index.md"}]
        pages += [
            {f"§{s.id} {render.title(edition, s)}": f"rules/{e}/{s.id}.md"}
            for s in sections(edition)
        ]
        pages += [
            {render.title(edition, edition.clauses["closing-note"]): f"rules/{e}/closing-note.md"},
            {"Technique chart": f"rules/{e}/techniques.md"},
            {"Scoring at a glance": f"rules/{e}/scoring.md"},
            {"Printable rulebook": f"rules/{e}/print.md"},
        ]
        rules.append({title: pages})
    rules += [{"What changed": "rules/changes.md"}, {"Editorial notes": "rules/notes.md"}]
    return [
        {"Home": "index.md"},
        {"Is this technique legal?": "lookup.md"},
        {"Score calculator": "calculator.md"},
        {"Rules": rules},
        {"Data": "data/index.md"},
    ]
