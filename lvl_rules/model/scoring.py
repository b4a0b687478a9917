"""Points, advantages, fouls, the penalty ladders and how matches are decided."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..tables import Table
from .divisions import Criteria, any_of, read_when

AWARDS = ("points", "advantage", "none")
FOUL_GROUPS = ("stalling", "serious", "severe", "disciplinary")
STEP_EFFECTS = ("mark", "advantage", "points", "disqualify")
RESTARTS = ("standing", "center")


@dataclass(frozen=True, kw_only=True, slots=True)
class Award:
    """What the referee gives for an action: points, an advantage, or nothing."""

    name: str
    kind: str
    points: int
    clause: str
    explain: str = ""
    standard: bool = False  # a variant that is just the position's usual form

    @classmethod
    def from_toml(cls, table: Table, *, default_points: int = 0) -> Award:
        """Read an award table (a position variant or an escaped submission)."""
        kind = table.text("award", choices=AWARDS)
        award = cls(
            name=table.text("name"),
            kind=kind,
            points=table.integer("points", default_points if kind == "points" else 0, minimum=0),
            clause=table.text("clause"),
            explain=table.text("explain", ""),
            standard=table.boolean("standard", False),
        )
        if kind == "points" and award.points == 0:
            raise table.fail("points", "must be more than 0 when the award is points")
        if kind != "points" and award.points:
            raise table.fail("points", f"must not be set when the award is {kind}")
        table.finish()
        return award


@dataclass(frozen=True, kw_only=True, slots=True)
class Position:
    """A scoring position (5.x) and its variants."""

    id: str
    name: str
    points: int
    clause: str
    variants: dict[str, Award] = field(default_factory=dict)

    def award(self, variant: str | None) -> Award:
        """The award for the position, plain or in one of its variants."""
        if variant is None:
            return Award(name=self.name, kind="points", points=self.points, clause=self.clause)
        return self.variants[variant]

    def label(self, variant: str | None) -> str:
        """``Mount`` or ``Mount (reverse, facing the legs)``."""
        return f"{self.name} ({self.variants[variant].name})" if variant else self.name

    @classmethod
    def from_toml(cls, position_id: str, table: Table) -> Position:
        """Read ``[positions.<id>]``."""
        points = table.integer("points", minimum=1)
        position = cls(
            id=position_id,
            name=table.text("name"),
            points=points,
            clause=table.text("clause"),
            variants={
                variant: Award.from_toml(item, default_points=points)
                for variant, item in table.keyed("variants", {})
            },
        )
        table.finish()
        return position


@dataclass(frozen=True, kw_only=True, slots=True)
class Reason:
    """A named reason for an advantage, with the clause that allows it."""

    id: str
    name: str
    clause: str

    @classmethod
    def from_toml(cls, reason_id: str, table: Table) -> Reason:
        """Read ``[advantages.<id>]``."""
        reason = cls(id=reason_id, name=table.text("name"), clause=table.text("clause"))
        table.finish()
        return reason


@dataclass(frozen=True, kw_only=True, slots=True)
class Foul:
    """A foul the referee can call, and what it does beyond its penalty."""

    id: str
    name: str
    group: str
    clause: str
    description: str
    generic: bool = False
    only_for: tuple[Criteria, ...] = ()
    opponent_points: int = 0
    opponent_points_if_defending: int = 0
    restart: str | None = None
    unless_legal: str | None = None  # not a foul where this technique is legal

    @property
    def on_ladder(self) -> bool:
        """Whether the foul takes the next step on the penalty ladder (8.2)."""
        return self.group in ("stalling", "serious")

    def applies(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether this is a foul in the given division at all."""
        return not self.only_for or any_of(self.only_for, age=age, rank=rank, uniform=uniform)

    @classmethod
    def from_toml(cls, foul_id: str, table: Table, axis: str) -> Foul:
        """Read ``[fouls.<id>]``."""
        foul = cls(
            id=foul_id,
            name=table.text("name"),
            group=table.text("group", choices=FOUL_GROUPS),
            clause=table.text("clause"),
            description=table.text("description"),
            generic=table.boolean("generic", False),
            only_for=read_when(table, axis, "only_for") if table.has("only_for") else (),
            opponent_points=table.integer("opponent_points", 0),
            opponent_points_if_defending=table.integer("opponent_points_if_defending", 0),
            restart=table.text("restart", None, choices=RESTARTS),
            unless_legal=table.text("unless_legal", None),
        )
        table.finish()
        return foul


@dataclass(frozen=True, kw_only=True, slots=True)
class LadderStep:
    """What the n-th penalty does: mark it, or also give the opponent something."""

    effect: str
    points: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class Ladder:
    """An escalating penalty scale (8.2) and the divisions it is for."""

    id: str
    name: str
    clause: str
    when: tuple[Criteria, ...]
    steps: tuple[LadderStep, ...]

    @classmethod
    def from_toml(cls, ladder_id: str, table: Table, axis: str) -> Ladder:
        """Read ``[ladders.<id>]``."""
        steps = []
        for step in table.array("steps"):
            effect = step.text("effect", choices=STEP_EFFECTS)
            points = step.integer("points", 0, minimum=1 if effect == "points" else 0)
            step.finish()
            steps.append(LadderStep(effect=effect, points=points))
        if not steps or steps[-1].effect != "disqualify":
            raise table.fail("steps", "must end with the disqualify step")
        if any(step.effect == "disqualify" for step in steps[:-1]):
            raise table.fail("steps", "may disqualify only on the last step")
        ladder = cls(
            id=ladder_id,
            name=table.text("name"),
            clause=table.text("clause"),
            when=read_when(table, axis),
            steps=tuple(steps),
        )
        table.finish()
        return ladder


@dataclass(frozen=True, kw_only=True, slots=True)
class Method:
    """A way a match can be decided (section 3)."""

    id: str
    name: str
    clause: str
    summary: str

    @classmethod
    def from_toml(cls, method_id: str, table: Table) -> Method:
        """Read ``[methods.<id>]``."""
        method = cls(
            id=method_id,
            name=table.text("name"),
            clause=table.text("clause"),
            summary=table.text("summary"),
        )
        table.finish()
        return method


@dataclass(frozen=True, kw_only=True, slots=True)
class Scoring:
    """Clauses the scoring engine cites for rules that are not tables of their own."""

    repeat_clause: str
    advantage_clause: str
    severe_penalty_clause: str
    panel_clause: str
    double_stalling_step: int
    double_stalling_clause: str
    random_draw_clause: str

    @classmethod
    def from_toml(cls, table: Table) -> Scoring:
        """Read ``[scoring]``."""
        scoring = cls(
            repeat_clause=table.text("repeat_clause"),
            advantage_clause=table.text("advantage_clause"),
            severe_penalty_clause=table.text("severe_penalty_clause"),
            panel_clause=table.text("panel_clause"),
            double_stalling_step=table.integer("double_stalling_step", minimum=1),
            double_stalling_clause=table.text("double_stalling_clause"),
            random_draw_clause=table.text("random_draw_clause"),
        )
        table.finish()
        return scoring
