"""Clauses, editorial notes and the technique catalogue."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..tables import Table

# A cross-reference inside rule text: {§2.3.7}. Never a typed number.
REFERENCE = re.compile(r"\{§([^{}\s]+)\}")
# Generated content inside rule text: {table:points}, {points:mount}, {toc:sections}.
MARKER = re.compile(r"\{(table|points|toc):([^{}\s]+)\}")
_FRONT_MATTER = ("preamble", "reading-guide", "closing-note")
# The generated tables a clause may embed, and the other marker kinds' arguments.
TABLES = (
    "points", "technique-groups", "experiences", "ladders",
    "fouls-disciplinary", "fouls-serious", "fouls-severe",
)  # fmt: skip
TOCS = ("sections",)


@dataclass(frozen=True, kw_only=True, slots=True)
class Clause:
    """One citable provision: a section, a sub-section or a named part of one."""

    id: str
    title: str
    text: str

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
        return self.id not in _FRONT_MATTER

    def references(self) -> tuple[str, ...]:
        """Clause IDs this clause's title and text refer to."""
        return tuple(REFERENCE.findall(self.title + "\n" + self.text))

    def markers(self) -> tuple[tuple[str, str], ...]:
        """Generated content this clause embeds, as (kind, argument) pairs."""
        return tuple(MARKER.findall(self.title + "\n" + self.text))

    @classmethod
    def from_toml(cls, clause_id: str, table: Table) -> Clause:
        """Read ``[clauses."<id>"]``."""
        if not re.fullmatch(r"\d+(\.\d+)*", clause_id) and clause_id not in _FRONT_MATTER:
            raise table.fail(
                "",
                f"has clause ID '{clause_id}'; IDs are section numbers such as 5.4 or one of "
                f"{', '.join(_FRONT_MATTER)}",
            )
        clause = cls(id=clause_id, title=table.text("title"), text=table.text("text", ""))
        table.finish()
        return clause


@dataclass(frozen=True, kw_only=True, slots=True)
class Note:
    """An editorial note: how we read the source where it is silent or unclear, and why."""

    id: str
    clause: str
    title: str
    decision: str
    reason: str

    @classmethod
    def from_toml(cls, note_id: str, table: Table) -> Note:
        """Read ``[notes.<id>]``."""
        note = cls(
            id=note_id,
            clause=table.text("clause"),
            title=table.text("title"),
            decision=table.text("decision"),
            reason=table.text("reason"),
        )
        table.finish()
        return note

    def references(self) -> tuple[str, ...]:
        """Clause IDs the note's text refers to, its own clause first."""
        return (self.clause, *REFERENCE.findall(self.decision + "\n" + self.reason))


@dataclass(frozen=True, kw_only=True, slots=True)
class Technique:
    """A technique named by the rules: always prohibited, or restricted by division."""

    id: str
    name: str
    description: str
    prohibited: bool

    @classmethod
    def from_toml(cls, technique_id: str, table: Table) -> Technique:
        """Read ``[techniques.<id>]``."""
        category = table.text("category", choices=("prohibited", "restricted"))
        technique = cls(
            id=technique_id,
            name=table.text("name"),
            description=table.text("description"),
            prohibited=category == "prohibited",
        )
        table.finish()
        return technique
