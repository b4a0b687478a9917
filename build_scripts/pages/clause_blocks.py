"""One clause as Markdown: its numbered heading with a stable id, citation tools, text, notes."""

from __future__ import annotations

from html import escape

from lvl_rules.faces.site import Clause, Edition, readings_words
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from .reading_marks import note_href, note_linker
from .urls import cite_path, clause_page, href, md_link


def linker(edition: Edition, page: str) -> render.Link:
    """Render cross-references on ``page`` as Markdown links to the clause's page."""

    note = note_linker(edition, page)

    def link(clause_id: str, text: str) -> str:
        if clause_id.startswith(render.NOTE):
            return note(clause_id.removeprefix(render.NOTE), text)
        if clause_id.startswith(render.ANCHOR):  # attr_list: the text's element gets the id
            return f"{text}{{ #{clause_id.removeprefix(render.ANCHOR)} }}"
        target = clause_page(edition.id, edition.clauses[clause_id])
        return f"[{text}]({md_link(page, target, clause_id)})"

    return link


def clause_block(
    edition: Edition,
    clause: Clause,
    page: str,
    *,
    level: int,
    other: Edition | None = None,
    changes_page: str = "rules/changes.md",
) -> str:
    """The Markdown for one clause on ``page``, its heading at ``level`` (1-6); ``other``:
    the edition whose same clause it links to (the one in force, or the one before it)."""
    link = linker(edition, page)
    heading = render.heading(edition, clause)
    lines = [f"{'#' * level} {heading} {{ #{clause.id} .lvl-clause }}", ""]
    lines += _tools(edition, clause, page, other, changes_page)
    if clause.text:
        lines += ["", render.body(edition, clause, link)]
    for note in edition.notes_for(clause.id):
        lines += [
            "",
            f'!!! note "{readings_words.note_heading(note.title)}"',
            "",
            _indent(render.expand(edition, note.decision, link)),
            "",
            _indent(f"*{readings_words.NOTE_REASON}* {render.expand(edition, note.reason, link)}"),
        ]
    return "\n".join(lines) + "\n"


def _tools(
    edition: Edition, clause: Clause, page: str, other: Edition | None, changes_page: str
) -> list[str]:
    cite_url = href(page, cite_path(edition.id, clause.id))
    text = words.citation(edition, clause)
    parts = [
        f'<span class="lvl-cite-text">{text}</span>',
        f'<a class="lvl-permalink" href="{cite_url}" title="{words.permalink_title(text)}">'
        f"{words.PERMALINK}</a>",
        f'<button type="button" class="lvl-copy" data-cite="{text}" data-href="{cite_url}"'
        f"{share_attributes(words.CITATION_SHARE)}>{words.COPY_CITATION}</button>",
    ]
    if clause.our_number:
        parts.append(
            f'<span class="lvl-badge" title="{words.OUR_NUMBER_TITLE}">{words.OUR_NUMBER}</span>'
        )
    ids = [n.id for n in edition.readings("clauses", clause.id)]
    if ids:  # one item of the tools' row: HTML, its links to the notes relative to the page
        parts.append(readings_words.mark_html(edition, ids, note_href(edition, page)))
    change = edition.changed("clauses", clause.id)
    if change is not None:
        anchor = f"e{edition.id}-{clause.id}"
        parts.append(
            f"[{words.change_badge(change.kind, edition)}]"
            f"({md_link(page, changes_page, anchor)})"
            "{ .lvl-badge }"
        )
    if other is not None:
        parts.append(_other_link(edition, clause, page, other, changes_page))
    return ['<p class="lvl-clause-tools" data-search-exclude markdown>', " ".join(parts), "</p>"]


def _other_link(
    edition: Edition, clause: Clause, page: str, other: Edition, changes_page: str
) -> str:
    """One tap to the same clause in ``other``; where it has none, that it is not there,
    linked to what the changes page says of it (in the newer edition, the clause's own
    badge links there already)."""
    newer = other if other.based_on == edition.id or edition.based_on is None else edition
    change = newer.changed("clauses", clause.id)
    there = other.clauses.get(clause.id)
    if there is None:
        where, _ = words.in_other(clause, other, changed=None)
        if change is None or newer is edition:
            return f"*{where}*"
        anchor = f"e{newer.id}-{clause.id}"
        return f"[{where}]({md_link(page, changes_page, anchor)}) {words.not_in_other(change.kind)}"
    where, state = words.in_other(clause, other, changed=change is not None)
    return f"[{where}]({md_link(page, clause_page(other.id, there), clause.id)}) {state}"


def share_attributes(said: dict[str, str]) -> str:
    """A share button's words as its data- attributes (docs/assets/app/share.js)."""
    return "".join(f' data-{name}="{escape(value)}"' for name, value in said.items())


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())
