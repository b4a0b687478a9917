"""The scoring engine: a match's events in, the score, the result and a cited log out.

Pure: the same division and events always give the same report. Each effect the
engine applies is a log line carrying the clause it comes from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .division import Division
from .eligibility import check
from .errors import RulesError
from .events import ATHLETES, SEVERITIES, Event, parse_events
from .model import Award, Foul, Ladder

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")
RULING_VALUE = {"advantage": 0.5, "none": 0.0, "penalty": -1.0}


@dataclass(frozen=True, kw_only=True, slots=True)
class Tally:
    """One athlete's scoreboard."""

    points: int = 0
    advantages: int = 0
    penalties: int = 0
    disqualified: bool = False
    disqualified_from: str | None = None  # "match" or "competition"

    def to_json(self) -> dict[str, Any]:
        """The tally as the JSON API shows it."""
        return {
            "points": self.points,
            "advantages": self.advantages,
            "penalties": self.penalties,
            "disqualified": self.disqualified,
            "disqualified_from": self.disqualified_from,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Line:
    """One effect the engine applied: what happened, to whom, and the clause it applies."""

    event: int
    athlete: str | None
    effect: str
    cite: str

    def to_json(self) -> dict[str, Any]:
        """The line as the JSON API shows it."""
        return {
            "event": self.event,
            "athlete": self.athlete,
            "effect": self.effect,
            "cite": self.cite,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Result:
    """How the match ended; ``winner`` None when it has not ended or is undecided."""

    ended: bool = False
    winner: str | None = None
    method: str | None = None
    summary: str = "The match is under way."
    cite: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The result as the JSON API shows it."""
        return {
            "ended": self.ended,
            "winner": self.winner,
            "method": self.method,
            "summary": self.summary,
            "cite": self.cite,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Report:
    """The scored match."""

    division: Division
    events: tuple[Event, ...]
    athletes: dict[str, Tally]
    result: Result
    log: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as the JSON API shows it."""
        return {
            "division": self.division.to_json(),
            "athletes": {name: tally.to_json() for name, tally in self.athletes.items()},
            "result": self.result.to_json(),
            "log": [line.to_json() for line in self.log],
        }


def opponent(athlete: str) -> str:
    """The other athlete."""
    return "B" if athlete == "A" else "A"


def ladder_for(athlete: Division) -> Ladder:
    """The penalty scale of the division (8.2): the first whose ages cover it."""
    rules = athlete.edition
    return next(
        ladder
        for ladder in rules.ladders
        if any(
            c.matches(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform)
            for c in ladder.when
        )
    )


def score_match(athlete: Division, raw_events: Any) -> Report:
    """Score a match; raise RulesError for any bad event, naming it and what is allowed."""
    events = parse_events(athlete.edition, raw_events)
    match = _Match(athlete)
    for event in events:
        if match.result.ended:
            raise RulesError(
                f"events[{event.index}]: the match already ended at events[{match.ended_at}] "
                f"({match.result.method or 'undecided'}); no event may follow",
                field=f"events[{event.index}]",
            )
        match.event = event.index
        HANDLERS[event.type](match, event)
        if match.result.ended:
            match.ended_at = event.index
    return Report(
        division=athlete,
        events=events,
        athletes={name: Tally(**vars(state)) for name, state in match.tallies.items()},
        result=match.result,
        log=tuple(match.log),
    )


class _State:
    def __init__(self) -> None:
        self.points = 0
        self.advantages = 0
        self.penalties = 0
        self.disqualified = False
        self.disqualified_from: str | None = None


class _Match:
    """The running state of one match while its events are applied."""

    def __init__(self, athlete: Division) -> None:
        self.division = athlete
        self.rules = athlete.edition
        self.ladder = ladder_for(athlete)
        self.tallies = {name: _State() for name in ATHLETES}
        self.result = Result()
        self.ended_at = -1
        self.log: list[Line] = []
        self.event = 0

    def note(self, athlete: str | None, effect: str, cite: str) -> None:
        self.log.append(Line(event=self.event, athlete=athlete, effect=effect, cite=cite))

    def award(self, athlete: str, award: Award, what: str) -> None:
        tally = self.tallies[athlete]
        explain = f" {award.explain}" if award.explain else ""
        if award.kind == "points":
            tally.points += award.points
            self.note(
                athlete, f"{what}: {award.points} points to {athlete}.{explain}", award.clause
            )
        elif award.kind == "advantage":
            tally.advantages += 1
            self.note(
                athlete, f"{what}: an advantage to {athlete}, not points.{explain}", award.clause
            )
        else:
            self.note(athlete, f"{what}: no points.{explain}", award.clause)

    def finish(self, winner: str | None, method: str, why: str) -> None:
        clause = self.rules.methods[method].clause
        self.result = Result(ended=True, winner=winner, method=method, summary=why, cite=clause)
        self.note(winner, why, clause)

    def undecided(self, why: str, clause: str) -> None:
        self.result = Result(ended=True, summary=why, cite=clause)
        self.note(None, why, clause)

    def disqualify(self, athlete: str, scope: str, cite: str, why: str) -> None:
        tally = self.tallies[athlete]
        tally.disqualified = True
        tally.disqualified_from = scope
        self.note(athlete, why, cite)


def _score(match: _Match, event: Event) -> None:
    athlete = event.athlete or "A"
    position = match.rules.positions[event.position or ""]
    award = position.award(event.variant)
    label = position.label(event.variant)
    if event.repeated:
        match.note(
            athlete,
            f"{label}: reached again after giving it up, so no points.",
            match.rules.scoring.repeat_clause,
        )
        return
    match.award(athlete, award, label)


def _advantage(match: _Match, event: Event) -> None:
    athlete = event.athlete or "A"
    reason = match.rules.advantages.get(event.reason or "")
    match.tallies[athlete].advantages += 1
    what = f" ({reason.name})" if reason else ""
    clause = reason.clause if reason else match.rules.scoring.advantage_clause
    match.note(athlete, f"Advantage to {athlete}{what}.", clause)


def _submission_escaped(match: _Match, event: Event) -> None:
    award = match.rules.escapes["locked" if event.locked else "open"]
    match.award(event.athlete or "A", award, award.name)


def _not_a_foul_here(match: _Match, athlete: str | None, foul: Foul) -> bool:
    """Log and say so when a foul does not exist in this division (only_for, unless_legal)."""
    d = match.division
    if not foul.applies(age=d.age, rank=d.effective_rank, uniform=d.uniform):
        why, cite = f"not a foul in this division ({d.describe()})", foul.clause
    elif foul.unless_legal is not None and (answer := check(d, foul.unless_legal)).legal:
        why, cite = (
            f"not a foul here, because {answer.technique.name.lower()} is legal",
            answer.cite,
        )
    else:
        return False
    match.note(athlete, f"{foul.name}: {why}; nothing is given.", cite)
    return True


def _penalty(match: _Match, event: Event) -> None:
    foul = match.rules.fouls[event.foul or ""]
    if _not_a_foul_here(match, event.athlete, foul):
        return
    athletes = ATHLETES if event.athlete == "both" else (event.athlete or "A",)
    match.note(event.athlete, f"{foul.name} called against {' and '.join(athletes)}.", foul.clause)
    for athlete in athletes:
        _step(match, athlete)
    if len(athletes) == 2:
        _end_if_disqualified(match)
        step = match.rules.scoring.double_stalling_step
        if match.result.ended:
            return
        if all(match.tallies[a].penalties == step for a in athletes):
            match.note(
                None,
                f"Both athletes reached their {ORDINALS[step - 1]} stalling penalty together: "
                "the match restarts standing.",
                match.rules.scoring.double_stalling_clause,
            )
        else:
            match.note(
                None, "Both athletes penalized together: the match restarts standing.", foul.clause
            )
        return
    _end_if_disqualified(match)
    if not match.result.ended:
        _foul_extras(match, event.athlete or "A", foul, event.defending)


def _step(match: _Match, athlete: str) -> None:
    ladder = match.ladder
    tally = match.tallies[athlete]
    tally.penalties += 1
    count = tally.penalties
    step = ladder.steps[count - 1]
    other = opponent(athlete)
    nth = f"{ORDINALS[count - 1]} penalty against {athlete} ({ladder.name.lower()})"
    if step.effect == "mark":
        match.note(athlete, f"{nth}: marked.", ladder.clause)
    elif step.effect == "advantage":
        match.tallies[other].advantages += 1
        match.note(athlete, f"{nth}: an advantage to {other}.", ladder.clause)
    elif step.effect == "points":
        match.tallies[other].points += step.points
        match.note(athlete, f"{nth}: {step.points} points to {other}.", ladder.clause)
    else:
        match.disqualify(athlete, "match", ladder.clause, f"{nth}: {athlete} is disqualified.")


def _end_if_disqualified(match: _Match) -> None:
    out = [name for name, tally in match.tallies.items() if tally.disqualified]
    if len(out) == 2:
        match.finish(None, "disqualification", "Both athletes are disqualified: no winner.")
    elif out:
        winner = opponent(out[0])
        match.finish(winner, "disqualification", f"{winner} wins by disqualification.")


def _foul_extras(match: _Match, athlete: str, foul: Foul, defending: bool) -> None:
    other = opponent(athlete)
    if foul.restart:
        match.note(None, f"The referee restarts the match {foul.restart}.", foul.clause)
    extra = foul.opponent_points + (foul.opponent_points_if_defending if defending else 0)
    if extra:
        match.tallies[other].points += extra
        match.note(other, f"{foul.name}: {extra} points to {other}.", foul.clause)


def _severe(match: _Match, event: Event) -> None:
    athlete = event.athlete or "A"
    foul = match.rules.fouls[event.foul or SEVERITIES[event.kind or "technical"]]
    if not _not_a_foul_here(match, athlete, foul):
        _severe_foul(match, athlete, foul)


def _severe_foul(match: _Match, athlete: str, foul: Foul) -> None:
    scope = "competition" if foul.group == "disciplinary" else "match"
    match.note(athlete, f"Severe foul by {athlete}: {foul.name.lower()}.", foul.clause)
    why = f"{athlete} is disqualified from the {scope}"
    if scope == "competition":
        why += ", in Gi and in No-Gi"
    match.disqualify(athlete, scope, match.rules.scoring.severe_penalty_clause, why + ".")
    _end_if_disqualified(match)


def _technique(match: _Match, event: Event) -> None:
    athlete = event.athlete or "A"
    answer = check(match.division, event.technique or "")
    if answer.legal:
        match.note(athlete, f"{answer.technique.name} by {athlete}: {answer.reason}", answer.cite)
        return
    match.note(athlete, f"{answer.technique.name} by {athlete}. {answer.reason}", answer.cite)
    _severe_foul(match, athlete, match.rules.fouls["illegal-hold"])


def _panel(match: _Match, event: Event) -> None:
    athlete = event.athlete or "A"
    positions = match.rules.positions

    def value(ruling: str) -> float:
        return positions[ruling].points if ruling in positions else RULING_VALUE[ruling]

    middle = sorted(event.rulings, key=value)[1]
    match.note(
        athlete,
        f"Three referees ruled {', '.join(event.rulings)} for {athlete}: the middle ruling, "
        f"{middle}, stands.",
        match.rules.scoring.panel_clause,
    )
    if middle in positions:
        _score(match, Event(index=event.index, type="score", athlete=athlete, position=middle))
    elif middle == "advantage":
        _advantage(match, Event(index=event.index, type="advantage", athlete=athlete))
    elif middle == "penalty":
        _penalty(match, Event(index=event.index, type="penalty", athlete=athlete, foul="serious"))


def _submission(match: _Match, event: Event) -> None:
    winner = event.athlete or "A"
    match.finish(winner, "submission", f"{winner} wins by submission.")


def _stoppage(match: _Match, event: Event) -> None:
    loser = event.athlete or "A"
    winner = opponent(loser)
    match.finish(winner, "stoppage", f"{loser} cannot safely continue: {winner} wins by stoppage.")


def _loss_of_consciousness(match: _Match, event: Event) -> None:
    loser = event.athlete or "A"
    winner = opponent(loser)
    clause = match.rules.methods["loss-of-consciousness"].clause
    match.finish(winner, "loss-of-consciousness", f"{loser} lost consciousness: {winner} wins.")
    if event.head_trauma:
        match.note(
            loser,
            f"{loser} lost consciousness from a blow to the head: no more matches at this event; "
            "sent to the medical staff.",
            clause,
        )


def _end(match: _Match, event: Event) -> None:
    a, b = match.tallies["A"], match.tallies["B"]
    why = "Both athletes are injured and cannot continue. " if event.both_injured else "Time. "
    for method, left, right in (
        ("points", a.points, b.points),
        ("advantages", a.advantages, b.advantages),
        ("penalties", b.penalties, a.penalties),  # fewer penalties wins
    ):
        if left != right:
            winner = "A" if left > right else "B"
            match.finish(winner, method, f"{why}{winner} wins on {_METHOD_WORDS[method]}.")
            if event.referee_decision or event.random_draw:
                match.note(
                    None,
                    "No decision or draw is needed: the scoreboard decides.",
                    match.rules.methods[method].clause,
                )
            return
    level = f"{why}Level on points, advantages and penalties."
    if event.both_injured and event.final:
        clause = match.rules.scoring.random_draw_clause
        if event.random_draw:
            match.finish(
                event.random_draw,
                "random-draw",
                f"{level} {event.random_draw} wins the random draw.",
            )
        else:
            match.undecided(
                f"{level} The result is decided by random draw; record its winner.", clause
            )
        return
    if event.referee_decision:
        winner = event.referee_decision
        match.finish(
            winner, "referee-decision", f"{level} The referee declares {winner} the winner."
        )
        return
    match.undecided(
        f"{level} The referee declares the winner.", match.rules.methods["referee-decision"].clause
    )


_METHOD_WORDS = {"points": "points", "advantages": "advantages", "penalties": "fewer penalties"}

HANDLERS: dict[str, Callable[[_Match, Event], None]] = {
    "score": _score,
    "advantage": _advantage,
    "submission-escaped": _submission_escaped,
    "penalty": _penalty,
    "severe-foul": _severe,
    "technique": _technique,
    "panel": _panel,
    "submission": _submission,
    "stoppage": _stoppage,
    "loss-of-consciousness": _loss_of_consciousness,
    "end": _end,
}
