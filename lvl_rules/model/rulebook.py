"""The rulebook's text: clauses and editorial notes, and the syntax of their markers."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from .fields import declare
from .markup import MARKER, REFERENCE
from .reader import Table

__all__ = ["FRONT_MATTER", "MARKER", "REFERENCE", "SENTENCES", "Clause", "Note", "Reading"]

FRONT_MATTER = ("preamble", "reading-guide", "closing-note")
# Sentences of ours (in lvl_rules.words) a reading may apply to, beside the records: the
# place ``{ collection = "sentences", key = ... }``.
SENTENCES = (
    "chart-intro-promotion",  # the chart's intro: who competes at blue belt (by age)
    "unlisted-techniques",  # the chart and poster legend: an unlisted technique is legal
    "technique-descriptions",  # each technique's short description
)
CLAUSE_ID = re.compile(r"\d+(\.\d+)*")


@dataclass(frozen=True, kw_only=True, slots=True)
class Clause:
    """One citable provision: a section, a sub-section or a named part of one."""

    id: str = declare("clause-key", "The clause's number (5.4), or a name for front matter.")
    title: str = declare("markup", "The title, with generated values written out.", rendered=True)
    text: str = declare(
        "markup",
        "The text as written in the data: Markdown with {§…} references and {…} markers.",
        default="",
        json="source",
    )
    our_number: bool = declare(
        "flag",
        "True when the number is ours, not the federation's: the source leaves this text "
        "unnumbered, and an editorial note beside it says why it has this number.",
        default=False,
    )

    @property
    def parent(self) -> str | None:
        """The enclosing clause's ID (``"2.3"`` for ``"2.3.7"``), or None at the top."""
        head, dot, _ = self.id.rpartition(".")
        return head if dot else None

    @property
    def depth(self) -> int:
        """1 for a section, 2 for a sub-section, and so on."""
        return self.id.count(".") + 1

    @property
    def section(self) -> str:
        """The top-level section this clause belongs to."""
        return self.id.split(".", 1)[0]

    @property
    def numbered(self) -> bool:
        """Whether the clause has a section number (front matter does not)."""
        return self.id not in FRONT_MATTER

    def references(self) -> tuple[str, ...]:
        """Clause IDs this clause's title and text refer to."""
        return tuple(REFERENCE.findall(self.title + "\n" + self.text))

    def markers(self) -> tuple[tuple[str, str], ...]:
        """Generated content this clause embeds, as (kind, argument) pairs."""
        return tuple(MARKER.findall(self.title + "\n" + self.text))

    def settle(self, table: Table, context: dict[str, Any]) -> Clause:
        """Clause IDs are section numbers or one of the front-matter names; the text is
        kept without the blank lines around it."""
        del context
        if not CLAUSE_ID.fullmatch(self.id) and self.id not in FRONT_MATTER:
            raise table.fail("", "clause-id", value=self.id, front_matter=FRONT_MATTER)
        return dataclasses.replace(self, text=self.text.strip())


@dataclass(frozen=True, kw_only=True, slots=True)
class Reading:
    """A place where an editorial note applies: a record of an edition whose content follows
    the note, not the source's words (its clause, row, log lines, export fields, chart cells
    and every other surface that shows it), or a sentence of ours (``sentences``)."""

    collection: str = declare(
        "text", "The record's table: clauses, fouls, techniques, groups, ..., or sentences."
    )
    key: str | None = declare("text", "The record's ID (none for a settings table).", default=None)
    field: str | None = declare(
        "text",
        "The record's field that follows the note, when only one does (a foul's only_for): "
        "an engine's result marks the reading where that field decided it.",
        default=None,
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class Note:
    """An editorial note: how we read the source where it is silent or unclear, and why."""

    id: str = declare("key", "The note's ID.")
    clause: str = declare("clause", "The clause the note concerns.")
    title: str = declare("text", "What the note is about.")
    sources: str = declare(
        "text", "What the sources say, quoted briefly (empty: see the clause).", default=""
    )
    decision: str = declare("markup", "What we decided.")
    reason: str = declare("markup", "Why: safety first, then fairness.")
    readings: tuple[Reading, ...] = declare(
        "records",
        "Every place of this edition that follows this note rather than the source's words: "
        "each surface that shows one marks it as our reading and links the note.",
        default=(),
        item=Reading,
        omit_empty=True,
    )

    def reads(
        self, collection: str, key: str | None, fields: tuple[str, ...] | None = None
    ) -> bool:
        """Whether this note is our reading behind the record ``collection``/``key``: any of
        its fields, or (``fields`` given) the whole record or one of those fields."""
        return any(
            r.collection == collection
            and r.key == key
            and (fields is None or r.field is None or r.field in fields)
            for r in self.readings
        )

    def references(self) -> tuple[str, ...]:
        """Clause IDs the note's text refers to, its own clause first."""
        return (self.clause, *REFERENCE.findall(self.decision + "\n" + self.reason))
