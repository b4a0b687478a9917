"""Who may use what: the technique catalogue, the chart's groups and columns, and how an
edition places athletes in them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .athletes import AXES, MAX_AGE, UNIFORMS, Criteria, any_of
from .fields import declare
from .reader import Table


@dataclass(frozen=True, kw_only=True, slots=True)
class Technique:
    """A technique named by the rules: always prohibited, or restricted by division."""

    id: str = declare("key", "The technique's ID, as given in requests and links. Never renamed.")
    name: str = declare("text", "The technique's name.")
    description: str = declare("text", "What the technique is, in one sentence.")
    prohibited: bool = declare(
        "choice-flag",
        "True: never legal for anyone; false: legal in some divisions (see the groups).",
        toml="category",
        choices=("prohibited", "restricted"),
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class Unlisted:
    """A technique the chart does not name, so that it restricts it for no athlete: one of
    the examples an answer names first, as what every athlete may use. Which techniques
    these are is our reading (the note that lists this table among its readings)."""

    id: str = declare("key", "The technique's ID.")
    name: str = declare("text", "The technique's name, as a sentence names it: 'armbar'.")
    uniforms: tuple[str, ...] = declare(
        "refs",
        "Only in these uniforms (a collar choke needs a gi); both when absent.",
        default=(),
        omit_empty=True,
    )

    def settle(self, table: Table, context: dict[str, Any]) -> Unlisted:
        """Known uniforms only."""
        del context
        for uniform in self.uniforms:
            if uniform not in UNIFORMS:
                raise table.fail("uniforms", "criteria-uniform", value=uniform, choices=UNIFORMS)
        return self

    def worn_in(self, uniform: str) -> bool:
        """Whether an athlete in this uniform can use it."""
        return not self.uniforms or uniform in self.uniforms


@dataclass(frozen=True, kw_only=True, slots=True)
class Group:
    """One group of the legal-techniques chart: who it covers and what it unlocks.

    Groups are cumulative in file order: an athlete in a group may use what that group
    adds and what every earlier group adds. ``limits`` narrows one added technique to
    some of the group's athletes.
    """

    id: str = declare("key", "The group's ID.")
    label: str = declare("text", "Who the group is, in words.")
    when: tuple[Criteria, ...] = declare(
        "records", "The athletes in the group: any of these sets.", item=Criteria
    )
    adds: tuple[str, ...] = declare("refs", "The restricted techniques the group unlocks.")
    limits: dict[str, Criteria] = declare(
        "by-name",
        "An unlocked technique allowed only to some of the group's athletes.",
        default={},
        item=Criteria,
    )
    clause: str = declare("clause", "The clause that sets the group.")
    notes: tuple[str, ...] = declare(
        "refs", "Editorial notes on how we read the group.", default=()
    )

    def covers(self, *, age: int, rank: str | None, uniform: str) -> bool:
        """Whether the athlete belongs to this group."""
        return any_of(self.when, age=age, rank=rank, uniform=uniform)


@dataclass(frozen=True, kw_only=True, slots=True)
class Band:
    """A column of the published chart: athletes who all get the same answers.

    Bands are layout, not rules; a test proves every athlete in a band gets the answers
    shown for it, and that the bands cover every valid athlete once.
    """

    id: str = declare("key", "The column's ID.")
    label: str = declare("text", "The column's heading.")
    when: Criteria = declare("record", "The athletes in the column.", item=Criteria)


@dataclass(frozen=True, kw_only=True, slots=True)
class Promotion:
    """Prior experience that moves an athlete up a rank (Edition 2 fair play)."""

    clause: str = declare("clause", "The clause that says so.")
    rank_from: str = declare("ref", "The rank moved up from.", toml="from", json="from")
    rank_to: str = declare("ref", "The rank competed at instead.", toml="to", json="to")
    min_age: int = declare("age", "The youngest age it applies to.", default=MAX_AGE)


@dataclass(frozen=True, kw_only=True, slots=True)
class Eligibility:
    """How an edition places athletes for the legal-techniques chart."""

    axis: str = declare("text", "What places athletes: their LVL or their belt.", choices=AXES)
    clause: str = declare("clause", "The clause of the legal-techniques chart.")
    rank_required_from: int = declare("age", "From this age an athlete must give an LVL or belt.")
    prohibited_label: str = declare("text", "The heading of the techniques that are never allowed.")
    promotion: Promotion | None = declare(
        "record", "Prior experience that moves a white belt up, if any.", default=None,
        item=Promotion,
    )  # fmt: skip
