"""The eligibility engine: is a technique legal for a division, why, and which clause says so."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .division import Division, describe_ranks, division, rank_name, ranks_at
from .errors import RulesError, allowed
from .model import Band, Criteria, Edition, Group, Technique
from .model.divisions import UNIFORM_NAMES, UNIFORMS


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer:
    """Legal or not, the reason in plain words, the clause to cite and notes that apply."""

    technique: Technique
    legal: bool
    reason: str
    cite: str
    notes: tuple[str, ...] = ()
    group: str | None = None  # the group that first allows it, if any

    def to_json(self) -> dict[str, Any]:
        """The answer as the JSON API shows it."""
        return {
            "id": self.technique.id,
            "name": self.technique.name,
            "legal": self.legal,
            "reason": self.reason,
            "cite": self.cite,
            "notes": list(self.notes),
            "group": self.group,
        }


def group_of(athlete: Division) -> Group:
    """The chart group an athlete belongs to: the last one that covers them."""
    found = None
    for group in athlete.edition.groups:
        if group.covers(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform):
            found = group
    if found is None:  # the data checks make every valid athlete land in a group
        raise RulesError(f"no group of Edition {athlete.edition_id} covers {athlete.describe()}")
    return found


def technique(edition: Edition, technique_id: str) -> Technique:
    """A technique of the catalogue, or a RulesError listing the IDs."""
    found = edition.techniques.get(str(technique_id).strip())
    if found is None:
        raise RulesError(
            f"technique {technique_id!r} is not in the catalogue; allowed: "
            f"{allowed(edition.techniques)}",
            field="technique",
        )
    return found


def granting_group(edition: Edition, technique_id: str) -> Group | None:
    """The chart group that first allows a technique (None for a prohibited one)."""
    return next((group for group in edition.groups if technique_id in group.adds), None)


def check(athlete: Division, technique_id: str) -> Answer:
    """Whether the athlete may use the technique, with the reason and the clause."""
    rules = athlete.edition
    move = technique(rules, technique_id)
    if move.prohibited:
        return Answer(
            technique=move,
            legal=False,
            cite=rules.eligibility.clause,
            reason=f"{rules.eligibility.prohibited_label}.",
        )
    own = group_of(athlete)
    granting = granting_group(rules, move.id)
    if granting is None:  # the data checks make every restricted technique granted once
        raise RulesError(f"no group of Edition {rules.id} allows '{move.id}'")
    legal, reason = _decide(athlete, move, own, granting)
    if not legal:
        other = next(u for u in UNIFORMS if u != athlete.uniform)
        twin = replace(athlete, uniform=other)
        if _decide(twin, move, group_of(twin), granting)[0]:
            reason += f" It would be legal for this athlete in {UNIFORM_NAMES[other]}."
    if athlete.promoted and athlete.effective_rank is not None:
        reason += (
            f" Prior experience moves this athlete to "
            f"{rank_name(rules, athlete.effective_rank)} (§{rules.eligibility.promotion_clause})."
        )
    return Answer(
        technique=move,
        legal=legal,
        reason=reason,
        cite=granting.clause,
        notes=tuple(dict.fromkeys((*own.notes, *granting.notes))),
        group=granting.id,
    )


def _decide(athlete: Division, move: Technique, own: Group, granting: Group) -> tuple[bool, str]:
    order = [group.id for group in athlete.edition.groups]
    limit = granting.limits.get(move.id)
    if order.index(own.id) < order.index(granting.id):
        return False, (
            f"Not legal: allowed only from “{granting.label}”; this athlete "
            f"({athlete.describe()}) is in “{own.label}”."
        )
    if limit is not None and not _within(limit, athlete):
        return False, (
            f"Not legal: in “{granting.label}” it is only for "
            f"{describe_ranks(athlete.edition, limit.ranks)}; this athlete is {athlete.describe()}."
        )
    if own.id == granting.id:
        return True, f"Legal: allowed for “{granting.label}”, this athlete's group."
    return True, (
        f"Legal: allowed from “{granting.label}”; this athlete's group, “{own.label}”, includes it."
    )


def check_all(athlete: Division) -> tuple[Answer, ...]:
    """Answers for every technique of the catalogue, in catalogue order."""
    return tuple(check(athlete, move) for move in athlete.edition.techniques)


def sample(edition: Edition, band: Band, uniform: str) -> Division:
    """A representative athlete of a chart band (the youngest, lowest rank)."""
    age = band.when.min_age
    ranks = band.when.ranks or ranks_at(edition, age)
    needs_rank = age >= edition.eligibility.rank_required_from or band.when.ranks
    key = edition.eligibility.axis
    return division(edition, age=age, uniform=uniform, **{key: ranks[0] if needs_rank else None})


@dataclass(frozen=True, kw_only=True, slots=True)
class Cell:
    """One cell of the published chart: a band, a uniform, and the engine's answer."""

    band: Band
    uniform: str
    answer: Answer


def chart(edition: Edition) -> tuple[tuple[Technique, tuple[Cell, ...]], ...]:
    """Every technique × every band × Gi and No-Gi, answered by :func:`check`."""
    athletes = [
        (band, uniform, sample(edition, band, uniform))
        for band in edition.bands
        for uniform in UNIFORMS
    ]
    return tuple(
        (move, tuple(Cell(band=b, uniform=u, answer=check(a, move.id)) for b, u, a in athletes))
        for move in edition.techniques.values()
    )


def who_may_use(edition: Edition, technique_id: str) -> tuple[Cell, ...]:
    """The chart cells (band and uniform) in which a technique is legal."""
    move = technique(edition, technique_id)
    cells = dict(chart(edition))[move]
    return tuple(cell for cell in cells if cell.answer.legal)


def _within(limit: Criteria, athlete: Division) -> bool:
    return limit.matches(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform)
