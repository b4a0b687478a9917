"""The mark of our reading: how every surface says that what it shows follows an editorial
note (how we read the sources), not the federation's words, and names the note.

One look everywhere: the words :data:`OUR_READING`, then each note's title, linked to the
note where the surface can link (rule pages, charts, tables, "What changed", the match log,
My division), in plain text where it cannot (the CLI's text).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model import Edition

OUR_READING = "Our reading:"


def titles(edition: Edition, note_ids: Iterable[str]) -> list[str]:
    """The titles of the notes, in the order given."""
    return [edition.notes[note_id].title for note_id in note_ids]


def mark_text(edition: Edition, note_ids: Iterable[str]) -> str:
    """``Our reading: <title>; <title>``, or nothing when there is no note."""
    shown = titles(edition, note_ids)
    return f"{OUR_READING} {'; '.join(shown)}" if shown else ""


def mark_markdown(edition: Edition, note_ids: Iterable[str], link: Callable[[str], str]) -> str:
    """``*Our reading:* [<title>](<link>), ...``: ``link`` gives a note's address from its ID."""
    ids = list(note_ids)
    links = ", ".join(f"[{edition.notes[n].title}]({link(n)})" for n in ids)
    return f"*{OUR_READING}* {links}" if ids else ""


def readings_json(edition: Edition, note_ids: Iterable[str]) -> list[dict[str, str]]:
    """The notes as a JSON answer carries them: ``[{"id": ..., "title": ...}]``."""
    return [{"id": n, "title": edition.notes[n].title} for n in note_ids]
