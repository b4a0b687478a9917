"""Matches in words: each effect of the scoring engine as a log line, each outcome as a
result, and what awards, penalty steps and fouls give, as the scoring tables say it."""

from __future__ import annotations

from collections.abc import Callable

from ..engines.scoring import Effect, Outcome
from ..model import Award, Edition, Foul, LadderStep
from .division import describe, describe_criteria
from .eligibility import reason

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")
METHOD_WORDS = {"points": "points", "advantages": "advantages", "penalties": "fewer penalties"}
UNDER_WAY = "The match is under way."
TIME_EXPIRED = (
    "Time has expired. The result is announced when the end of the match is recorded; "
    "until then an advantage may still be given, once no scoring position can be completed."
)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ... ``12th``."""
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


def label(edition: Edition, position_id: str, variant: str | None) -> str:
    """``Mount`` or ``Mount (reverse, facing the legs)``."""
    position = edition.positions[position_id]
    return f"{position.name} ({position.variants[variant].name})" if variant else position.name


def outcome(edition: Edition, result: Outcome) -> str:
    """The result of a match in one or two sentences."""
    facts = result.facts
    winner = result.winner
    if result.kind == "under-way":
        return UNDER_WAY
    if result.kind == "time-expired":
        return TIME_EXPIRED
    if result.kind == "both-disqualified":
        return "Both athletes are disqualified: no winner."
    if result.kind == "disqualification":
        return f"{winner} wins by disqualification."
    if result.kind == "submission":
        return f"{winner} wins by submission."
    if result.kind == "stoppage":
        return f"{facts['loser']} cannot safely continue: {winner} wins by stoppage."
    if result.kind == "loss-of-consciousness":
        return f"{facts['loser']} lost consciousness: {winner} wins."
    why = "Both athletes are injured and cannot continue. " if facts["both_injured"] else "Time. "
    if result.kind == "on-score":
        return f"{why}{winner} wins on {METHOD_WORDS[str(result.method)]}."
    level = f"{why}Level on points, advantages and penalties."
    if result.kind == "random-draw":
        return f"{level} {winner} wins the random draw."
    if result.kind == "draw-needed":
        return f"{level} The result is decided by random draw; record its winner."
    if result.kind == "referee-decision":
        return f"{level} The referee declares {winner} the winner."
    return f"{level} The referee declares the winner."  # decision-needed


def _award(edition: Edition, effect: Effect) -> str:
    award: Award = effect.facts["award"]
    facts = effect.facts
    what = (
        label(edition, facts["position"], facts["variant"]) if "position" in facts else award.name
    )
    explain = f" {award.explain}" if award.explain else ""
    if award.kind == "points":
        return f"{what}: {award.points} points to {effect.athlete}.{explain}"
    if award.kind == "advantage":
        return f"{what}: an advantage to {effect.athlete}, not points.{explain}"
    return f"{what}: no points.{explain}"


def _ladder_step(edition: Edition, effect: Effect) -> str:
    facts = effect.facts
    ladder = next(ladder for ladder in edition.ladders if ladder.id == facts["ladder"])
    nth = f"{ordinal(facts['count'])} penalty against {effect.athlete} ({ladder.name.lower()})"
    if facts["effect"] == "mark":
        return f"{nth}: marked."
    if facts["effect"] == "advantage":
        return f"{nth}: an advantage to {facts['other']}."
    if facts["effect"] == "points":
        return f"{nth}: {facts['points']} points to {facts['other']}."
    return f"{nth}: {effect.athlete} is disqualified."


def _disqualified(edition: Edition, effect: Effect) -> str:
    del edition
    text = f"{effect.athlete} is disqualified from the {effect.facts['scope']}"
    if effect.facts["scope"] == "competition":
        text += ", in Gi and in No-Gi"
    return text + "."


def _technique(edition: Edition, effect: Effect) -> str:
    del edition
    verdict = effect.facts["verdict"]
    joint = ":" if verdict.legal else "."
    return f"{verdict.technique.name} by {effect.athlete}{joint} {reason(verdict)}"


def _foul(edition: Edition, effect: Effect) -> Foul:
    return edition.fouls[effect.facts["foul"]]


EFFECTS: dict[str, Callable[[Edition, Effect], str]] = {
    "award": _award,
    "set-aside": lambda e, x: f"Not scored: {x.facts['error']}.",
    "repeated": lambda e, x: (
        f"{label(e, x.facts['position'], x.facts['variant'])}: reached again after giving it "
        "up, so no points."
    ),
    "advantage": lambda e, x: (
        f"Advantage to {x.athlete}"
        + (
            f" ({e.advantages[x.facts['reason']].name})"
            if x.facts["reason"] in e.advantages
            else ""
        )
        + "."
    ),
    "not-a-foul-here": lambda e, x: (
        f"{_foul(e, x).name}: not a foul in this division ({describe(x.facts['division'])}); "
        "nothing is given."
    ),
    "legal-here": lambda e, x: (
        f"{_foul(e, x).name}: not a foul here, because "
        f"{e.techniques[x.facts['technique']].name.lower()} is legal; nothing is given."
    ),
    "foul-called": lambda e, x: (
        f"{_foul(e, x).name} called against {' and '.join(x.facts['athletes'])}."
    ),
    "double-stalling-restart": lambda e, x: (
        f"Both athletes reached their {ordinal(x.facts['step'])} stalling penalty together: "
        "the match restarts standing."
    ),
    "both-penalized-restart": lambda e, x: (
        "Both athletes penalized together: the match restarts standing."
    ),
    "ladder-step": _ladder_step,
    "restart": lambda e, x: f"The referee restarts the match {x.facts['how']}.",
    "foul-points": lambda e, x: f"{_foul(e, x).name}: {x.facts['points']} points to {x.athlete}.",
    "severe-foul": lambda e, x: f"Severe foul by {x.athlete}: {_foul(e, x).name.lower()}.",
    "disqualified": _disqualified,
    "technique": _technique,
    "panel": lambda e, x: (
        f"Three referees ruled {', '.join(x.facts['rulings'])} for {x.athlete}: the middle "
        f"ruling, {x.facts['middle']}, stands."
    ),
    "head-trauma": lambda e, x: (
        f"{x.athlete} lost consciousness from head trauma: no more matches at this event; "
        "sent to the medical staff."
    ),
    "no-decision-needed": lambda e, x: "No decision or draw is needed: the scoreboard decides.",
    "time-expired": lambda e, x: (
        "Time has expired. Until the result is announced, an advantage may still be given "
        f"once no scoring position can be completed. By our reading (the editorial note on "
        f"§{x.cite}), no position scores from now on, and fouls may still be called."
    ),
    "disqualification-withdrawn": lambda e, x: (
        f"Withdrawn: {x.athlete}'s disqualification ({_foul(e, x).name.lower()}). The hold "
        f"{x.athlete} used was legal in this division, so the disqualification was a mistake, "
        "and the opponent had not tapped: the match goes on."
    ),
    "outcome": lambda e, x: outcome(e, x.facts["outcome"]),
}


def effect(edition: Edition, line: Effect) -> str:
    """One effect of the scoring engine as a line of the match log."""
    return EFFECTS[line.kind](edition, line)


# ---------------------------------------------------------------- the scoring tables


def award_words(award: Award) -> str:
    """What an award gives, for a table: ``3 points``, ``An advantage (not points)``."""
    if award.kind == "points":
        return f"{award.points} points"
    return "An advantage (not points)" if award.kind == "advantage" else "No points"


def step_words(step: LadderStep) -> str:
    """What the n-th penalty of a scale does, for a table."""
    if step.effect == "mark":
        return "Marked; nothing to the opponent"
    if step.effect == "advantage":
        return "An advantage to the opponent"
    if step.effect == "points":
        return f"{step.points} points to the opponent"
    return "Disqualification"


def foul_effect(edition: Edition, foul: Foul, *, for_athlete: bool = False) -> str:
    """What a foul does, in words, from its data. ``for_athlete``: said to the athlete
    whose division it is ("your scale"), without the divisions it is limited to (theirs is
    already known to be one of them)."""
    if foul.group == "severe":
        words = "Disqualification from the match"
    elif foul.group == "disciplinary":
        words = "Disqualification from the competition (Gi and No-Gi)"
    else:
        words = f"The next penalty on {'your' if for_athlete else 'the'} scale"
    if foul.restart:
        words += f"; the match restarts {foul.restart}"
    if foul.opponent_points:
        words += f"; {foul.opponent_points} points to the opponent"
    if foul.opponent_points_if_defending:
        words += (
            f"; {foul.opponent_points_if_defending} {'more ' if foul.opponent_points else ''}"
            "points to the opponent if done while "
            "defending a takedown or sweep"
        )
    if foul.unless_legal:
        name = edition.techniques[foul.unless_legal].name.lower()
        words += f". Not a foul where {name} is legal"
    if foul.only_for and not for_athlete:
        words += ". A foul only in: " + "; ".join(
            describe_criteria(edition, c) for c in foul.only_for
        )
    return words


def double_stalling(edition: Edition) -> str:
    """The double-stalling restart, as a sentence (its clause is linked by the caller)."""
    step = ordinal(edition.scoring.double_stalling_step)
    return (
        f"If both athletes reach their {step} stalling penalty at the same time, the match "
        "restarts standing"
    )
