"""One complete edition of the rules, built from (possibly amended) TOML data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import UNKNOWN_FILE, RulesError
from .athletes import Experience, Rank
from .decisions import Method, Scoring
from .fields import declare, read, read_values
from .fouls import Count, Foul, Ladder
from .points import Award, Position, Reason
from .reader import Table
from .rulebook import Clause, Note
from .techniques import Band, Eligibility, Group, Technique, Unlisted

# What an edition's data holds: keyed collections of records (table name -> record), and
# single settings tables. Groups, bands and ladders keep their file order as tuples.
COLLECTIONS: dict[str, type] = {
    "clauses": Clause,
    "notes": Note,
    "techniques": Technique,
    "unlisted": Unlisted,
    "ranks": Rank,
    "experiences": Experience,
    "groups": Group,
    "bands": Band,
    "positions": Position,
    "escapes": Award,
    "awards": Award,
    "advantages": Reason,
    "fouls": Foul,
    "counts": Count,
    "ladders": Ladder,
    "methods": Method,
}
ORDERED = ("groups", "bands", "ladders")
# Tables an edition may leave out; every other one it has.
OPTIONAL = ("notes", "experiences", "unlisted")
SETTINGS = ("edition", "eligibility", "scoring")
# Where an edition stands on the timeline (lvl_rules.loading.timeline reads it).
DRAFT, IN_FORCE, SUPERSEDED = "draft", "in-force", "superseded"


@dataclass(frozen=True, kw_only=True, slots=True)
class Change:
    """One thing an amendment changed, added or removed, and why (in its own words)."""

    collection: str = declare("text", "The table of the record: clauses, fouls, groups, ...")
    key: str | None = declare("text", "The record's ID (none for a settings table).", default=None)
    kind: str = declare("text", "What the amendment did.", choices=("changed", "added", "removed"))
    summary: str = declare("text", "What changed, in the amendment's words.")


@dataclass(frozen=True, kw_only=True, slots=True)
class Edition:
    """Every rule of one edition, ready for the engines and the site."""

    id: str = declare("text", "The edition's number.", json="edition")
    title: str = declare("text", "The edition's title: 'Edition 2'.")
    name: str = declare("text", "The rulebook's name.")
    description: str = declare("text", "What the edition is, in one or two sentences.")
    based_on: str | None = declare("text", "The edition this one amends, if any.", default=None)
    status: str = declare(
        "text",
        "Where the edition stands: a draft published for comment, the edition in force, "
        "or superseded by a later one. Each edition's own file says it.",
        choices=(DRAFT, IN_FORCE, SUPERSEDED),
    )
    in_force_from: str | None = declare(
        "text", "The date it came into force (YYYY-MM-DD), where the federation gives one.",
        default=None,
    )  # fmt: skip
    clauses: dict[str, Clause]
    notes: dict[str, Note]
    techniques: dict[str, Technique]
    unlisted: dict[str, Unlisted]
    eligibility: Eligibility
    ranks: dict[str, Rank]
    experiences: dict[str, Experience]
    groups: tuple[Group, ...]
    bands: tuple[Band, ...]
    positions: dict[str, Position]
    escapes: dict[str, Award]
    awards: dict[str, Award]
    advantages: dict[str, Reason]
    fouls: dict[str, Foul]
    counts: dict[str, Count]
    ladders: tuple[Ladder, ...]
    methods: dict[str, Method]
    scoring: Scoring
    changes: tuple[Change, ...] = ()

    def clause(self, clause_id: str) -> Clause:
        """The clause with this ID, or a RulesError."""
        try:
            return self.clauses[clause_id]
        except KeyError:
            raise RulesError(
                "no-clause", field="clause", edition=self.id, clause=clause_id
            ) from None

    def notes_for(self, clause_id: str) -> tuple[Note, ...]:
        """Editorial notes attached to a clause, in data order."""
        return tuple(note for note in self.notes.values() if note.clause == clause_id)

    def readings(self, collection: str, key: str | None) -> tuple[Note, ...]:
        """The editorial notes whose reading (not the source's words) a record follows."""
        return tuple(note for note in self.notes.values() if note.reads(collection, key))

    def field_readings(self, collection: str, key: str | None, field: str) -> tuple[Note, ...]:
        """The notes behind one field of a record (a clause's title), not the whole record."""
        return tuple(
            note
            for note in self.notes.values()
            if any(
                (r.collection, r.key, r.field) == (collection, key, field) for r in note.readings
            )
        )

    def reading_ids(self, collection: str, key: str | None, *fields: str) -> tuple[str, ...]:
        """The notes an engine's result about a record carries: those behind the whole
        record, and those behind the ``fields`` that decided the result."""
        notes = self.notes.values()
        return tuple(note.id for note in notes if note.reads(collection, key, fields))

    def changed(self, collection: str, key: str) -> Change | None:
        """How the amendment that made this edition touched a record, if it did."""
        for change in self.changes:
            if change.collection == collection and change.key == key:
                return change
        return None

    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        origins: Mapping[tuple[str, str | None], str],
        *,
        changes: tuple[Change, ...] = (),
    ) -> Edition:
        """Build an edition from merged TOML data; ``origins`` names each record's file."""
        known = (*COLLECTIONS, *SETTINGS)
        unknown = sorted(set(data) - set(known))
        if unknown:
            where = origins.get((unknown[0], None), UNKNOWN_FILE)
            raise RulesError(
                "unknown-edition-table", field=unknown[0], file=where, table=unknown[0],
                known=known,
            )  # fmt: skip

        def settings(name: str) -> Table:
            if name not in data:
                raise RulesError("settings-missing", field=name, table=name)
            return Table(data[name], file=origins.get((name, None), UNKNOWN_FILE), path=name)

        meta = settings("edition")
        about = read_values(cls, meta)
        eligibility = read(Eligibility, settings("eligibility"))
        context = {"axis": eligibility.axis}
        collections: dict[str, Any] = {}
        for name, record in COLLECTIONS.items():
            found = {}
            for key, value in data.get(name, {}).items():
                file = origins.get((name, key), UNKNOWN_FILE)
                path = f'{name}."{key}"' if "." in key else f"{name}.{key}"
                table = Table(value, file=file, path=path)
                found[key] = read(record, table, key=key, **context)
            collections[name] = tuple(found.values()) if name in ORDERED else found
        meta.finish()
        scoring = read(Scoring, settings("scoring"))
        return cls(
            **about, **collections, eligibility=eligibility, scoring=scoring, changes=changes
        )
