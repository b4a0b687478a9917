"""The site navigation, laid out from the editions (newest first), and the name each
page of an edition goes by there and in its title."""

from __future__ import annotations

from typing import Any

from lvl_rules.faces.site import Edition, edition_in_force
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from .urls import sections


def edition_pages(edition: Edition) -> list[tuple[str, str]]:
    """``(name, source page)`` of every page of an edition, in navigation order."""
    e = edition.id
    closing = edition.clauses["closing-note"]
    return [
        (words.ABOUT_PAGE, f"rules/{e}/index.md"),
        *((words.section_name(edition, s), f"rules/{e}/{s.id}.md") for s in sections(edition)),
        (render.title(edition, closing), f"rules/{e}/closing-note.md"),
        (words.CHART_PAGE, f"rules/{e}/techniques.md"),
        (words.SCORING_PAGE, f"rules/{e}/scoring.md"),
        (words.PRINT_PAGE, f"rules/{e}/print.md"),
    ]


def nav(editions: tuple[Edition, ...]) -> list[Any]:
    """The `nav` setting of mkdocs.yml, computed."""
    latest = edition_in_force(editions).id
    rules: list[Any] = ["rules/index.md"]
    for edition in reversed(editions):
        pages = [{name: page} for name, page in edition_pages(edition)]
        rules.append({words.edition_choice(edition, latest): pages})
    names = words.SITE_PAGES
    rules += [{names["changes"]: "rules/changes.md"}, {names["notes"]: "rules/notes.md"}]
    rules.append({names["glossary"]: "rules/glossary.md"})
    return [
        {names["home"]: "index.md"},
        {names["lookup"]: "lookup.md"},
        {names["calculator"]: "calculator.md"},
        {names["rules"]: rules},
        {names["data"]: "data/index.md"},
    ]
