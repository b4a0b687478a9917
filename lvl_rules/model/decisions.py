"""How a match is decided, and the clauses the scoring engine cites for its own rules."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import declare


@dataclass(frozen=True, kw_only=True, slots=True)
class Method:
    """A way a match can be decided (section 3)."""

    id: str = declare("key", "The method's ID, as results name it.")
    name: str = declare("text", "The method's name.")
    clause: str = declare("clause", "The clause that sets it.")
    summary: str = declare("text", "Who wins, in one sentence.")


@dataclass(frozen=True, kw_only=True, slots=True)
class Scoring:
    """Clauses the scoring engine cites for rules that are not tables of their own."""

    repeat_clause: str = declare("clause", "A position given up and reached again scores once.")
    advantage_clause: str = declare("clause", "An advantage given with no named reason.")
    severe_penalty_clause: str = declare("clause", "Severe fouls disqualify.")
    panel_clause: str = declare("clause", "Three referees: the middle ruling stands.")
    double_stalling_step: int = declare(
        "whole", "Both athletes reaching this stalling penalty together restart standing.",
        minimum=1,
    )  # fmt: skip
    double_stalling_clause: str = declare("clause", "The clause of that restart.")
    random_draw_clause: str = declare(
        "clause", "Both athletes injured in a final on a level score: a random draw."
    )
    after_time_clause: str = declare(
        "clause",
        "Time has expired: an advantage may still be given until the result is announced.",
    )
