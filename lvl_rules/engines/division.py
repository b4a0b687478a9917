"""An athlete's division: edition, age, LVL or belt, prior experience, Gi or No-Gi."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from ..model import MAX_AGE, MIN_AGE, UNIFORMS, Edition

MAX_AGE_DIGITS = 9  # nobody is a billion years old


@dataclass(frozen=True, kw_only=True, slots=True)
class Division:
    """A validated division. ``rank`` is the LVL or belt given; ``effective_rank`` is the
    one the rules use (an experienced white belt competes at blue, Edition 2 §1.1)."""

    edition: Edition = field(repr=False, compare=False)
    edition_id: str
    age: int
    uniform: str
    rank: str | None
    experience: tuple[str, ...] = ()
    effective_rank: str | None = None

    @property
    def promoted(self) -> bool:
        """Whether prior experience moved the athlete up a rank."""
        return self.effective_rank != self.rank

    def unused_experience(self) -> str | None:
        """Why prior experience that was given changes nothing, if it does not:
        ``"rank"`` (it only moves another rank up) or ``"age"`` (the athlete is too young)."""
        promotion = self.edition.eligibility.promotion
        if not self.experience or self.promoted or promotion is None:
            return None
        return "rank" if self.rank != promotion.rank_from else "age"


def ranks_at(edition: Edition, age: int) -> tuple[str, ...]:
    """The LVLs or belts that exist at this age in an edition, in data order."""
    return tuple(r.id for r in edition.ranks.values() if r.min_age <= age <= r.max_age)


def place(
    edition: Edition,
    *,
    age: Any,
    uniform: Any,
    lvl: Any = None,
    belt: Any = None,
    experience: Iterable[Any] | None = (),
) -> Division:
    """Check a division's fields against an edition; raise RulesError naming the bad field."""
    years = _age(age)
    kit = _uniform(uniform)
    axis = edition.eligibility.axis
    given, unused = (lvl, belt) if axis == "lvl" else (belt, lvl)
    if unused not in (None, ""):
        wrong = "belt" if axis == "lvl" else "lvl"
        raise RulesError(
            "rank-of-other-axis", field=wrong, given=wrong, axis=axis, edition=edition.id,
            ranks=tuple(edition.ranks),
        )  # fmt: skip
    rank = _rank(edition, axis, given, years)
    seen = _experience(edition, experience)
    effective = rank
    promotion = edition.eligibility.promotion
    if promotion and seen and rank == promotion.rank_from and years >= promotion.min_age:
        effective = promotion.rank_to
    return Division(
        edition=edition,
        edition_id=edition.id,
        age=years,
        uniform=kit,
        rank=rank,
        experience=seen,
        effective_rank=effective,
    )


def _age(value: Any) -> int:
    years = None
    if isinstance(value, int) and not isinstance(value, bool):
        years = value
    elif isinstance(value, float) and value.is_integer():
        years = int(value)
    elif isinstance(value, str):
        text = value.strip()  # ASCII digits only ("²".isdigit() is true), and short
        if text.isascii() and text.isdigit() and len(text) <= MAX_AGE_DIGITS:
            years = int(text)
    if years is None or not MIN_AGE <= years <= MAX_AGE:
        raise RulesError(
            "age-out-of-range", field="age", value=value, minimum=MIN_AGE, maximum=MAX_AGE
        )
    return years


def _text(value: Any) -> str:
    """A request value as the text it is looked up by (booleans as Python writes them)."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int) and value.bit_length() > 64:
        return "?"  # no ID is a number that long (and str() refuses the longest)
    return str(value).strip().lower()


def _uniform(value: Any) -> str:
    text = str(value).strip().lower() if isinstance(value, str) else ""
    if text not in UNIFORMS:
        raise RulesError("unknown-uniform", field="uniform", value=value, choices=UNIFORMS)
    return text


def _rank(edition: Edition, axis: str, value: Any, age: int) -> str | None:
    here = ranks_at(edition, age)
    if value is None or value == "":
        if age >= edition.eligibility.rank_required_from:
            raise RulesError(
                "rank-required", field=axis, axis=axis, edition=edition.id, ranks=here,
                from_age=edition.eligibility.rank_required_from,
            )  # fmt: skip
        return None
    text = _text(value)
    rank = edition.ranks.get(text)
    if rank is None:
        raise RulesError(
            "unknown-rank", field=axis, axis=axis, value=value, edition=edition.id,
            ranks=tuple(edition.ranks),
        )  # fmt: skip
    if not rank.min_age <= age <= rank.max_age:
        raise RulesError(
            "rank-not-at-age", field=axis, axis=axis, rank=text, age=age, edition=edition.id,
            ranks=here, min_age=rank.min_age, max_age=rank.max_age, kids=rank.max_age < MAX_AGE,
            optional=age < edition.eligibility.rank_required_from,
        )  # fmt: skip
    return rank.id


def _experience(edition: Edition, values: Iterable[Any] | None) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [part for part in values.split(",") if part.strip()]
    if not isinstance(values, Iterable) or isinstance(values, Mapping):
        raise RulesError(
            "experience-not-list", field="experience", value=values,
            known=tuple(edition.experiences),
        )  # fmt: skip
    seen: list[str] = []
    for value in values:
        if not edition.experiences:
            raise RulesError("experience-not-in-edition", field="experience", edition=edition.id)
        text = _text(value)
        if text not in edition.experiences:
            raise RulesError(
                "unknown-experience", field="experience", value=value,
                known=tuple(edition.experiences),
            )  # fmt: skip
        if text not in seen:
            seen.append(text)
    return tuple(seen)
