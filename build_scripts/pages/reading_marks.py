"""The mark of our reading on a page: each note's title linked to it on the notes page."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lvl_rules.faces.site import Edition, readings_words

from .urls import href, md_link, page_url

NOTES_PAGE = "rules/notes.md"


def note_anchor(edition_id: str, note_id: str) -> str:
    """The id of a note on the notes page."""
    return f"e{edition_id}-{note_id}"


def reading_mark(edition: Edition, page: str, note_ids: Iterable[str]) -> str:
    """The mark of our reading on a page: ``*Our reading:*`` and each note's title, linked
    to the note; nothing when there is no note."""
    return readings_words.mark_markdown(edition, note_ids, note_linker(edition, page))


def note_href(edition: Edition, page: str) -> Callable[[str], str]:
    """A note's address as an HTML href from ``page`` (for marks written as HTML)."""
    return lambda note_id: href(page, page_url(NOTES_PAGE)) + "#" + note_anchor(edition.id, note_id)


def sentence_mark(edition: Edition, page: str, sentence: str) -> str:
    """`` *Our reading:* …`` after one of our sentences, when a note is behind it."""
    mark = reading_mark(edition, page, readings_words.sentence_readings(edition, sentence))
    return f" {mark}" if mark else ""


def note_linker(edition: Edition, page: str) -> Callable[[str, str], str]:
    """A note's title on ``page`` as a Markdown link to it on the notes page."""
    target = md_link(page, NOTES_PAGE)

    def link(note_id: str, title: str) -> str:
        return f"[{title}]({target}#{note_anchor(edition.id, note_id)})"

    return link
