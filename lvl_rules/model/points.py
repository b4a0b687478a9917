"""What the referee gives: points for positions, advantages, escaped submissions."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .fields import declare
from .reader import Table

AWARDS = ("points", "advantage", "none")


@dataclass(frozen=True, kw_only=True, slots=True)
class Award:
    """What the referee gives for an action: points, an advantage, or nothing."""

    name: str = declare("text", "The action, in words.")
    kind: str = declare("text", "What it earns.", toml="award", json="award", choices=AWARDS)
    points: int = declare("whole", "How many points (0 unless it earns points).", default=0)
    clause: str = declare("clause", "The clause a referee cites for it.")
    explain: str = declare(
        "text", "Why it earns what it earns, when that needs saying.", default=""
    )
    standard: bool = declare(
        "flag", "True for a variant that is just the position's usual form.", default=False
    )

    def settle(self, table: Table, context: dict[str, Any]) -> Award:
        """Points come with a points award only; a position's variant defaults to its points."""
        award = self
        if award.kind == "points" and not table.has("points"):
            default = context.get("parent", {}).get("points", 0)
            award = dataclasses.replace(award, points=default)
        if award.kind == "points" and award.points == 0:
            raise table.fail("points", "points-needed")
        if award.kind != "points" and award.points:
            raise table.fail("points", "points-not-allowed", award=award.kind)
        return award


@dataclass(frozen=True, kw_only=True, slots=True)
class Variant(Award):
    """A version of a scoring position, and what it earns."""

    id: str = declare("key", "The variant's ID, as given in score events.")


@dataclass(frozen=True, kw_only=True, slots=True)
class Position:
    """A scoring position (5.x) and its variants."""

    id: str = declare("key", "The position's ID, as given in score events.")
    name: str = declare("text", "The position's name.")
    points: int = declare("whole", "What the position scores.", minimum=1)
    clause: str = declare("clause", "The clause that defines it.")
    variants: dict[str, Variant] = declare(
        "keyed", "Versions of the position that earn something else.", default={}, item=Variant
    )

    def award(self, variant: str | None) -> Award:
        """The award for the position, plain or in one of its variants."""
        if variant is None:
            return Award(name=self.name, kind="points", points=self.points, clause=self.clause)
        return self.variants[variant]


@dataclass(frozen=True, kw_only=True, slots=True)
class Reason:
    """A named reason for an advantage, with the clause that allows it."""

    id: str = declare("key", "The reason's ID, as given in advantage events.")
    name: str = declare("text", "The reason, in words.")
    clause: str = declare("clause", "The clause that allows it.")
