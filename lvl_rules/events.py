"""Match events as the CLI, the JSON API and the browser send them, checked field by field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RulesError, allowed
from .model import Edition

ATHLETES = ("A", "B")
SEVERITIES = {"technical": "severe", "disciplinary": "disciplinary"}
RULINGS_EXTRA = ("advantage", "none", "penalty")

# type -> (required fields, optional fields); "athlete" is listed where it is needed.
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "score": (("athlete", "position"), ("variant", "repeated")),
    "advantage": (("athlete",), ("reason",)),
    "submission-escaped": (("athlete",), ("locked",)),
    "penalty": (("athlete", "foul"), ("defending",)),
    "severe-foul": (("athlete",), ("kind", "foul")),
    "technique": (("athlete", "technique"), ()),
    "panel": (("athlete", "rulings"), ()),
    "submission": (("athlete",), ()),
    "stoppage": (("athlete",), ()),
    "loss-of-consciousness": (("athlete",), ("head_trauma",)),
    "end": ((), ("referee_decision", "both_injured", "final", "random_draw")),
}
BOOLEANS = ("repeated", "locked", "defending", "head_trauma", "both_injured", "final")


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """One checked event. ``index`` is its place in the list (0-based)."""

    index: int
    type: str
    athlete: str | None = None
    position: str | None = None
    variant: str | None = None
    repeated: bool = False
    reason: str | None = None
    locked: bool = False
    foul: str | None = None
    defending: bool = False
    kind: str | None = None
    technique: str | None = None
    rulings: tuple[str, ...] = ()
    head_trauma: bool = False
    referee_decision: str | None = None
    both_injured: bool = False
    final: bool = False
    random_draw: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The event as it was given, normalised (defaults left out)."""
        out: dict[str, Any] = {"type": self.type}
        required, optional = FIELDS[self.type]
        for name in (*required, *optional):
            value = getattr(self, name)
            if value not in (None, False, ()):
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


def parse_events(edition: Edition, raw: Any) -> tuple[Event, ...]:
    """Check a JSON list of events against an edition; raise RulesError at the first problem."""
    if not isinstance(raw, list | tuple):
        raise RulesError(
            f"events must be a list of event objects, not {type(raw).__name__}", field="events"
        )
    return tuple(_parse(edition, index, item) for index, item in enumerate(raw))


def _parse(edition: Edition, index: int, item: Any) -> Event:
    where = f"events[{index}]"
    if not isinstance(item, dict):
        raise RulesError(f'{where} must be an object such as {{"type": "end"}}', field=where)
    kind = item.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise RulesError(
            f"{where}.type is {kind!r}; allowed: {allowed(FIELDS)}", field=f"{where}.type"
        )
    required, optional = FIELDS[kind]
    for name in item:
        if name != "type" and name not in required and name not in optional:
            raise RulesError(
                f"{where}.{name} is not a field of a '{kind}' event; allowed: "
                f"{allowed((*required, *optional))}",
                field=f"{where}.{name}",
            )
    for name in required:
        if item.get(name) in (None, ""):
            raise RulesError(
                f"{where}.{name} is required for a '{kind}' event", field=f"{where}.{name}"
            )
    values: dict[str, Any] = {"index": index, "type": kind}
    for name in (*required, *optional):
        if name in item and item[name] is not None:
            values[name] = _value(edition, where, kind, name, item[name], item)
    event = Event(**values)
    _check_together(edition, where, event)
    return event


def _check_together(edition: Edition, where: str, event: Event) -> None:
    if event.type == "severe-foul":
        if event.kind is None and event.foul is None:
            raise RulesError(
                f"{where} needs kind ({allowed(SEVERITIES)}) or foul", field=f"{where}.kind"
            )
        if event.kind and event.foul and edition.fouls[event.foul].group != SEVERITIES[event.kind]:
            raise RulesError(
                f"{where}.foul '{event.foul}' is not a {event.kind} foul", field=f"{where}.foul"
            )
    if event.random_draw and not (event.both_injured and event.final):
        raise RulesError(
            f"{where}.random_draw is allowed only when both athletes are injured in a final "
            f"(both_injured and final true, §{edition.scoring.random_draw_clause})",
            field=f"{where}.random_draw",
        )


def _value(
    edition: Edition, where: str, kind: str, name: str, value: Any, item: dict[str, Any]
) -> Any:
    field = f"{where}.{name}"

    def one_of(options: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise RulesError(f"{field} is {value!r}; allowed: {allowed(options)}", field=field)
        return value

    if name in BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(f"{field} must be true or false, not {value!r}", field=field)
        return value
    if name == "athlete":
        both = kind == "penalty" and item.get("foul") == "stalling"
        return one_of((*ATHLETES, "both") if both else ATHLETES)
    if name in ("referee_decision", "random_draw"):
        return one_of(ATHLETES)
    if name == "position":
        return one_of(edition.positions)
    if name == "variant":
        position = edition.positions.get(item.get("position", ""))
        return one_of(position.variants if position else ())
    if name == "reason":
        return one_of(edition.advantages)
    if name == "technique":
        return one_of(edition.techniques)
    if name == "kind":
        return one_of(SEVERITIES)
    if name == "foul":
        groups = ("stalling", "serious") if kind == "penalty" else ("severe", "disciplinary")
        fouls = [foul.id for foul in edition.fouls.values() if foul.group in groups]
        return one_of(fouls)
    if name == "rulings":
        if not isinstance(value, list) or len(value) != 3:
            raise RulesError(f"{field} must be a list of three rulings, not {value!r}", field=field)
        options = (*edition.positions, *RULINGS_EXTRA)
        for ruling in value:
            if ruling not in options:
                raise RulesError(
                    f"{field} holds {ruling!r}; allowed: {allowed(options)}", field=field
                )
        return tuple(value)
    raise AssertionError(name)  # every field in FIELDS is handled above
