"""Shared fixtures. The tests import ``lvl_rules`` as installed (the wheel), never the tree.

The lists of valid athletes are in ``athletes.py``, written from the source documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from athletes import every_athlete, ranks_at
from timeline_names import EDITIONS

import lvl_rules
from lvl_rules import Edition

HERE = Path(__file__).parent
IN_PYODIDE = sys.platform == "emscripten"


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


@pytest.fixture(scope="session")
def editions() -> dict[str, Edition]:
    """Every edition of the timeline, as the installed package loads them."""
    return {edition_id: lvl_rules.load_edition(edition_id) for edition_id in EDITIONS}


@pytest.fixture(scope="session")
def all_athletes() -> object:
    """:func:`every_athlete`, for tests that walk every valid athlete."""
    return every_athlete


@pytest.fixture(scope="session")
def valid_ranks() -> object:
    """:func:`ranks_at`: the ranks valid at an age, from the source documents."""
    return ranks_at
