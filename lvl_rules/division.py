"""An athlete's division: edition, age, LVL or belt, prior experience, Gi or No-Gi."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError, allowed
from .loading import load_edition
from .model import Criteria, Edition
from .model.divisions import MAX_AGE, MIN_AGE, UNIFORM_NAMES, UNIFORMS

AXIS_WORDS = {"lvl": "LVL", "belt": "belt"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Division:
    """A validated division. ``rank`` is the LVL or belt given; ``effective_rank`` is
    the one the rules use (an experienced white belt competes at blue, Edition 2 §1.1)."""

    edition: Edition = field(repr=False, compare=False)
    edition_id: str
    age: int
    uniform: str
    rank: str | None
    experience: tuple[str, ...] = ()
    effective_rank: str | None = None

    @property
    def promoted(self) -> bool:
        """Whether prior experience moved the athlete up a belt."""
        return self.effective_rank != self.rank

    def remarks(self) -> tuple[str, ...]:
        """Plain-words notes about the inputs, e.g. prior experience that changes nothing."""
        rules = self.edition.eligibility
        if not self.experience or self.promoted or rules.promotion_clause is None:
            return ()
        where = f"§{rules.promotion_clause}"
        if self.rank != rules.promote_from:
            return (
                f"Prior experience changes nothing here: it only moves "
                f"{rank_name(self.edition, rules.promote_from or '')}s up ({where}).",
            )
        return (
            f"Prior experience changes nothing here: it only moves athletes aged "
            f"{rules.promote_min_age} and over ({where}).",
        )

    def describe(self) -> str:
        """Plain words: ``age 30, purple belt, No-Gi``."""
        parts = [f"age {self.age}"]
        if self.rank is not None:
            parts.append(rank_name(self.edition, self.rank))
        if self.promoted and self.effective_rank is not None:
            parts.append(f"competing at {rank_name(self.edition, self.effective_rank)}")
        parts.append(UNIFORM_NAMES[self.uniform])
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The division as the JSON API shows it."""
        axis = self.edition.eligibility.axis
        out: dict[str, Any] = {
            "edition": self.edition_id,
            "age": self.age,
            axis: int(self.rank) if axis == "lvl" and self.rank else self.rank,
            "uniform": self.uniform,
        }
        if axis == "belt":
            out["experience"] = list(self.experience)
            out["competes_at"] = self.effective_rank
        return out


def rank_name(edition: Edition, rank: str) -> str:
    """``LVL 3`` or ``purple belt``."""
    name = edition.ranks[rank].name
    return name if edition.eligibility.axis == "lvl" else f"{name.lower()} belt"


def ranks_at(edition: Edition, age: int) -> tuple[str, ...]:
    """The LVLs or belts that exist at this age in an edition, in data order."""
    return tuple(r.id for r in edition.ranks.values() if r.min_age <= age <= r.max_age)


def describe_ranks(edition: Edition, ranks: tuple[str, ...]) -> str:
    """``brown and black belts`` or ``LVL 3 and 4``."""
    names = [edition.ranks[rank].name for rank in ranks]
    if edition.eligibility.axis == "lvl":
        names = [name.removeprefix("LVL ") for name in names]
    joined = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"LVL {joined}" if edition.eligibility.axis == "lvl" else f"{joined.lower()} belts"


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


def division(
    edition: str | int | Edition = "latest",
    *,
    age: Any,
    uniform: Any,
    lvl: Any = None,
    belt: Any = None,
    experience: Iterable[Any] | None = (),
) -> Division:
    """Check a division's fields against an edition; raise RulesError naming the bad field."""
    rules = edition if isinstance(edition, Edition) else load_edition(edition)
    years = _age(age)
    kit = _uniform(uniform)
    axis = rules.eligibility.axis
    given, unused = (lvl, belt) if axis == "lvl" else (belt, lvl)
    if unused not in (None, ""):
        wrong = "belt" if axis == "lvl" else "lvl"
        raise RulesError(
            f"{wrong}: Edition {rules.id} places athletes by {AXIS_WORDS[axis]}, not "
            f"{AXIS_WORDS[wrong]}; give {axis} ({allowed(rules.ranks)}) instead",
            field=wrong,
        )
    rank = _rank(rules, axis, given, years)
    seen = _experience(rules, experience)
    effective = rank
    promotion = rules.eligibility
    if seen and rank == promotion.promote_from and years >= promotion.promote_min_age:
        effective = promotion.promote_to
    return Division(
        edition=rules,
        edition_id=rules.id,
        age=years,
        uniform=kit,
        rank=rank,
        experience=seen,
        effective_rank=effective,
    )


def _age(value: Any) -> int:
    text = str(value).strip() if not isinstance(value, bool) else ""
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    # ASCII digits only ("²".isdigit() is true) and short (int() refuses huge strings).
    years = int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None
    if years is None or not MIN_AGE <= years <= MAX_AGE:
        raise RulesError(
            f"age must be a whole number of years from {MIN_AGE} to {MAX_AGE}, not {value!r}",
            field="age",
        )
    return years


def _uniform(value: Any) -> str:
    text = str(value).strip().lower() if isinstance(value, str) else ""
    if text not in UNIFORMS:
        raise RulesError(
            f"uniform must be one of {allowed(UNIFORMS)} (Gi or No-Gi), not {value!r}",
            field="uniform",
        )
    return text


def _rank(rules: Edition, axis: str, value: Any, age: int) -> str | None:
    names = allowed(ranks_at(rules, age))
    if value is None or value == "":
        if age >= rules.eligibility.rank_required_from:
            raise RulesError(
                f"{axis} is required from age {rules.eligibility.rank_required_from} in "
                f"Edition {rules.id}; allowed: {names}",
                field=axis,
            )
        return None
    text = str(value).strip().lower() if not isinstance(value, bool) else repr(value)
    rank = rules.ranks.get(text)
    if rank is None:
        raise RulesError(
            f"{axis} {value!r} does not exist in Edition {rules.id}; allowed: "
            f"{allowed(rules.ranks)}",
            field=axis,
        )
    if not rank.min_age <= age <= rank.max_age:
        raise RulesError(
            f"{axis} '{text}' does not exist at age {age} in Edition {rules.id}; allowed at "
            f"{age}: {names}",
            field=axis,
        )
    return rank.id


def _experience(rules: Edition, values: Iterable[Any] | None) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [part for part in values.split(",") if part.strip()]
    if not isinstance(values, Iterable) or isinstance(values, Mapping):
        raise RulesError(
            f"experience must be a list of prior experience, not {values!r}; allowed: "
            f"{allowed(rules.experiences)}",
            field="experience",
        )
    seen: list[str] = []
    for value in values:
        text = str(value).strip().lower()
        if not rules.experiences:
            raise RulesError(
                f"experience: Edition {rules.id} has no prior-experience rule; leave it out",
                field="experience",
            )
        if text not in rules.experiences:
            raise RulesError(
                f"experience {value!r} is not known; allowed: {allowed(rules.experiences)}",
                field="experience",
            )
        if text not in seen:
            seen.append(text)
    return tuple(seen)
