"""The mark of our reading: how every surface says that what it shows follows an editorial
note (how we read the sources), not the federation's words, and names the note.

One look everywhere: the words :data:`OUR_READING`, then each note's title, linked to the
note where the surface can link (rule pages, charts, tables, "What changed", the match log,
My division), in plain text where it cannot (the CLI's text).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape

from ..model import Edition

OUR_READING = "Our reading:"
NOTE_REASON = "Why:"


def note_heading(title: str) -> str:
    """The heading of an editorial note beside its clause."""
    return f"Editorial note: {title}"


def titles(edition: Edition, note_ids: Iterable[str]) -> list[str]:
    """The titles of the notes, in the order given."""
    return [edition.notes[note_id].title for note_id in note_ids]


def mark_text(edition: Edition, note_ids: Iterable[str]) -> str:
    """``Our reading: <title>; <title>``, or nothing when there is no note."""
    shown = titles(edition, note_ids)
    return f"{OUR_READING} {'; '.join(shown)}" if shown else ""


def mark_markdown(
    edition: Edition, note_ids: Iterable[str], link: Callable[[str, str], str]
) -> str:
    """``*Our reading:* [<title>](…), ...``: ``link(note ID, title)`` writes each note's
    title as Markdown (a link to the note, or the plain title)."""
    ids = list(note_ids)
    links = ", ".join(link(n, edition.notes[n].title) for n in ids)
    return f"*{OUR_READING}* {links}" if ids else ""


def mark_html(
    edition: Edition, note_ids: Iterable[str], href: Callable[[str], str] | None = None
) -> str:
    """The mark as HTML, ``<span class="lvl-reading"><em>Our reading:</em> …</span>``: each
    title linked to ``href(note ID)``, or plain where there is no link (a printed poster)."""
    ids = list(note_ids)
    if not ids:
        return ""
    titles = [
        f'<a href="{escape(href(n))}">{escape(edition.notes[n].title)}</a>'
        if href
        else escape(edition.notes[n].title)
        for n in ids
    ]
    return f'<span class="lvl-reading"><em>{OUR_READING}</em> {", ".join(titles)}</span>'


def sentence_readings(edition: Edition, sentence: str) -> tuple[str, ...]:
    """The notes behind one of our sentences (:data:`lvl_rules.model.rulebook.SENTENCES`)."""
    return tuple(note.id for note in edition.readings("sentences", sentence))


def readings_json(edition: Edition, note_ids: Iterable[str]) -> list[dict[str, str]]:
    """The notes as a JSON answer carries them: ``[{"id": ..., "title": ...}]``."""
    return [{"id": n, "title": edition.notes[n].title} for n in note_ids]
