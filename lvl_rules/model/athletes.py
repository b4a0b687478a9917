"""Athletes as the rules see them: ages, LVLs or belts, prior experience, Gi or No-Gi."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fields import MAX_AGE, MIN_AGE, declare
from .reader import Table

UNIFORMS = ("gi", "nogi")
AXES = ("lvl", "belt")

__all__ = ["AXES", "MAX_AGE", "MIN_AGE", "UNIFORMS", "Criteria", "Experience", "Rank"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Criteria:
    """A set of athletes: an age range, optionally limited to some LVLs or belts and uniforms."""

    min_age: int = declare("age", "The youngest age in the set.", default=MIN_AGE)
    max_age: int = declare("age", "The oldest age in the set.", default=MAX_AGE)
    ranks: tuple[str, ...] = declare(
        "ranks",
        "Only these LVLs (`lvls`, Edition 1) or belts (`belts`, Edition 2); any when absent.",
        default=(),
        omit_empty=True,
    )
    uniforms: tuple[str, ...] = declare(
        "refs", "Only in these uniforms (gi, nogi); both when absent.", default=(), omit_empty=True
    )

    def matches(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether an athlete of this age, rank and uniform belongs to the set."""
        return (
            self.min_age <= age <= self.max_age
            and (not self.ranks or rank in self.ranks)
            and (not self.uniforms or uniform in self.uniforms)
        )

    def settle(self, table: Table, context: dict[str, Any]) -> Criteria:
        """Ranks only of the edition's kind, known uniforms, ages in order."""
        other = "belts" if context["axis"] == "lvl" else "lvls"
        if table.has(other):
            raise table.fail(other, "wrong-axis", axis=context["axis"])
        for uniform in self.uniforms:
            if uniform not in UNIFORMS:
                raise table.fail("uniforms", "criteria-uniform", value=uniform, choices=UNIFORMS)
        if self.min_age > self.max_age:
            raise table.fail("min_age", "ages-reversed")
        return self


def any_of(criteria: tuple[Criteria, ...], *, age: int, rank: str | None, uniform: str) -> bool:
    """Whether an athlete belongs to at least one of the sets."""
    return any(c.matches(age=age, rank=rank, uniform=uniform) for c in criteria)


def in_uniform(criteria: tuple[Criteria, ...], uniform: str) -> bool:
    """Whether some athlete in this uniform belongs to one of the sets (none: everyone)."""
    return not criteria or any(not c.uniforms or uniform in c.uniforms for c in criteria)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rank:
    """An LVL (Edition 1) or a belt (Edition 2), with the ages it exists for."""

    id: str = declare("key", "The LVL's number or the belt's colour, as given in requests.")
    name: str = declare("text", "The name as printed: 'LVL 3' or 'Purple'.")
    min_age: int = declare("age", "The youngest age the rank exists for.", default=MIN_AGE)
    max_age: int = declare("age", "The oldest age the rank exists for.", default=MAX_AGE)


@dataclass(frozen=True, kw_only=True, slots=True)
class Experience:
    """Prior combat-sport experience that moves a white belt up (Edition 2 fair play)."""

    id: str = declare("key", "The experience's ID, as given in requests.")
    name: str = declare("text", "What the experience is, in words.")
