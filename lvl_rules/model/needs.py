"""What the engines name by ID, declared where the loader can read it.

The scoring engine applies a double stalling call with the ``stalling`` foul, ends a match
by the ``points`` method, and so on: an edition without one of these records could not be
scored. The declaration is here, in the model, so that the loader checks every edition
against it without importing the engines (which import the model, not the other way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Needs:
    """The records the engines rely on by ID; the loader checks every edition has them."""

    fouls: Mapping[str, str]  # foul ID -> the group it must be in
    methods: tuple[str, ...]
    escapes: tuple[str, ...]
    awards: tuple[str, ...]


NEEDS = Needs(
    fouls={
        "stalling": "stalling",  # a double stalling call
        "serious": "serious",  # a panel's middle ruling "penalty"
        "severe": "severe",  # a severe foul of kind "technical"
        "disciplinary": "disciplinary",  # ... of kind "disciplinary"
        "illegal-hold": "severe",  # a technique not legal for the division
    },
    methods=(
        "submission",
        "stoppage",
        "disqualification",
        "loss-of-consciousness",
        "points",
        "advantages",
        "penalties",
        "referee-decision",
        "random-draw",
    ),
    escapes=("locked", "open"),
    awards=(
        "exit-caused-by-defender",  # 2.3.7
        "disqualified-in-error",  # 2.1: withdraws the disqualification it follows
    ),
)
