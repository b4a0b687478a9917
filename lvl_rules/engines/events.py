"""Match events: one small class per event type, each declaring its own fields.

The CLI, the JSON API and the browser send events as JSON objects such as
``{"type": "score", "athlete": "A", "position": "mount"}``. :func:`parse_events` checks
each against its class's declared fields (which values an edition allows, which are
required) and the class's own rules, and raises RulesError at the first problem.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import RulesError
from ..model import Edition

ATHLETES = ("A", "B")
BOTH = "both"
SEVERITIES = {"technical": "severe", "disciplinary": "disciplinary"}
RULINGS_EXTRA = ("advantage", "none", "penalty")

# What a field holds; the values an edition allows are worked out in _allowed().
SLOT_KINDS = (
    "athlete", "winner", "flag", "position", "variant", "reason", "technique", "severity",
    "foul", "rulings", "award", "time",
)  # fmt: skip


_SLOTS: dict[type, tuple[dataclasses.Field[Any], ...]] = {}  # each event type's fields
# The values a field may take, worked out once per edition (the edition is kept with
# them: a cache keyed by id() must not outlive its object).
_KNOWN: dict[tuple[int, type, str, Any], tuple[Edition, tuple[str, ...]]] = {}


def slot(kind: str, description: str, *, default: Any = dataclasses.MISSING) -> Any:
    """An event field; without a default it is required."""
    if kind not in SLOT_KINDS:
        raise ValueError(kind)  # a programming error: not one of SLOT_KINDS
    metadata = {"kind": kind, "description": description}
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """One checked event. ``index`` is its place in the list (0-based)."""

    TYPE: ClassVar[str] = ""
    FOUL_GROUPS: ClassVar[tuple[str, ...]] = ()
    # Whether it may be recorded after time has expired and before the result is
    # announced (6): advantages, fouls and what ends a match that has not ended yet.
    AFTER_TIME: ClassVar[bool] = False
    # Whether it may follow the end of the match (only to withdraw a disqualification in
    # error, 2.1; the scoring engine checks that it does).
    AFTER_END: ClassVar[bool] = False
    index: int
    time: int | None = slot(
        "time",
        "When it happened: the match time in whole seconds from the start, as the clock "
        "showed it (for the record of the match; it changes no score).",
        default=None,
    )

    @classmethod
    def slots(cls) -> tuple[dataclasses.Field[Any], ...]:
        """The event's own fields, in declaration order."""
        found = _SLOTS.get(cls)
        if found is None:
            found = _SLOTS[cls] = tuple(f for f in dataclasses.fields(cls) if "kind" in f.metadata)
        return found

    @classmethod
    def required(cls) -> tuple[str, ...]:
        """The names of the fields an event of this type must have."""
        return tuple(f.name for f in cls.slots() if _required(f))

    def check(self, edition: Edition, where: str) -> None:
        """Rules that tie this event's fields together (none by default)."""
        del edition, where


@dataclass(frozen=True, kw_only=True, slots=True)
class Score(Event):
    """The athlete held a scoring position for the count."""

    TYPE = "score"
    athlete: str = slot("athlete", "Who scored.")
    position: str = slot("position", "The position reached.")
    variant: str | None = slot(
        "variant", "The version of the position, if not the usual.", default=None
    )
    repeated: bool = slot(
        "flag", "The position was given up and reached again: it does not score twice.",
        default=False,
    )  # fmt: skip


@dataclass(frozen=True, kw_only=True, slots=True)
class Advantage(Event):
    """The referee gave an advantage."""

    TYPE = "advantage"
    AFTER_TIME = True
    athlete: str = slot("athlete", "Who gets the advantage.")
    reason: str | None = slot("reason", "Why, if the referee named it.", default=None)


@dataclass(frozen=True, kw_only=True, slots=True)
class SubmissionEscaped(Event):
    """The opponent escaped the athlete's submission attempt."""

    TYPE = "submission-escaped"
    athlete: str = slot("athlete", "Who applied the submission.")
    locked: bool = slot("flag", "The submission was fully locked and dangerous.", default=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class Penalty(Event):
    """A stalling or serious-foul penalty: the next step on the penalty scale."""

    TYPE = "penalty"
    AFTER_TIME = True
    FOUL_GROUPS = ("stalling", "serious")
    athlete: str = slot("athlete", "Who is penalized; 'both' for a double stalling call.")
    foul: str = slot("foul", "The foul called.")
    defending: bool = slot("flag", "Done while defending a takedown or sweep.", default=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class SevereFoul(Event):
    """A severe or disciplinary foul: disqualification."""

    TYPE = "severe-foul"
    AFTER_TIME = True
    FOUL_GROUPS = ("severe", "disciplinary")
    athlete: str = slot("athlete", "Who committed it.")
    kind: str | None = slot(
        "severity", "technical or disciplinary, if no foul is named.", default=None
    )
    foul: str | None = slot("foul", "The foul committed.", default=None)

    def check(self, edition: Edition, where: str) -> None:
        """A kind or a foul, and if both, a foul of that kind."""
        if self.kind is None and self.foul is None:
            raise RulesError(
                "severe-needs-kind", field=f"{where}.kind", where=where, kinds=tuple(SEVERITIES)
            )
        if self.kind and self.foul and edition.fouls[self.foul].group != SEVERITIES[self.kind]:
            raise RulesError(
                "foul-not-of-kind", field=f"{where}.foul", foul=self.foul, kind=self.kind
            )


@dataclass(frozen=True, kw_only=True, slots=True)
class TechniqueApplied(Event):
    """The athlete applied a technique: checked against the division's chart."""

    TYPE = "technique"
    AFTER_TIME = True  # an illegal hold after time is still a severe foul: safety first
    athlete: str = slot("athlete", "Who applied it.")
    technique: str = slot("technique", "The technique.")


@dataclass(frozen=True, kw_only=True, slots=True)
class Panel(Event):
    """Three referees ruled differently on one action: the middle ruling stands."""

    TYPE = "panel"
    AFTER_TIME = True  # for an advantage or a penalty; a position after time is refused
    athlete: str = slot("athlete", "The athlete the action was for.")
    rulings: tuple[str, ...] = slot(
        "rulings", "The three rulings: positions, advantage, none, penalty."
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class PointsAward(Event):
    """Points the rules give outside a scoring position, each kind with its clause."""

    TYPE = "award"
    AFTER_END = True
    athlete: str = slot("athlete", "Who gets the points.")
    award: str = slot("award", "Why the rules give them.")


@dataclass(frozen=True, kw_only=True, slots=True)
class TimeExpired(Event):
    """Regulation time has run out; the result is announced when the match ends."""

    TYPE = "time-expired"


@dataclass(frozen=True, kw_only=True, slots=True)
class Submission(Event):
    """The athlete won by submission."""

    TYPE = "submission"
    athlete: str = slot("athlete", "Who won.")


@dataclass(frozen=True, kw_only=True, slots=True)
class Stoppage(Event):
    """The athlete cannot safely continue."""

    TYPE = "stoppage"
    athlete: str = slot("athlete", "Who cannot continue.")


@dataclass(frozen=True, kw_only=True, slots=True)
class LossOfConsciousness(Event):
    """The athlete lost consciousness."""

    TYPE = "loss-of-consciousness"
    AFTER_TIME = True  # the athlete's safety and the head-trauma rule come first
    athlete: str = slot("athlete", "Who lost consciousness.")
    head_trauma: bool = slot("flag", "From head trauma.", default=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class End(Event):
    """The match ends at time (or with both athletes injured); the scoreboard decides."""

    TYPE = "end"
    AFTER_TIME = True
    referee_decision: str | None = slot(
        "winner", "The referee's winner, if the score is level.", default=None
    )
    both_injured: bool = slot(
        "flag", "Both athletes are injured and cannot continue.", default=False
    )
    final: bool = slot("flag", "The match is a final.", default=False)
    random_draw: str | None = slot(
        "winner", "The random draw's winner, if one was held.", default=None
    )

    def check(self, edition: Edition, where: str) -> None:
        """A random draw only for two injured athletes in a final."""
        if self.random_draw and not (self.both_injured and self.final):
            raise RulesError(
                "draw-not-allowed", field=f"{where}.random_draw",
                clause=edition.scoring.random_draw_clause,
            )  # fmt: skip


EVENT_TYPES: dict[str, type[Event]] = {
    kind.TYPE: kind
    for kind in (
        Score, Advantage, SubmissionEscaped, Penalty, SevereFoul, TechniqueApplied, Panel,
        PointsAward, Submission, Stoppage, LossOfConsciousness, TimeExpired, End,
    )
}  # fmt: skip


def parse_events(edition: Edition, raw: Any) -> tuple[Event, ...]:
    """Check a JSON list of events against an edition; raise RulesError at the first problem."""
    if not isinstance(raw, list | tuple):
        raise RulesError("events-not-list", field="events", kind=type(raw).__name__)
    return tuple(parse_event(edition, index, item) for index, item in enumerate(raw))


def parse_event(edition: Edition, index: int, item: Any) -> Event:
    """Check one event (``events[index]``)."""
    where = f"events[{index}]"
    if not isinstance(item, dict):
        raise RulesError("event-not-object", field=where, where=where)
    kind = item.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RulesError(
            "unknown-event-type", field=f"{where}.type", where=where, value=kind,
            known=tuple(EVENT_TYPES),
        )  # fmt: skip
    fields = cls.slots()
    names = tuple(f.name for f in fields)
    for name in item:
        if name != "type" and name not in names:
            raise RulesError(
                "unknown-event-field", field=f"{where}.{name}", where=where, name=name,
                type=cls.TYPE, known=names,
            )  # fmt: skip
    for field in fields:
        if _required(field) and item.get(field.name) in (None, ""):
            raise RulesError(
                "event-field-required", field=f"{where}.{field.name}", where=where,
                name=field.name, type=cls.TYPE,
            )  # fmt: skip
    values: dict[str, Any] = {"index": index}
    for field in fields:
        if item.get(field.name) is not None:
            values[field.name] = _value(edition, cls, field, item, where)
    event = cls(**values)
    event.check(edition, where)
    return event


def _required(field: dataclasses.Field[Any]) -> bool:
    return field.default is dataclasses.MISSING


def _value(
    edition: Edition, cls: type[Event], field: dataclasses.Field[Any], item: dict[str, Any],
    where: str,
) -> Any:  # fmt: skip
    value = item[field.name]
    kind = field.metadata["kind"]
    if kind == "flag":
        if not isinstance(value, bool):
            raise RulesError("event-flag", field=f"{where}.{field.name}", value=value)
        return value
    if kind == "rulings":
        return _rulings(edition, value, f"{where}.{field.name}")
    if kind == "time":
        if type(value) is not int or value < 0:
            raise RulesError("event-time", field=f"{where}.{field.name}", value=value)
        return value
    known = _known(edition, cls, kind, item)
    if not isinstance(value, str) or value not in known:
        raise RulesError("event-value", field=f"{where}.{field.name}", value=value, known=known)
    return value


def _known(edition: Edition, cls: type[Event], kind: str, item: dict[str, Any]) -> tuple[str, ...]:
    """``_allowed`` as a tuple, worked out once for each case that can differ."""
    depends: Any = None
    if kind == "athlete":
        depends = item.get("foul") == "stalling"
    elif kind == "variant":
        depends = item.get("position")
        depends = depends if isinstance(depends, str) and depends in edition.positions else None
    key = (id(edition), cls, kind, depends)
    found = _KNOWN.get(key)
    if found is None or found[0] is not edition:
        found = _KNOWN[key] = (edition, tuple(_allowed(edition, cls, kind, item)))
    return found[1]


def _allowed(edition: Edition, cls: type[Event], kind: str, item: dict[str, Any]) -> Iterator[str]:
    if kind == "athlete":
        yield from ATHLETES
        if cls is Penalty and item.get("foul") == "stalling":
            yield BOTH  # a double stalling call
    elif kind == "winner":
        yield from ATHLETES
    elif kind == "position":
        yield from edition.positions
    elif kind == "variant":
        position = (
            edition.positions.get(item.get("position"))
            if isinstance(item.get("position"), str)
            else None
        )
        yield from position.variants if position else ()
    elif kind == "reason":
        yield from edition.advantages
    elif kind == "technique":
        yield from edition.techniques
    elif kind == "severity":
        yield from SEVERITIES
    elif kind == "foul":
        yield from (f.id for f in edition.fouls.values() if f.group in cls.FOUL_GROUPS)
    elif kind == "award":
        yield from edition.awards


def _rulings(edition: Edition, value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 3:
        raise RulesError("rulings-not-three", field=where, value=value)
    options = (*edition.positions, *RULINGS_EXTRA)
    for ruling in value:
        if not isinstance(ruling, str) or ruling not in options:
            raise RulesError("unknown-ruling", field=where, value=ruling, known=options)
    return tuple(value)


def event_fields(event_type: str) -> Sequence[str]:
    """The field names of an event type, for the pages that build events."""
    return tuple(f.name for f in EVENT_TYPES[event_type].slots())


def allowed_values(
    edition: Edition, event_type: str, name: str, given: dict[str, Any]
) -> tuple[str, ...]:
    """The values a field of an event type may take in an edition, given the event's
    other fields (a variant depends on the position), for the pages that build events."""
    cls = EVENT_TYPES[event_type]
    field = next(f for f in cls.slots() if f.name == name)
    kind = field.metadata["kind"]
    if kind == "rulings":
        return (*edition.positions, *RULINGS_EXTRA)
    if kind == "flag":
        return ()
    return tuple(_allowed(edition, cls, kind, given))
