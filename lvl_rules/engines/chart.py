"""The published chart: every technique for every chart column, answered by the engine."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import UNIFORMS, Band, Edition, Technique
from .division import Division, place, ranks_at
from .eligibility import Verdict, decide, technique


@dataclass(frozen=True, kw_only=True, slots=True)
class Cell:
    """One cell of the published chart: a band, a uniform, and the engine's verdict."""

    band: Band
    uniform: str
    verdict: Verdict


def sample(edition: Edition, band: Band, uniform: str) -> Division:
    """A representative athlete of a chart band (the youngest, lowest rank)."""
    age = band.when.min_age
    ranks = band.when.ranks or ranks_at(edition, age)
    needs_rank = age >= edition.eligibility.rank_required_from or band.when.ranks
    key = edition.eligibility.axis
    return place(edition, age=age, uniform=uniform, **{key: ranks[0] if needs_rank else None})


def chart(edition: Edition) -> tuple[tuple[Technique, tuple[Cell, ...]], ...]:
    """Every technique × every band × Gi and No-Gi."""
    athletes = [
        (band, uniform, sample(edition, band, uniform))
        for band in edition.bands
        for uniform in UNIFORMS
    ]
    return tuple(
        (move, tuple(Cell(band=b, uniform=u, verdict=decide(a, move.id)) for b, u, a in athletes))
        for move in edition.techniques.values()
    )


def who_may_use(edition: Edition, technique_id: str) -> tuple[Cell, ...]:
    """The chart cells (band and uniform) in which a technique is legal."""
    move = technique(edition, technique_id)
    cells = dict(chart(edition))[move]
    return tuple(cell for cell in cells if cell.verdict.legal)
