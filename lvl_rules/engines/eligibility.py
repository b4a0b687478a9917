"""The eligibility engine: is a technique legal for a division, why, and which clause says so.

The answer is structured (a :class:`Verdict`: legal or not, the kind of reason, the groups
and clause behind it); :mod:`lvl_rules.words.eligibility` puts it into words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import RulesError
from ..model import UNIFORMS, Criteria, Edition, Group, Technique
from .division import Division

# Why a technique is legal or not, as Verdict.why says it.
WHY = (
    "prohibited",  # never allowed, for anyone
    "later-group",  # first allowed for a group after the athlete's
    "limited",  # allowed in the athlete's group, but only for some of its ranks
    "own-group",  # first allowed for the athlete's own group
    "earlier-group",  # allowed from an earlier group, which the athlete's includes
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    """Legal or not for one division, and the facts behind it."""

    division: Division
    technique: Technique
    legal: bool
    why: str  # one of WHY
    cite: str
    own: Group | None = None  # the athlete's group (None for a prohibited technique)
    granting: Group | None = None  # the group that first allows it
    limit: Criteria | None = None  # the limit the athlete falls outside of ("limited")
    legal_in: str | None = None  # when not legal: the other uniform, where it would be
    notes: tuple[str, ...] = ()


def group_of(athlete: Division) -> Group:
    """The chart group an athlete belongs to: the last one that covers them."""
    found = None
    for group in athlete.edition.groups:
        if group.covers(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform):
            found = group
    if found is None:  # the data checks make every valid athlete land in a group
        raise RulesError(
            "no-group", edition=athlete.edition_id, age=athlete.age,
            rank=athlete.effective_rank, uniform=athlete.uniform,
        )  # fmt: skip
    return found


def technique(edition: Edition, technique_id: object) -> Technique:
    """A technique of the catalogue, or a RulesError listing the IDs."""
    wanted = technique_id.strip() if isinstance(technique_id, str) else None
    found = edition.techniques.get(wanted) if wanted is not None else None
    if found is None:
        raise RulesError(
            "unknown-technique", field="technique", value=technique_id,
            known=tuple(edition.techniques),
        )  # fmt: skip
    return found


def granting_group(edition: Edition, technique_id: str) -> Group | None:
    """The chart group that first allows a technique (None for a prohibited one)."""
    return next((group for group in edition.groups if technique_id in group.adds), None)


def decide(athlete: Division, technique_id: str) -> Verdict:
    """Whether the athlete may use the technique, and why."""
    return _verdict(athlete, technique(athlete.edition, technique_id), _Groups(athlete))


def decide_all(athlete: Division) -> tuple[Verdict, ...]:
    """Verdicts for every technique of the catalogue, in catalogue order."""
    groups = _Groups(athlete)
    return tuple(_verdict(athlete, move, groups) for move in athlete.edition.techniques.values())


class _Groups:
    """The athlete's group, and the same athlete's in the other uniform, found once."""

    def __init__(self, athlete: Division) -> None:
        self.athlete = athlete
        self.found: dict[str, tuple[Division, Group]] = {}

    def in_uniform(self, uniform: str) -> tuple[Division, Group]:
        if uniform not in self.found:
            athlete = self.athlete
            if uniform != athlete.uniform:
                athlete = replace(athlete, uniform=uniform)
            self.found[uniform] = (athlete, group_of(athlete))
        return self.found[uniform]


def _verdict(athlete: Division, move: Technique, groups: _Groups) -> Verdict:
    rules = athlete.edition
    if move.prohibited:
        return Verdict(
            division=athlete, technique=move, legal=False, why="prohibited",
            cite=rules.eligibility.clause,
        )  # fmt: skip
    granting = granting_group(rules, move.id)
    if granting is None:  # the data checks make every restricted technique granted once
        raise RulesError("never-allowed", edition=rules.id, technique=move.id)
    verdict = _decide(*groups.in_uniform(athlete.uniform), move, granting)
    if not verdict.legal:
        other = next(u for u in UNIFORMS if u != athlete.uniform)
        if _decide(*groups.in_uniform(other), move, granting).legal:
            verdict = replace(verdict, legal_in=other)
    return verdict


def _decide(athlete: Division, own: Group, move: Technique, granting: Group) -> Verdict:
    order = [group.id for group in athlete.edition.groups]
    limit = granting.limits.get(move.id)
    if order.index(own.id) < order.index(granting.id):
        why = "later-group"
    elif limit is not None and not limit.matches(
        age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform
    ):
        why = "limited"
    else:
        why = "own-group" if own.id == granting.id else "earlier-group"
    return Verdict(
        division=athlete,
        technique=move,
        legal=why in ("own-group", "earlier-group"),
        why=why,
        cite=granting.clause,
        own=own,
        granting=granting,
        limit=limit if why == "limited" else None,
        notes=tuple(dict.fromkeys((*own.notes, *granting.notes))),
    )
