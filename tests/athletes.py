"""Every valid athlete, listed from the source documents, not read from the engine.

Edition 1 places athletes by LVL 1-4 at every age; Edition 2 by belt, with the kids'
belts under 16 and the adult belts from 16 (the editorial note "belts-by-age"). Shared by
conftest.py (as fixtures) and by modules that need the lists at import time.
"""

from __future__ import annotations

from collections.abc import Iterator

from lvl_rules import load_edition

MIN_AGE, MAX_AGE = 4, 120
UNIFORMS = ("gi", "nogi")
LVLS = ("1", "2", "3", "4")
KIDS_BELTS = ("white", "grey", "yellow", "orange", "green")
ADULT_BELTS = ("white", "blue", "purple", "brown", "black")
EXPERIENCES = ("judo-black-belt", "grappling-black-belt", "wrestling", "mma")
RANK_REQUIRED_FROM = 16


def ranks_at(edition_id: str, age: int) -> tuple[str | None, ...]:
    """Every rank an athlete of this age may give (None: no rank, allowed under 16)."""
    none = (None,) if age < RANK_REQUIRED_FROM else ()
    if rank_field(edition_id) == "lvl":
        return (*none, *LVLS)
    return (*none, *(KIDS_BELTS if age < RANK_REQUIRED_FROM else ADULT_BELTS))


def rank_field(edition_id: str) -> str:
    """``lvl`` in an edition that goes by LVL (Edition 1), ``belt`` in one that goes by
    belt (Edition 2): the edition's data says which (its rank axis)."""
    return str(load_edition(edition_id).eligibility.axis)


def every_athlete(
    edition_id: str, ages: range | tuple[int, ...] = range(MIN_AGE, MAX_AGE + 1)
) -> Iterator[dict[str, object]]:
    """Keyword arguments for :func:`lvl_rules.division`, for every valid athlete.

    Edition 2 athletes come without experience and with each kind of experience.
    """
    experiences: tuple[tuple[str, ...], ...] = ((),)
    if rank_field(edition_id) == "belt":  # prior experience counts with belts
        experiences = ((), *((e,) for e in EXPERIENCES))
    for age in ages:
        for rank in ranks_at(edition_id, age):
            for uniform in UNIFORMS:
                for experience in experiences:
                    athlete: dict[str, object] = {"age": age, "uniform": uniform}
                    if rank is not None:
                        athlete[rank_field(edition_id)] = rank
                    if experience:
                        athlete["experience"] = list(experience)
                    yield athlete
