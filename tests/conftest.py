"""Shared fixtures. The tests import ``lvl_rules`` as installed (the wheel), never the tree.

Athletes below are listed from the source documents, not read from the engine: Edition 1
places athletes by LVL 1-4 at every age; Edition 2 by belt, with the kids' belts under 16
and the adult belts from 16 (the editorial note "belts-by-age").
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import lvl_rules
from lvl_rules import Edition

HERE = Path(__file__).parent
IN_PYODIDE = sys.platform == "emscripten"

MIN_AGE, MAX_AGE = 4, 120
UNIFORMS = ("gi", "nogi")
LVLS = ("1", "2", "3", "4")
KIDS_BELTS = ("white", "grey", "yellow", "orange", "green")
ADULT_BELTS = ("white", "blue", "purple", "brown", "black")
EXPERIENCES = ("judo-black-belt", "grappling-black-belt", "wrestling", "mma")
RANK_REQUIRED_FROM = 16


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``host`` marker (skipped when the suite runs inside Pyodide)."""
    config.addinivalue_line(
        "markers",
        "host: needs the host system (a subprocess, the built wheel or files outside the "
        "installed package); skipped inside Pyodide",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Inside Pyodide there is no subprocess and no wheel: skip the ``host`` tests."""
    del config
    if not IN_PYODIDE:
        return
    skip = pytest.mark.skip(reason="needs the host system, not Pyodide")
    for item in items:
        if "host" in item.keywords:
            item.add_marker(skip)


def ranks_at(edition_id: str, age: int) -> tuple[str | None, ...]:
    """Every rank an athlete of this age may give (None: no rank, allowed under 16)."""
    none = (None,) if age < RANK_REQUIRED_FROM else ()
    if edition_id == "1":
        return (*none, *LVLS)
    return (*none, *(KIDS_BELTS if age < RANK_REQUIRED_FROM else ADULT_BELTS))


def rank_field(edition_id: str) -> str:
    """``lvl`` in Edition 1, ``belt`` in Edition 2."""
    return "lvl" if edition_id == "1" else "belt"


def every_athlete(
    edition_id: str, ages: range | tuple[int, ...] = range(MIN_AGE, MAX_AGE + 1)
) -> Iterator[dict[str, object]]:
    """Keyword arguments for :func:`lvl_rules.division`, for every valid athlete.

    Edition 2 athletes come without experience and with each kind of experience.
    """
    experiences: tuple[tuple[str, ...], ...] = ((),)
    if edition_id == "2":
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


@pytest.fixture(scope="session")
def editions() -> dict[str, Edition]:
    """Both editions, as the installed package loads them."""
    return {edition_id: lvl_rules.load_edition(edition_id) for edition_id in ("1", "2")}


@pytest.fixture(scope="session")
def all_athletes() -> object:
    """:func:`every_athlete`, for tests that walk every valid athlete."""
    return every_athlete


@pytest.fixture(scope="session")
def valid_ranks() -> object:
    """:func:`ranks_at`: the ranks valid at an age, from the source documents."""
    return ranks_at
