"""The editorial notes page and the data page."""

from __future__ import annotations

from lvl_rules.faces.site import Edition
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from . import page_meta
from .clause_blocks import linker
from .reading_marks import NOTES_PAGE
from .reading_surfaces import Surface, note_surfaces
from .templating import TEMPLATES
from .urls import clause_page, md_link

DATA_PAGE = "data/index.md"


def notes_markdown(editions: tuple[Edition, ...]) -> str:
    """Every editorial note of every edition, newest edition first."""
    shown = []
    for edition in reversed(editions):
        link = linker(edition, NOTES_PAGE)
        notes = []
        for note in edition.notes.values():
            clause = edition.clauses[note.clause]
            notes.append(
                {
                    "id": note.id,
                    "title": note.title,
                    "where": f"§{clause.id}" if clause.numbered else render.title(edition, clause),
                    "target": md_link(NOTES_PAGE, clause_page(edition.id, clause), clause.id),
                    "decision": render.expand(edition, note.decision, link),
                    "reason": render.expand(edition, note.reason, link),
                    "sources": note.sources,
                    "shown": [_shown(s) for s in note_surfaces(edition, note.id)],
                }
            )
        shown.append({"id": edition.id, "title": edition.title, "notes": notes})
    about = page_meta.for_page_about_editions(editions, words.SITE_PAGES["notes"])
    return TEMPLATES.get_template("notes.md.j2").render(
        about=about, editions=shown, description=words.DESCRIPTIONS["notes"],
        shown_on=words.SHOWN_ON,
    )  # fmt: skip


def _shown(surface: Surface) -> str:
    """A surface as the notes page lists it: linked where it is a page of ours."""
    if surface.page is None:
        return surface.name
    return f"[{surface.name}]({md_link(NOTES_PAGE, surface.page, surface.anchor)})"


def data_markdown(editions: tuple[Edition, ...], latest: str) -> str:
    """The page that describes the machine-readable files."""
    return TEMPLATES.get_template("data.md.j2").render(
        editions=list(reversed(editions)), latest=latest, description=words.DESCRIPTIONS["data"]
    )
