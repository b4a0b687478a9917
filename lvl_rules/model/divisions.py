"""Who may use what: ranks, prior experience, technique groups and chart bands."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..tables import Table

UNIFORMS = ("gi", "nogi")
UNIFORM_NAMES = {"gi": "Gi", "nogi": "No-Gi"}
AXES = ("lvl", "belt")
MIN_AGE = 4
MAX_AGE = 120


@dataclass(frozen=True, kw_only=True, slots=True)
class Criteria:
    """A set of athletes: an age range, optionally limited to some ranks and uniforms."""

    min_age: int = MIN_AGE
    max_age: int = MAX_AGE
    ranks: tuple[str, ...] = ()
    uniforms: tuple[str, ...] = ()

    def matches(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether an athlete of this age, rank and uniform belongs to the set."""
        return (
            self.min_age <= age <= self.max_age
            and (not self.ranks or rank in self.ranks)
            and (not self.uniforms or uniform in self.uniforms)
        )

    @classmethod
    def from_toml(cls, table: Table, axis: str) -> Criteria:
        """Read a criteria table; ranks are written ``lvls = [...]`` or ``belts = [...]``."""
        other = "belts" if axis == "lvl" else "lvls"
        if table.has(other):
            raise table.fail(other, f"does not fit this edition, which places athletes by {axis}")
        criteria = cls(
            min_age=table.integer("min_age", MIN_AGE, minimum=MIN_AGE),
            max_age=table.integer("max_age", MAX_AGE, minimum=MIN_AGE),
            ranks=table.texts(f"{axis}s", ()),
            uniforms=table.texts("uniforms", ()),
        )
        for uniform in criteria.uniforms:
            if uniform not in UNIFORMS:
                raise table.fail("uniforms", f"holds '{uniform}'; allowed: gi, nogi")
        if criteria.min_age > criteria.max_age:
            raise table.fail("min_age", "is greater than max_age")
        table.finish()
        return criteria


def any_of(criteria: tuple[Criteria, ...], *, age: int, rank: str | None, uniform: str) -> bool:
    """Whether an athlete belongs to at least one of the sets."""
    return any(c.matches(age=age, rank=rank, uniform=uniform) for c in criteria)


def read_when(table: Table, axis: str, key: str = "when") -> tuple[Criteria, ...]:
    """Read ``[[<record>.when]]``: the athlete sets a record applies to."""
    return tuple(Criteria.from_toml(item, axis) for item in table.array(key))


@dataclass(frozen=True, kw_only=True, slots=True)
class Rank:
    """An LVL (Edition 1) or a belt (Edition 2), with the ages it exists for."""

    id: str
    name: str
    min_age: int
    max_age: int

    @classmethod
    def from_toml(cls, rank_id: str, table: Table) -> Rank:
        """Read ``[ranks.<id>]``."""
        rank = cls(
            id=rank_id,
            name=table.text("name"),
            min_age=table.integer("min_age", MIN_AGE, minimum=MIN_AGE),
            max_age=table.integer("max_age", MAX_AGE, minimum=MIN_AGE),
        )
        table.finish()
        return rank


@dataclass(frozen=True, kw_only=True, slots=True)
class Experience:
    """Prior combat-sport experience that moves a white belt up (Edition 2 fair play)."""

    id: str
    name: str

    @classmethod
    def from_toml(cls, experience_id: str, table: Table) -> Experience:
        """Read ``[experiences.<id>]``."""
        experience = cls(id=experience_id, name=table.text("name"))
        table.finish()
        return experience


@dataclass(frozen=True, kw_only=True, slots=True)
class Group:
    """One row of the legal-techniques chart: who it covers and what it unlocks.

    Groups are cumulative in file order: an athlete in a group may use what that
    group adds and what every earlier group adds. ``limits`` narrows one added
    technique to some of the group's athletes.
    """

    id: str
    label: str
    when: tuple[Criteria, ...]
    adds: tuple[str, ...]
    limits: dict[str, Criteria] = field(default_factory=dict)
    clause: str
    notes: tuple[str, ...] = ()

    @classmethod
    def from_toml(cls, group_id: str, table: Table, axis: str) -> Group:
        """Read ``[groups.<id>]``."""
        group = cls(
            id=group_id,
            label=table.text("label"),
            when=read_when(table, axis),
            adds=table.texts("adds"),
            limits={
                technique: Criteria.from_toml(limit, axis)
                for technique, limit in table.keyed("limits", {})
            },
            clause=table.text("clause"),
            notes=table.texts("notes", ()),
        )
        table.finish()
        return group

    def covers(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether the athlete belongs to this group."""
        return any_of(self.when, age=age, rank=rank, uniform=uniform)


@dataclass(frozen=True, kw_only=True, slots=True)
class Band:
    """A column of the published chart: athletes who all get the same answers.

    Bands are layout, not rules; a test proves every athlete in a band gets the
    answers shown for it, and that the bands cover every valid athlete once.
    """

    id: str
    label: str
    when: Criteria

    @classmethod
    def from_toml(cls, band_id: str, table: Table, axis: str) -> Band:
        """Read ``[bands.<id>]``."""
        band = cls(
            id=band_id,
            label=table.text("label"),
            when=Criteria.from_toml(table.table("when"), axis),
        )
        table.finish()
        return band


@dataclass(frozen=True, kw_only=True, slots=True)
class Eligibility:
    """How an edition places athletes for the legal-techniques chart."""

    axis: str
    clause: str
    rank_required_from: int
    prohibited_label: str
    promotion_clause: str | None = None
    promote_from: str | None = None
    promote_to: str | None = None
    promote_min_age: int = MAX_AGE

    @classmethod
    def from_toml(cls, table: Table) -> Eligibility:
        """Read ``[eligibility]``."""
        promotion = table.table("promotion", {})
        eligibility = cls(
            axis=table.text("axis", choices=AXES),
            clause=table.text("clause"),
            rank_required_from=table.integer("rank_required_from", minimum=MIN_AGE),
            prohibited_label=table.text("prohibited_label"),
            promotion_clause=promotion.text("clause", None),
            promote_from=promotion.text("from", None),
            promote_to=promotion.text("to", None),
            promote_min_age=promotion.integer("min_age", MAX_AGE, minimum=MIN_AGE),
        )
        promotion.finish()
        table.finish()
        return eligibility
