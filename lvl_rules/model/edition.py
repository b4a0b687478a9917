"""One complete edition of the rules, built from (possibly amended) TOML data."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import RulesError, allowed
from ..tables import Table
from .divisions import Band, Eligibility, Experience, Group, Rank
from .scoring import Award, Foul, Ladder, Method, Position, Reason, Scoring
from .text import Clause, Note, Technique

# What an edition's data holds: keyed collections of records, and single settings tables.
COLLECTIONS = (
    "clauses", "notes", "techniques", "ranks", "experiences", "groups", "bands",
    "positions", "escapes", "advantages", "fouls", "ladders", "methods",
)  # fmt: skip
SETTINGS = ("edition", "eligibility", "scoring")

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True, slots=True)
class Change:
    """One thing an amendment changed, added or removed, and why (in its own words)."""

    collection: str
    key: str | None
    kind: str  # "changed" | "added" | "removed"
    summary: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Edition:
    """Every rule of one edition, ready for the engines and the site."""

    id: str
    title: str
    name: str
    description: str
    based_on: str | None
    clauses: dict[str, Clause]
    notes: dict[str, Note]
    techniques: dict[str, Technique]
    eligibility: Eligibility
    ranks: dict[str, Rank]
    experiences: dict[str, Experience]
    groups: tuple[Group, ...]
    bands: tuple[Band, ...]
    positions: dict[str, Position]
    escapes: dict[str, Award]
    advantages: dict[str, Reason]
    fouls: dict[str, Foul]
    ladders: tuple[Ladder, ...]
    methods: dict[str, Method]
    scoring: Scoring
    changes: tuple[Change, ...] = ()

    def clause(self, clause_id: str) -> Clause:
        """The clause with this ID, or a RulesError listing nothing less helpful than why."""
        try:
            return self.clauses[clause_id]
        except KeyError:
            raise RulesError(
                f"Edition {self.id} has no clause '{clause_id}'", field="clause"
            ) from None

    def notes_for(self, clause_id: str) -> tuple[Note, ...]:
        """Editorial notes attached to a clause, in data order."""
        return tuple(note for note in self.notes.values() if note.clause == clause_id)

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
        unknown = sorted(set(data) - set(COLLECTIONS) - set(SETTINGS))
        if unknown:
            where = origins.get((unknown[0], None), "edition data")
            raise RulesError(
                f"{where}: '{unknown[0]}' is not a known table; allowed: "
                f"{allowed(COLLECTIONS + SETTINGS)}",
                field=unknown[0],
            )

        def settings(name: str) -> Table:
            if name not in data:
                raise RulesError(f"edition data has no [{name}] table", field=name)
            return Table(data[name], file=origins.get((name, None), "edition data"), path=name)

        def records(name: str, read: Callable[[str, Table], T]) -> dict[str, T]:
            out: dict[str, T] = {}
            for key, value in data.get(name, {}).items():
                file = origins.get((name, key), "edition data")
                path = f'{name}."{key}"' if "." in key else f"{name}.{key}"
                out[key] = read(key, Table(value, file=file, path=path))
            return out

        meta = settings("edition")
        eligibility = Eligibility.from_toml(settings("eligibility"))
        axis = eligibility.axis
        edition = cls(
            id=meta.text("id"),
            title=meta.text("title"),
            name=meta.text("name"),
            description=meta.text("description"),
            based_on=meta.text("based_on", None),
            clauses=records("clauses", Clause.from_toml),
            notes=records("notes", Note.from_toml),
            techniques=records("techniques", Technique.from_toml),
            eligibility=eligibility,
            ranks=records("ranks", Rank.from_toml),
            experiences=records("experiences", Experience.from_toml),
            groups=tuple(records("groups", lambda k, t: Group.from_toml(k, t, axis)).values()),
            bands=tuple(records("bands", lambda k, t: Band.from_toml(k, t, axis)).values()),
            positions=records("positions", Position.from_toml),
            escapes=records("escapes", lambda k, t: Award.from_toml(t)),
            advantages=records("advantages", Reason.from_toml),
            fouls=records("fouls", lambda k, t: Foul.from_toml(k, t, axis)),
            ladders=tuple(records("ladders", lambda k, t: Ladder.from_toml(k, t, axis)).values()),
            methods=records("methods", Method.from_toml),
            scoring=Scoring.from_toml(settings("scoring")),
            changes=changes,
        )
        meta.finish()
        return edition
