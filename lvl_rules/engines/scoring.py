"""The scoring engine: a match's events in; the score, the outcome and every effect out.

Pure: the same division and events always give the same scoresheet. Each effect the
engine applies is structured (what happened, to whom, with which numbers and IDs) and
carries the clause it applies; :mod:`lvl_rules.words.scoring` puts it into words.

:class:`Scorer` applies a match event by event and can go back to any earlier event, so
that recording one more event, or correcting one late in the match, does not re-score
what came before; :func:`score` is a fresh Scorer over the whole list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from ..model import Award, Edition, Foul, Ladder
from .division import Division
from .eligibility import Verdict, decide
from .events import (
    ATHLETES,
    BOTH,
    SEVERITIES,
    Advantage,
    End,
    Event,
    LossOfConsciousness,
    Panel,
    Penalty,
    PointsAward,
    Score,
    SevereFoul,
    Stoppage,
    Submission,
    SubmissionEscaped,
    TechniqueApplied,
    TimeExpired,
    parse_event,
    parse_events,
)

RULING_VALUE = {"advantage": 0.5, "none": 0.0, "penalty": -1.0}


WITHDRAWS = "disqualified-in-error"


@dataclass(frozen=True, kw_only=True, slots=True)
class Tally:
    """One athlete's scoreboard."""

    points: int = 0
    advantages: int = 0
    penalties: int = 0
    disqualified: bool = False
    disqualified_from: str | None = None  # "match" or "competition"


@dataclass(frozen=True, kw_only=True, slots=True)
class Effect:
    """One thing the engine applied: its kind, to whom, the facts, the clause, and the
    editorial notes whose reading (not the source's words) decided it."""

    event: int
    athlete: str | None
    kind: str
    cite: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    readings: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """How the match ended; ``winner`` None when it has not ended or is undecided."""

    ended: bool = False
    winner: str | None = None
    method: str | None = None
    kind: str = "under-way"
    cite: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    readings: tuple[str, ...] = ()  # the notes that decided the event that ended it


@dataclass(frozen=True, kw_only=True, slots=True)
class SetAside:
    """An event the rules refuse where it stands, kept in its place with no effect (when
    a match is scored with ``set_aside``): the rest is scored as if it were not there."""

    index: int
    error: RulesError


@dataclass(frozen=True, kw_only=True, slots=True)
class Scoresheet:
    """The scored match."""

    division: Division
    events: tuple[Event | SetAside, ...]
    athletes: dict[str, Tally]
    outcome: Outcome
    effects: tuple[Effect, ...]


def opponent(athlete: str) -> str:
    """The other athlete."""
    return "B" if athlete == "A" else "A"


def ladder_for(athlete: Division) -> Ladder:
    """The penalty scale of the division (8.2): the first whose sets cover it."""
    return next(
        ladder
        for ladder in athlete.edition.ladders
        if any(
            c.matches(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform)
            for c in ladder.when
        )
    )


def score(
    athlete: Division,
    raw_events: Any,
    *,
    set_aside: bool = False,
    refused: Mapping[int, RulesError] | None = None,
) -> Scoresheet:
    """Score a match; raise RulesError for any bad event, naming it and what is allowed
    (with ``set_aside``, only for events that are not a list: each refused event is set
    aside, :meth:`Scorer.extend`, as is each of ``refused``, by index, with its error)."""
    scorer = Scorer(athlete)
    if set_aside and isinstance(raw_events, list | tuple):
        scorer.extend(raw_events, set_aside=True, refused=refused)
        return scorer.sheet()
    for event in parse_events(athlete.edition, raw_events):
        scorer.apply(event)
    return scorer.sheet()


class Scorer:
    """A match scored event by event, which can go back to any earlier event.

    ``rewind(n)`` returns to the state after the first ``n`` events (kept from when they
    were applied, not recomputed), and ``extend`` parses and applies more raw events:
    the scoresheet is always the one :func:`score` gives for the same events.
    """

    def __init__(self, athlete: Division) -> None:
        self.division = athlete
        self.events: list[Event | SetAside] = []
        self._match = _Match(athlete)
        self._marks: list[_Mark] = []  # the state before each event

    def rewind(self, count: int) -> None:
        """Forget every event from ``events[count]`` on."""
        if count < len(self.events):
            self._match.restore(self._marks[count])
            del self.events[count:]
            del self._marks[count:]

    def extend(
        self,
        raw_events: Sequence[Any],
        *,
        set_aside: bool = False,
        refused: Mapping[int, RulesError] | None = None,
    ) -> None:
        """Check raw events as the next ones of the match, then apply them; raise
        RulesError at the first problem (the events before it stay applied). With
        ``set_aside``, an event refused (malformed, or not allowed where it stands) is set
        aside instead, with one effect that says why, and the next ones are applied; so is
        an event ``refused`` already (by its index in the match: the error)."""
        start = len(self.events)
        edition = self.division.edition
        if not set_aside:
            parsed = [parse_event(edition, start + n, item) for n, item in enumerate(raw_events)]
            for event in parsed:
                self.apply(event)
            return
        for offset, item in enumerate(raw_events):
            index = start + offset
            known = refused.get(index) if refused else None
            if known is not None:
                self._set_aside(SetAside(index=index, error=known))
                continue
            try:
                self.apply(parse_event(edition, index, item))
            except RulesError as error:
                self._set_aside(SetAside(index=index, error=error))

    def _set_aside(self, refused: SetAside) -> None:
        match = self._match
        self._marks.append(match.mark())
        match.event = refused.index
        clause = refused.error.details.get("clause")
        match.note(None, "set-aside", str(clause) if clause else "", error=refused.error)
        self.events.append(refused)

    def apply(self, event: Event) -> None:
        """Apply one checked event (its index must be the next one)."""
        match = self._match
        refused = _refusal(match, event)
        if refused is not None:
            raise refused
        mark = match.mark()
        match.event = event.index
        try:
            HANDLERS[type(event)](match, event)
        except RulesError:
            match.restore(mark)
            raise
        if match.outcome.ended:
            match.ended_at = event.index
        self._marks.append(mark)
        self.events.append(event)

    @property
    def effect_count(self) -> int:
        """How many effects the events applied so far have had."""
        return len(self._match.effects)

    def sheet(self) -> Scoresheet:
        """The scoresheet of the events applied so far."""
        match = self._match
        return Scoresheet(
            division=self.division,
            events=tuple(self.events),
            athletes={name: state.tally() for name, state in match.tallies.items()},
            outcome=match.outcome,
            effects=tuple(match.effects),
        )


def _refusal(match: _Match, event: Event) -> RulesError | None:
    """Why an event cannot come at this point of the match, if it cannot."""
    where = f"events[{event.index}]"
    if isinstance(event, PointsAward) and event.award == WITHDRAWS:
        return _withdrawal_refused(match, event)
    if match.outcome.ended:
        return RulesError(
            "after-the-end", field=where, index=event.index, ended_at=match.ended_at,
            method=match.outcome.method,
        )  # fmt: skip
    if match.time_expired_at >= 0 and not event.AFTER_TIME:
        return RulesError(
            "after-time", field=where, index=event.index, type=event.TYPE,
            expired_at=match.time_expired_at, clause=match.rules.scoring.after_time_clause,
        )  # fmt: skip
    return None


def _withdrawal_refused(match: _Match, event: PointsAward) -> RulesError | None:
    """Why a disqualification cannot be withdrawn as made in error (2.1), if it cannot: the
    athlete must have just been disqualified for a hold (a foul whose data marks it so),
    and not for a hold the chart itself does not allow the division (note
    disqualification-in-error)."""
    out = match.disqualified_for
    common = {
        "field": f"events[{event.index}]", "index": event.index, "athlete": event.athlete,
        "clause": match.rules.awards[WITHDRAWS].clause,
        "holds": tuple(f.id for f in match.rules.fouls.values() if f.hold),
    }  # fmt: skip
    if match.outcome.kind != "disqualification" or out is None or out.athlete != event.athlete:
        return RulesError("nothing-to-withdraw", **common)
    foul = match.rules.fouls[out.foul]
    if not foul.hold:
        return RulesError(
            "not-for-a-hold", **common, at=out.at, foul=foul.id, foul_clause=foul.clause
        )
    if out.technique is not None:
        return RulesError(
            "hold-not-legal", **common, at=out.at, technique=out.technique, chart=out.chart
        )
    return None


@dataclass(frozen=True, slots=True)
class _Disqualified:
    """The disqualification that ended the match for a severe or disciplinary foul: who, at
    which event, for which foul, and the hold the engine itself judged not legal (a
    technique event), if that is what it was."""

    athlete: str
    at: int
    foul: str
    technique: str | None = None
    chart: str | None = None  # the clause of that judgment


class _State:
    __slots__ = ("advantages", "disqualified", "disqualified_from", "penalties", "points")

    def __init__(self) -> None:
        self.points = 0
        self.advantages = 0
        self.penalties = 0
        self.disqualified = False
        self.disqualified_from: str | None = None

    def tally(self) -> Tally:
        return Tally(
            points=self.points, advantages=self.advantages, penalties=self.penalties,
            disqualified=self.disqualified, disqualified_from=self.disqualified_from,
        )  # fmt: skip

    def values(self) -> tuple[Any, ...]:
        return (
            self.points, self.advantages, self.penalties, self.disqualified,
            self.disqualified_from,
        )  # fmt: skip

    def set(self, values: tuple[Any, ...]) -> None:
        (
            self.points, self.advantages, self.penalties, self.disqualified,
            self.disqualified_from,
        ) = values  # fmt: skip


# The state of a match between two events: tallies, outcome, where it ended, how many
# effects, when time expired, the disqualification a withdrawal would concern.
_Mark = tuple[tuple[tuple[Any, ...], ...], Outcome, int, int, int, _Disqualified | None]


class _Match:
    """The running state of one match while its events are applied."""

    def __init__(self, athlete: Division) -> None:
        self.division = athlete
        self.rules = athlete.edition
        self.ladder = ladder_for(athlete)
        self.tallies = {name: _State() for name in ATHLETES}
        self.outcome = Outcome()
        self.ended_at = -1
        self.effects: list[Effect] = []
        self.event = 0
        self.time_expired_at = -1
        self.disqualified_for: _Disqualified | None = None  # what 2.1 would withdraw

    def mark(self) -> _Mark:
        tallies = tuple(state.values() for state in self.tallies.values())
        return (
            tallies, self.outcome, self.ended_at, len(self.effects), self.time_expired_at,
            self.disqualified_for,
        )  # fmt: skip

    def restore(self, mark: _Mark) -> None:
        tallies, self.outcome, self.ended_at, effects, self.time_expired_at = mark[:5]
        self.disqualified_for = mark[5]
        for state, values in zip(self.tallies.values(), tallies, strict=True):
            state.set(values)
        del self.effects[effects:]

    def running(self) -> Outcome:
        """The outcome of a match that has not ended: under way, or time has expired."""
        if self.time_expired_at < 0:
            return Outcome()
        return Outcome(kind="time-expired", cite=self.rules.scoring.after_time_clause)

    def note(
        self, athlete: str | None, kind: str, cite: str, *, also: tuple[str, ...] = (), **facts: Any
    ) -> None:
        """Record an effect with its readings: those of the records its facts name, those
        ``also`` names, and those of the event's earlier effects, which it follows from."""
        own = (*also, *_readings_of(self.rules, facts))
        readings = tuple(dict.fromkeys((*self.event_readings(), *own)))
        self.effects.append(
            Effect(
                event=self.event, athlete=athlete, kind=kind, cite=cite, facts=facts,
                readings=readings,
            )
        )  # fmt: skip

    def event_readings(self) -> tuple[str, ...]:
        """The readings of the current event's effects so far (its last effect has them all)."""
        last = self.effects[-1] if self.effects else None
        return last.readings if last is not None and last.event == self.event else ()

    def award(self, athlete: str, award: Award, **subject: Any) -> None:
        """Give what an award gives; ``subject`` names it (position and variant, or escape)."""
        tally = self.tallies[athlete]
        if award.kind == "points":
            tally.points += award.points
        elif award.kind == "advantage":
            tally.advantages += 1
        self.note(athlete, "award", award.clause, award=award, **subject)

    def finish(self, winner: str | None, method: str, kind: str, **facts: Any) -> None:
        clause = self.rules.methods[method].clause
        readings = self.event_readings()
        self.outcome = Outcome(
            ended=True, winner=winner, method=method, kind=kind, cite=clause, facts=facts,
            readings=readings,
        )  # fmt: skip
        self.note(winner, "outcome", clause, also=readings, outcome=self.outcome)

    def undecided(self, kind: str, clause: str, **facts: Any) -> None:
        readings = self.event_readings()
        self.outcome = Outcome(ended=True, kind=kind, cite=clause, facts=facts, readings=readings)
        self.note(None, "outcome", clause, also=readings, outcome=self.outcome)

    def disqualify(
        self, athlete: str, scope: str, cite: str, kind: str, *, also: tuple[str, ...] = (),
        **facts: Any,
    ) -> None:  # fmt: skip
        tally = self.tallies[athlete]
        tally.disqualified = True
        tally.disqualified_from = scope
        self.note(athlete, kind, cite, also=also, scope=scope, **facts)


# The facts of an effect that name a record, and the record's table: an effect whose facts
# name a record that follows an editorial note carries that note's reading.
_NAMED_RECORDS = (
    ("foul", "fouls"),
    ("technique", "techniques"),
    ("position", "positions"),
    ("escape", "escapes"),
    ("ladder", "ladders"),
    ("reason", "advantages"),
    ("award_id", "awards"),
)


def _readings_of(rules: Edition, facts: Mapping[str, Any]) -> tuple[str, ...]:
    found: list[str] = []
    for fact, collection in _NAMED_RECORDS:
        value = facts.get(fact)
        if isinstance(value, str):
            found += rules.reading_ids(collection, value)
    verdict = facts.get("verdict")
    if isinstance(verdict, Verdict):
        found += rules.reading_ids("techniques", verdict.technique.id)
    return tuple(found)


def _score(match: _Match, event: Score) -> None:
    position = match.rules.positions[event.position]
    subject = {"position": position.id, "variant": event.variant}
    if event.repeated:
        match.note(event.athlete, "repeated", match.rules.scoring.repeat_clause, **subject)
        return
    match.award(event.athlete, position.award(event.variant), **subject)


def _advantage(match: _Match, event: Advantage) -> None:
    reason = match.rules.advantages.get(event.reason or "")
    match.tallies[event.athlete].advantages += 1
    clause = reason.clause if reason else match.rules.scoring.advantage_clause
    match.note(event.athlete, "advantage", clause, reason=event.reason)


def _submission_escaped(match: _Match, event: SubmissionEscaped) -> None:
    escape = "locked" if event.locked else "open"
    match.award(event.athlete, match.rules.escapes[escape], escape=escape)


def _not_a_foul_here(match: _Match, athlete: str | None, foul: Foul) -> bool:
    """Note it and say so when a foul does not exist in this division (only_for, unless_legal)."""
    d = match.division
    if not foul.applies(age=d.age, rank=d.effective_rank, uniform=d.uniform):
        read = match.rules.reading_ids("fouls", foul.id, "only_for")
        match.note(athlete, "not-a-foul-here", foul.clause, also=read, foul=foul.id, division=d)
    elif foul.unless_legal is not None and (verdict := decide(d, foul.unless_legal)).legal:
        read = match.rules.reading_ids("fouls", foul.id, "unless_legal")
        match.note(
            athlete, "legal-here", verdict.cite, also=read, foul=foul.id,
            technique=foul.unless_legal,
        )  # fmt: skip
    else:
        return False
    return True


def _penalty(match: _Match, event: Penalty) -> None:
    foul = match.rules.fouls[event.foul]
    if _not_a_foul_here(match, event.athlete, foul):
        return
    athletes = ATHLETES if event.athlete == BOTH else (event.athlete,)
    read = match.rules.reading_ids("fouls", foul.id, "only_for")
    match.note(
        event.athlete, "foul-called", foul.clause, also=read, foul=foul.id, athletes=athletes
    )
    for athlete in athletes:
        _step(match, athlete)
    _end_if_disqualified(match)
    if match.outcome.ended:
        return
    if len(athletes) == 2:
        step = match.rules.scoring.double_stalling_step
        if all(match.tallies[a].penalties == step for a in athletes):
            clause = match.rules.scoring.double_stalling_clause
            match.note(None, "double-stalling-restart", clause, step=step)
        else:
            match.note(None, "both-penalized-restart", foul.clause)
        return
    _foul_extras(match, event.athlete, foul, event.defending)


def _step(match: _Match, athlete: str) -> None:
    ladder = match.ladder
    tally = match.tallies[athlete]
    tally.penalties += 1
    count = tally.penalties
    step = ladder.steps[count - 1]
    other = opponent(athlete)
    facts = {"count": count, "ladder": ladder.id, "effect": step.effect, "other": other}
    if step.effect == "disqualify":
        match.disqualify(athlete, "match", ladder.clause, "ladder-step", **facts)
        return
    if step.effect == "advantage":
        match.tallies[other].advantages += 1
    elif step.effect == "points":
        match.tallies[other].points += step.points
    match.note(athlete, "ladder-step", ladder.clause, points=step.points, **facts)


def _end_if_disqualified(match: _Match) -> None:
    out = [name for name, tally in match.tallies.items() if tally.disqualified]
    if len(out) == 2:
        match.finish(None, "disqualification", "both-disqualified")
    elif out:
        match.finish(opponent(out[0]), "disqualification", "disqualification")


def _foul_extras(match: _Match, athlete: str, foul: Foul, defending: bool) -> None:
    other = opponent(athlete)
    if foul.restart:
        match.note(None, "restart", foul.clause, how=foul.restart)
    extra = foul.opponent_points + (foul.opponent_points_if_defending if defending else 0)
    if extra:
        match.tallies[other].points += extra
        match.note(other, "foul-points", foul.clause, foul=foul.id, points=extra)


def _severe(match: _Match, event: SevereFoul) -> None:
    foul = match.rules.fouls[event.foul or SEVERITIES[event.kind or "technical"]]
    if not _not_a_foul_here(match, event.athlete, foul):
        _severe_foul(match, event.athlete, foul)


def _severe_foul(match: _Match, athlete: str, foul: Foul, judged: Verdict | None = None) -> None:
    """Disqualify for a severe or disciplinary foul; ``judged``: the engine's own verdict
    that the hold is not legal for the division, when a technique event led to it."""
    scope = "competition" if foul.group == "disciplinary" else "match"
    judged_by = match.rules.reading_ids("techniques", judged.technique.id) if judged else ()
    read = (*judged_by, *match.rules.reading_ids("fouls", foul.id, "only_for"))
    match.note(athlete, "severe-foul", foul.clause, also=read, foul=foul.id)
    readings = match.event_readings()
    match.disqualify(
        athlete, scope, match.rules.scoring.severe_penalty_clause, "disqualified", also=readings
    )
    # Kept for 2.1, which withdraws a disqualification for a hold that proves legal.
    match.disqualified_for = _Disqualified(
        athlete=athlete, at=match.event, foul=foul.id,
        technique=judged.technique.id if judged else None, chart=judged.cite if judged else None,
    )  # fmt: skip
    _end_if_disqualified(match)


def _technique(match: _Match, event: TechniqueApplied) -> None:
    verdict = decide(match.division, event.technique)
    match.note(event.athlete, "technique", verdict.cite, verdict=verdict)
    if not verdict.legal:
        _severe_foul(match, event.athlete, match.rules.fouls["illegal-hold"], verdict)


def _panel(match: _Match, event: Panel) -> None:
    positions = match.rules.positions

    def value(ruling: str) -> float:
        return positions[ruling].points if ruling in positions else RULING_VALUE[ruling]

    middle = sorted(event.rulings, key=value)[1]
    if middle in positions and match.time_expired_at >= 0:
        raise RulesError(
            "position-after-time", field=f"events[{event.index}].rulings", index=event.index,
            middle=middle, expired_at=match.time_expired_at,
            clause=match.rules.scoring.after_time_clause,
        )  # fmt: skip
    match.note(
        event.athlete, "panel", match.rules.scoring.panel_clause,
        rulings=event.rulings, middle=middle,
    )  # fmt: skip
    common = {"index": event.index, "athlete": event.athlete}
    if middle in positions:
        _score(match, Score(**common, position=middle))
    elif middle == "advantage":
        _advantage(match, Advantage(**common))
    elif middle == "penalty":
        _penalty(match, Penalty(**common, foul="serious"))


def _points_award(match: _Match, event: PointsAward) -> None:
    award = match.rules.awards[event.award]
    if event.award == WITHDRAWS and match.disqualified_for is not None:
        withdrawn = match.disqualified_for
        tally = match.tallies[event.athlete]
        tally.disqualified = False
        tally.disqualified_from = None
        match.disqualified_for = None
        match.ended_at = -1
        match.outcome = match.running()
        match.note(
            event.athlete, "disqualification-withdrawn", award.clause,
            foul=withdrawn.foul, at=withdrawn.at,
        )  # fmt: skip
    match.award(event.athlete, award, award_id=event.award)


def _time_expired(match: _Match, event: TimeExpired) -> None:
    match.time_expired_at = event.index
    match.outcome = match.running()
    match.note(None, "time-expired", match.rules.scoring.after_time_clause)


def _submission(match: _Match, event: Submission) -> None:
    match.finish(event.athlete, "submission", "submission")


def _stoppage(match: _Match, event: Stoppage) -> None:
    match.finish(opponent(event.athlete), "stoppage", "stoppage", loser=event.athlete)


def _loss_of_consciousness(match: _Match, event: LossOfConsciousness) -> None:
    loser = event.athlete
    method = "loss-of-consciousness"
    match.finish(opponent(loser), method, method, loser=loser)
    if event.head_trauma:
        match.note(loser, "head-trauma", match.rules.methods[method].clause)


def _end(match: _Match, event: End) -> None:
    a, b = match.tallies["A"], match.tallies["B"]
    injured = event.both_injured
    for method, left, right in (
        ("points", a.points, b.points),
        ("advantages", a.advantages, b.advantages),
        ("penalties", b.penalties, a.penalties),  # fewer penalties wins
    ):
        if left != right:
            winner = "A" if left > right else "B"
            match.finish(winner, method, "on-score", both_injured=injured)
            if event.referee_decision or event.random_draw:
                match.note(None, "no-decision-needed", match.rules.methods[method].clause)
            return
    if event.both_injured and event.final:
        if event.random_draw:
            match.finish(event.random_draw, "random-draw", "random-draw", both_injured=injured)
        else:
            clause = match.rules.scoring.random_draw_clause
            match.undecided("draw-needed", clause, both_injured=injured)
        return
    if event.referee_decision:
        winner = event.referee_decision
        match.finish(winner, "referee-decision", "referee-decision", both_injured=injured)
        return
    clause = match.rules.methods["referee-decision"].clause
    match.undecided("decision-needed", clause, both_injured=injured)


HANDLERS: dict[type[Event], Callable[[_Match, Any], None]] = {
    Score: _score,
    Advantage: _advantage,
    SubmissionEscaped: _submission_escaped,
    Penalty: _penalty,
    SevereFoul: _severe,
    TechniqueApplied: _technique,
    Panel: _panel,
    PointsAward: _points_award,
    TimeExpired: _time_expired,
    Submission: _submission,
    Stoppage: _stoppage,
    LossOfConsciousness: _loss_of_consciousness,
    End: _end,
}
