"""The published chart's columns (``edition.bands``) are faithful to the engine.

Bands are layout: the site shows one column per band and uniform, answered for the
band's sample athlete. That is only honest if the bands cover every valid athlete exactly
once and every athlete in a band gets the same answers as its sample. Every athlete:
ages 4-120 x every valid LVL or belt (none under 16) x Gi and No-Gi x (Edition 2) without
and with each kind of prior experience. A promoted white belt belongs to the band of the
belt they compete at.
"""

from __future__ import annotations

from typing import Any

import pytest
from timeline_names import EDITIONS

from lvl_rules import Division, Edition, check_all, division
from lvl_rules.engines.chart import sample


def _answers(athlete: Division) -> tuple[tuple[str, bool, str, str | None], ...]:
    return tuple((a.technique.id, a.legal, a.cite, a.group) for a in check_all(athlete))


def _bands_of(edition: Edition, athlete: Division) -> list[str]:
    return [
        band.id
        for band in edition.bands
        if band.when.matches(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform)
    ]


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_bands_cover_every_athlete_once(
    editions: dict[str, Edition], all_athletes: Any, edition_id: str
) -> None:
    """Every valid athlete falls in exactly one chart band."""
    edition = editions[edition_id]
    athletes = [division(edition, **fields) for fields in all_athletes(edition_id)]
    assert len(athletes) > 900
    wrong = {
        (a.age, a.rank, a.uniform, a.experience): bands
        for a in athletes
        if len(bands := _bands_of(edition, a)) != 1
    }
    assert {} == wrong


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_athlete_gets_the_answers_of_their_band(
    editions: dict[str, Edition], all_athletes: Any, edition_id: str
) -> None:
    """Every athlete in a band gets the same answers as the band's sample athlete."""
    edition = editions[edition_id]
    samples = {
        (band.id, uniform): _answers(sample(edition, band, uniform))
        for band in edition.bands
        for uniform in ("gi", "nogi")
    }
    differ = []
    for fields in all_athletes(edition_id):
        athlete = division(edition, **fields)
        (band,) = _bands_of(edition, athlete)
        if _answers(athlete) != samples[(band, athlete.uniform)]:
            differ.append((band, fields))
    assert [] == differ


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_each_sample_is_in_its_band(editions: dict[str, Edition], edition_id: str) -> None:
    """A band's sample athlete belongs to that band."""
    edition = editions[edition_id]
    expected = {
        (band.id, uniform): [band.id] for band in edition.bands for uniform in ("gi", "nogi")
    }
    actual = {
        (band.id, uniform): _bands_of(edition, sample(edition, band, uniform))
        for band in edition.bands
        for uniform in ("gi", "nogi")
    }
    assert expected == actual


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_valid_ranks_by_age(
    editions: dict[str, Edition], valid_ranks: Any, edition_id: str
) -> None:
    """The ranks valid at each age are those of the sources (kids' belts under 16 in Ed 2)."""
    edition = editions[edition_id]
    expected = {age: sorted(r for r in valid_ranks(edition_id, age) if r) for age in range(4, 121)}
    actual = {
        age: sorted(r.id for r in edition.ranks.values() if r.min_age <= age <= r.max_age)
        for age in range(4, 121)
    }
    assert expected == actual
