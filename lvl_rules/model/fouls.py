"""Fouls, and the penalty scales they climb."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .athletes import Criteria, any_of
from .fields import declare
from .reader import Table

FOUL_GROUPS = ("stalling", "serious", "severe", "disciplinary")
STEP_EFFECTS = ("mark", "advantage", "points", "disqualify")
RESTARTS = ("standing", "center")
RESETS = ("reaping",)  # 7.3: stop, sit the bottom athlete down, restart (after a sweep, 2 points)


@dataclass(frozen=True, kw_only=True, slots=True)
class Foul:
    """A foul the referee can call, and what it does beyond its penalty."""

    id: str = declare("key", "The foul's ID, as given in penalty events.")
    name: str = declare("text", "The foul's name.")
    group: str = declare(
        "text",
        "stalling and serious fouls climb the penalty scale; severe ones disqualify from the "
        "match, disciplinary ones from the competition.",
        choices=FOUL_GROUPS,
    )
    clause: str = declare("clause", "The clause that names the foul.")
    description: str = declare(
        "markup", "The foul as the rulebook lists it, references written out.", rendered=True
    )
    generic: bool = declare(
        "flag", "True for the catch-all of its group (not printed in the list).", default=False
    )
    only_for: tuple[Criteria, ...] = declare(
        "records", "Where it is a foul at all (empty: everywhere).", default=(), item=Criteria
    )
    opponent_points: int = declare("whole", "Points it also gives the opponent.", default=0)
    opponent_points_if_defending: int = declare(
        "whole",
        "Further points to the opponent when done while defending a takedown or sweep.",
        default=0,
    )
    restart: str | None = declare(
        "text", "How the referee restarts the match after it, if at all.", default=None,
        choices=RESTARTS,
    )  # fmt: skip
    unless_legal: str | None = declare(
        "ref", "A technique: where the chart makes it legal, this is no foul.", default=None
    )
    reset: str | None = declare(
        "text",
        "A stop-and-reset the referee makes, where the foul exists, before it is committed "
        "(reaping: the reaping reset of 7.3).",
        default=None,
        choices=RESETS,
    )
    hold: bool = declare(
        "flag",
        "True for the severe foul of applying a hold the chart does not allow the division: "
        "the only disqualification that may be withdrawn as made in error for a legal hold "
        "(2.1).",
        default=False,
    )

    def settle(self, table: Table, context: dict[str, Any]) -> Foul:
        """Only a severe foul is a call on a hold: 2.1 withdraws a disqualification from the
        match, not one from the competition or a step of the penalty scale."""
        del context
        if self.hold and self.group != "severe":
            raise table.fail("hold", "hold-not-severe", group=self.group)
        return self

    @property
    def on_ladder(self) -> bool:
        """Whether the foul takes the next step on the penalty scale (8.2)."""
        return self.group in ("stalling", "serious")

    def applies(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether this is a foul in the given division at all."""
        return not self.only_for or any_of(self.only_for, age=age, rank=rank, uniform=uniform)


@dataclass(frozen=True, kw_only=True, slots=True)
class LadderStep:
    """What the n-th penalty does: mark it, or also give the opponent something."""

    effect: str = declare("text", "What this penalty does.", choices=STEP_EFFECTS)
    points: int = declare("whole", "Points to the opponent (effect points only).", default=0)

    def settle(self, table: Table, context: dict[str, Any]) -> LadderStep:
        """A points step gives at least one point."""
        del context
        if self.effect == "points" and self.points < 1:
            raise table.fail("points", "too-small", value=self.points, minimum=1)
        return self


@dataclass(frozen=True, kw_only=True, slots=True)
class Ladder:
    """An escalating penalty scale (8.2) and the divisions it is for."""

    id: str = declare("key", "The scale's ID.")
    name: str = declare("text", "The scale's name.")
    clause: str = declare("clause", "The clause that sets the scale.")
    when: tuple[Criteria, ...] = declare(
        "records", "The divisions it is for: any of these sets.", item=Criteria
    )
    steps: tuple[LadderStep, ...] = declare(
        "records", "The 1st, 2nd, ... penalty, in order.", item=LadderStep
    )

    def settle(self, table: Table, context: dict[str, Any]) -> Ladder:
        """The scale ends with disqualification, and only there."""
        del context
        if not self.steps or self.steps[-1].effect != "disqualify":
            raise table.fail("steps", "ladder-end")
        if any(step.effect == "disqualify" for step in self.steps[:-1]):
            raise table.fail("steps", "ladder-early-end")
        return self


COUNT_CLOCKS = ("match", "stopped")


@dataclass(frozen=True, kw_only=True, slots=True)
class Count:
    """A count the referee keeps (7.2.1, 7.2.2, 8.3), and the call the rules make when it
    runs out."""

    id: str = declare("key", "The count's ID.")
    name: str = declare("text", "What is being counted.")
    seconds: int = declare("whole", "How long the count runs.", minimum=1)
    clause: str = declare("clause", "The clause that sets the count.")
    foul: str = declare("ref", "The foul penalized when it runs out.")
    both: bool = declare("flag", "True when both athletes are penalized together.", default=False)
    clock: str = declare(
        "text",
        "match: it runs while the match clock runs; stopped: it runs while the match is "
        "stopped (a uniform is adjusted during a stop).",
        default="match",
        choices=COUNT_CLOCKS,
    )
    only_for: tuple[Criteria, ...] = declare(
        "records", "Where the count is kept at all (empty: everywhere).", default=(),
        item=Criteria,
    )  # fmt: skip
