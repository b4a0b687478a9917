"""The Python face: what ``from lvl_rules import ...`` gives.

Edition IDs are resolved here, once (``"latest"``, the edition in force by the timeline,
or an ID, as text or a number); the engines take an Edition.
The answers carry their sentences, made by :mod:`lvl_rules.words`.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from importlib.resources.abc import Traversable
from typing import Any

from .. import loading
from ..engines import scoring
from ..engines.division import Division, place
from ..engines.eligibility import Verdict, decide, decide_all
from ..engines.events import Event
from ..errors import RulesError
from ..model import Edition, Technique
from ..words import eligibility as eligibility_words
from ..words import readings as readings_words
from ..words import scoring as scoring_words

LATEST = "latest"


def resolve_edition(edition: str | int, root: Traversable | None = None) -> str:
    """Turn ``"latest"`` (the edition in force, never a draft) or an edition's ID, as text
    or a number, into an edition ID, or raise RulesError."""
    known = loading.edition_ids(root)
    wanted = str(edition).strip() if isinstance(edition, str | int) else None
    if wanted == LATEST:
        return loading.timeline(root).in_force()
    if wanted not in known:
        shown = edition if wanted is None else wanted
        raise RulesError("unknown-edition", field="edition", value=shown, known=(*known, LATEST))
    return wanted


def load_edition(edition: str | int = LATEST, root: Traversable | None = None) -> Edition:
    """The complete edition (amendments merged), built once and then cached."""
    return loading.load_edition(resolve_edition(edition, root), root)


def rank_axes(root: Traversable | None = None) -> tuple[str, ...]:
    """Every rank axis the editions place athletes by ("lvl", "belt", ...), each once, in
    the order of the timeline: the division fields a form or a command asks for."""
    editions = (loading.load_edition(i, root) for i in loading.timeline(root).editions())
    return tuple(dict.fromkeys(edition.eligibility.axis for edition in editions))


def division(
    edition: str | int | Edition = LATEST,
    *,
    age: Any,
    uniform: Any,
    lvl: Any = None,
    belt: Any = None,
    experience: Iterable[Any] | None = (),
) -> Division:
    """Check a division's fields against an edition; raise RulesError naming the bad field."""
    rules = edition if isinstance(edition, Edition) else load_edition(edition)
    return place(rules, age=age, uniform=uniform, lvl=lvl, belt=belt, experience=experience)


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer:
    """Legal or not, the reason in plain words, the clause to cite and notes that apply."""

    technique: Technique
    legal: bool
    reason: str
    cite: str
    notes: tuple[str, ...] = ()
    group: str | None = None  # the group that first allows it, if any

    def to_json(self) -> dict[str, Any]:
        """The answer as the JSON API shows it."""
        return {
            "id": self.technique.id,
            "name": self.technique.name,
            "legal": self.legal,
            "reason": self.reason,
            "cite": self.cite,
            "notes": list(self.notes),
            "group": self.group,
        }

    @classmethod
    def of(cls, verdict: Verdict) -> Answer:
        """The answer for an engine's verdict."""
        return cls(
            technique=verdict.technique,
            legal=verdict.legal,
            reason=eligibility_words.reason(verdict),
            cite=verdict.cite,
            notes=verdict.notes,
            group=verdict.granting.id if verdict.granting else None,
        )


def check(athlete: Division, technique_id: str) -> Answer:
    """Whether the athlete may use the technique, with the reason and the clause."""
    return Answer.of(decide(athlete, technique_id))


def check_all(athlete: Division) -> tuple[Answer, ...]:
    """Answers for every technique of the catalogue, in catalogue order."""
    return tuple(Answer.of(verdict) for verdict in decide_all(athlete))


@dataclass(frozen=True, kw_only=True, slots=True)
class Line:
    """One line of the match log: what happened, to whom, and the clause it applies."""

    event: int
    athlete: str | None
    effect: str
    cite: str
    refused: RulesError | None = None  # the event was set aside: why
    readings: tuple[dict[str, str], ...] = ()  # the notes whose reading decided it

    def to_json(self) -> dict[str, Any]:
        """The line as the JSON API shows it; a set-aside event's line has ``refused``:
        the field at fault and the problem's code (its ``cite`` may be null); a line our
        reading decided has ``readings``: each editorial note's ID and title."""
        out: dict[str, Any] = {
            "event": self.event,
            "athlete": self.athlete,
            "effect": self.effect,
            "cite": self.cite,
        }
        if self.readings:
            out["readings"] = [dict(reading) for reading in self.readings]
        if self.refused is not None:
            out["cite"] = self.cite or None
            out["refused"] = {"field": self.refused.field, "problem": self.refused.problem}
        return out


@dataclass(frozen=True, kw_only=True, slots=True)
class Result:
    """How the match ended; ``winner`` None when it has not ended or is undecided."""

    ended: bool
    winner: str | None
    method: str | None
    summary: str
    cite: str | None
    readings: tuple[dict[str, str], ...] = ()  # the notes whose reading decided it

    def to_json(self) -> dict[str, Any]:
        """The result as the JSON API shows it; ``readings`` only when our reading decided it."""
        out = asdict(self)
        out["readings"] = [dict(reading) for reading in self.readings]
        if not self.readings:
            del out["readings"]
        return out


@dataclass(frozen=True, kw_only=True, slots=True)
class Report:
    """The scored match, in words."""

    division: Division
    events: tuple[Event, ...]
    athletes: dict[str, scoring.Tally]
    result: Result
    log: tuple[Line, ...]

    def to_json(self, *, log_from: int = 0) -> dict[str, Any]:
        """The report as the JSON API shows it; ``log_from`` leaves out the log lines of
        the events before that one (a page that has them asks for the rest)."""
        start = 0
        if log_from:
            start = bisect_left(self.log, log_from, key=lambda line: line.event)
        out = {
            "division": division_json(self.division),
            "athletes": {name: asdict(tally) for name, tally in self.athletes.items()},
            "result": self.result.to_json(),
            "log": [line.to_json() for line in self.log[start:]],
        }
        if log_from:
            out["log_from"] = log_from
        return out


def division_json(athlete: Division) -> dict[str, Any]:
    """A division as the JSON API shows it."""
    axis = athlete.edition.eligibility.axis
    out: dict[str, Any] = {
        "edition": athlete.edition_id,
        "age": athlete.age,
        axis: int(athlete.rank) if axis == "lvl" and athlete.rank else athlete.rank,
        "uniform": athlete.uniform,
    }
    if axis == "belt":
        out["experience"] = list(athlete.experience)
        out["competes_at"] = athlete.effective_rank
    return out


# What the sentences call each athlete ("A" -> "Ana"); the IDs stay in the structured
# answer (a line's athlete, the winner).
Names = Mapping[str, str]


def score_match(
    athlete: Division,
    raw_events: Any,
    *,
    set_aside: bool = False,
    names: Names | None = None,
    refused: Mapping[int, RulesError] | None = None,
) -> Report:
    """Score a match; raise RulesError for any bad event, naming it and what is allowed.
    With ``set_aside``, an event refused where it stands is set aside instead (its log
    line says why, with ``refused``) and the rest is scored as if it were not there; so
    is each event of ``refused`` (index: error), refused before the engine saw it.
    ``names``: what the sentences call athletes A and B (their IDs, by default)."""
    sheet = scoring.score(athlete, raw_events, set_aside=set_aside, refused=refused)
    log = tuple(_line(athlete.edition, effect, names) for effect in sheet.effects)
    return _report(sheet, log, names)


def _line(edition: Edition, effect: scoring.Effect, names: Names | None) -> Line:
    return Line(
        event=effect.event,
        athlete=effect.athlete,
        effect=scoring_words.effect(edition, _named(effect, names)),
        cite=effect.cite,
        refused=effect.facts.get("error") if effect.kind == "set-aside" else None,
        readings=tuple(readings_words.readings_json(edition, effect.readings)),
    )


# The facts of an effect that name an athlete (a test says every sentence is covered).
_ATHLETE_FACTS = ("loser", "other", "winner")


def _named(effect: scoring.Effect, names: Names | None) -> scoring.Effect:
    """The effect with each athlete it names called by ``names``, for its sentence."""
    if not names:
        return effect
    call = names.get
    facts = dict(effect.facts)
    if "athletes" in facts:
        facts["athletes"] = [call(a, a) for a in facts["athletes"]]
    for key in _ATHLETE_FACTS:
        if isinstance(facts.get(key), str):
            facts[key] = call(facts[key], facts[key])
    if "outcome" in facts:
        facts["outcome"] = _named_outcome(facts["outcome"], names)
    error = facts.get("error")
    if isinstance(error, RulesError) and isinstance(error.details.get("athlete"), str):
        details = {**error.details, "athlete": call(error.details["athlete"], "")}
        facts["error"] = RulesError(error.problem, field=error.field, **details)
    athlete = effect.athlete and call(effect.athlete, effect.athlete)
    return replace(effect, athlete=athlete, facts=facts)


def _named_outcome(outcome: scoring.Outcome, names: Names | None) -> scoring.Outcome:
    if not names:
        return outcome
    facts = dict(outcome.facts)
    if "loser" in facts:
        facts["loser"] = names.get(facts["loser"], facts["loser"])
    winner = outcome.winner and names.get(outcome.winner, outcome.winner)
    return replace(outcome, winner=winner, facts=facts)


def _report(sheet: scoring.Scoresheet, log: tuple[Line, ...], names: Names | None) -> Report:
    outcome = sheet.outcome
    return Report(
        division=sheet.division,
        events=sheet.events,
        athletes=sheet.athletes,
        result=Result(
            ended=outcome.ended,
            winner=outcome.winner,
            method=outcome.method,
            summary=scoring_words.outcome(sheet.division.edition, _named_outcome(outcome, names)),
            cite=outcome.cite,
            readings=tuple(readings_words.readings_json(sheet.division.edition, outcome.readings)),
        ),
        log=log,
    )


class LastMatch:
    """The last match scored, kept so that scoring it again with one more event, or with
    an event corrected late in the match, re-scores only from the first event that
    differs. A page sends the whole match after every call it records: with this, the
    work per call does not grow with the length of the match. The report is always the
    one :func:`score_match` gives for the same division and events (with ``set_aside``,
    the one a fresh scoring that sets refused events aside gives).
    """

    def __init__(self) -> None:
        self._scorer: scoring.Scorer | None = None
        self._set_aside = False
        self._names: Names | None = None
        self._raw: list[Any] = []  # the raw events the scorer has applied
        self._flags: list[tuple[int, str]] = []  # (index, field) of each true or false
        self._log: list[Line] = []  # their log lines, in words
        self.unchanged = 0  # how many events the last call found as they were

    def score(
        self,
        athlete: Division,
        raw_events: Any,
        *,
        set_aside: bool = False,
        names: Names | None = None,
    ) -> Report:
        """Like :func:`score_match`, reusing what is already scored; ``unchanged`` then
        says how many events at the start were scored before, with the same lines."""
        self.unchanged = 0
        if not isinstance(raw_events, list | tuple):
            self._scorer = None
            return score_match(athlete, raw_events, set_aside=set_aside, names=names)
        scorer = self._scorer
        same = (self._set_aside, self._names) == (set_aside, names)
        if scorer is None or not _same_division(scorer.division, athlete) or not same:
            scorer = self._scorer = scoring.Scorer(athlete)
            self._set_aside, self._names = set_aside, names
            self._raw, self._flags, self._log = [], [], []
        kept = self.unchanged = _common_start(self._raw, raw_events, self._flags)
        scorer.rewind(kept)
        del self._raw[kept:]
        del self._flags[bisect_left(self._flags, (kept, "")) :]
        del self._log[scorer.effect_count :]
        try:
            scorer.extend(raw_events[kept:], set_aside=set_aside)
        finally:
            for index in range(len(self._raw), len(scorer.events)):
                self._raw.append(raw_events[index])
                self._flags += [(index, field) for field in _flags(raw_events[index])]
            sheet = scorer.sheet()
            edition = athlete.edition
            self._log.extend(_line(edition, e, names) for e in sheet.effects[len(self._log) :])
        return _report(sheet, tuple(self._log), names)


class KeptMatches:
    """The matches callers are recording, each under the caller's own key, so that each is
    re-scored from its first changed event (:class:`LastMatch`). Several threads may ask
    at once: one match is scored at a time. The most recent ``size`` matches are kept."""

    def __init__(self, size: int = 8) -> None:
        self._size = size
        self._matches: dict[str, LastMatch] = {}
        self._lock = threading.Lock()

    def score(
        self,
        key: str,
        athlete: Division,
        raw_events: Any,
        *,
        set_aside: bool = False,
        names: Names | None = None,
    ) -> tuple[Report, int]:
        """The report, and how many events at its start the caller's previous answer for
        ``key`` already had with the same lines (0 for a key not seen, or after an error)."""
        with self._lock:
            match = self._matches.pop(key, None) or LastMatch()
            # An error leaves the match out: the caller's next answer starts afresh.
            report = match.score(athlete, raw_events, set_aside=set_aside, names=names)
            self._matches[key] = match  # the most recent last
            while len(self._matches) > self._size:
                del self._matches[next(iter(self._matches))]
            return report, match.unchanged


def _same_division(one: Division, other: Division) -> bool:
    return one == other and one.edition is other.edition


def _common_start(old: list[Any], new: Sequence[Any], flags: Sequence[tuple[int, str]]) -> int:
    """How many events at the start of ``new`` are exactly those of ``old``: equal, and
    true/false where they had true/false (``flags``: (index, field) of each; Python holds
    1 == True, but a flag of 1 is an error to report). In the usual case, one more event,
    that is one comparison of the lists and one look at each flag."""
    count = min(len(old), len(new))
    start = new[:count] if isinstance(new, list) else list(new[:count])
    if old[:count] != start:
        count = next(
            i for i, (before, now) in enumerate(zip(old, start, strict=True)) if before != now
        )
    for index, field in flags:
        if index >= count:
            break
        if type(start[index][field]) is not bool:
            return index
    return count


def _flags(event: Any) -> list[str]:
    """The fields of a raw event that hold true or false."""
    if not isinstance(event, dict):
        return []
    return [key for key, value in event.items() if type(value) is bool]
