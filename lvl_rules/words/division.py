"""Athletes and divisions in words: ranks, age ranges, uniforms, remarks."""

from __future__ import annotations

from ..engines.division import Division
from ..model import MAX_AGE, MIN_AGE, Criteria, Edition

UNIFORM_NAMES = {"gi": "Gi", "nogi": "No-Gi"}
AXIS_NAMES = {"lvl": "LVL", "belt": "belt"}


def rank_name(edition: Edition, rank: str) -> str:
    """``LVL 3`` or ``purple belt``."""
    name = edition.ranks[rank].name
    return name if edition.eligibility.axis == "lvl" else f"{name.lower()} belt"


def joined(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def describe_ranks(edition: Edition, ranks: tuple[str, ...]) -> str:
    """``brown and black belts`` or ``LVL 3 and 4``."""
    names = [edition.ranks[rank].name for rank in ranks]
    if edition.eligibility.axis == "lvl":
        return f"LVL {joined([name.removeprefix('LVL ') for name in names])}"
    return f"{joined(names).lower()} belts"


def describe_criteria(edition: Edition, criteria: Criteria) -> str:
    """``ages 4–14`` or ``18 and over, white belts, No-Gi``."""
    if criteria.max_age >= MAX_AGE:
        ages = f"{criteria.min_age} and over" if criteria.min_age > MIN_AGE else "every age"
    elif criteria.min_age == criteria.max_age:
        ages = f"age {criteria.min_age}"
    else:
        ages = f"ages {criteria.min_age}–{criteria.max_age}"
    parts = [] if ages == "every age" and (criteria.ranks or criteria.uniforms) else [ages]
    if criteria.ranks:
        parts.append(describe_ranks(edition, criteria.ranks))
    if criteria.uniforms:
        parts.append(" and ".join(UNIFORM_NAMES[u] for u in criteria.uniforms))
    return ", ".join(parts)


def describe(athlete: Division) -> str:
    """``age 30, purple belt, No-Gi`` (and who they compete at when moved up)."""
    parts = [f"age {athlete.age}"]
    if athlete.rank is not None:
        parts.append(rank_name(athlete.edition, athlete.rank))
    if athlete.promoted and athlete.effective_rank is not None:
        parts.append(f"competing at {rank_name(athlete.edition, athlete.effective_rank)}")
    parts.append(UNIFORM_NAMES[athlete.uniform])
    return ", ".join(parts)


def remarks(athlete: Division) -> tuple[str, ...]:
    """Plain-words notes about the inputs, e.g. prior experience that changes nothing."""
    why = athlete.unused_experience()
    promotion = athlete.edition.eligibility.promotion
    if why is None or promotion is None:
        return ()
    where = f"§{promotion.clause}"
    if why == "rank":
        moved = rank_name(athlete.edition, promotion.rank_from)
        return (f"Prior experience changes nothing here: it only moves {moved}s up ({where}).",)
    return (
        f"Prior experience changes nothing here: it only moves athletes aged "
        f"{promotion.min_age} and over ({where}).",
    )
