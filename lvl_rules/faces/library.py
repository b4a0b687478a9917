"""The Python face: what ``from lvl_rules import ...`` gives.

Edition IDs are resolved here, once ("latest", 2 or "2"); the engines take an Edition.
The answers carry their sentences, made by :mod:`lvl_rules.words`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
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
from ..words import scoring as scoring_words

LATEST = "latest"


def resolve_edition(edition: str | int, root: Traversable | None = None) -> str:
    """Turn ``"latest"``, ``2`` or ``"2"`` into an edition ID, or raise RulesError."""
    known = loading.edition_ids(root)
    wanted = str(edition).strip() if isinstance(edition, str | int) else None
    if wanted == LATEST:
        return known[-1]
    if wanted not in known:
        shown = edition if wanted is None else wanted
        raise RulesError("unknown-edition", field="edition", value=shown, known=(*known, LATEST))
    return wanted


def load_edition(edition: str | int = LATEST, root: Traversable | None = None) -> Edition:
    """The complete edition (amendments merged), built once and then cached."""
    return loading.load_edition(resolve_edition(edition, root), root)


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


@dataclass(frozen=True, kw_only=True, slots=True)
class Result:
    """How the match ended; ``winner`` None when it has not ended or is undecided."""

    ended: bool
    winner: str | None
    method: str | None
    summary: str
    cite: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Report:
    """The scored match, in words."""

    division: Division
    events: tuple[Event, ...]
    athletes: dict[str, scoring.Tally]
    result: Result
    log: tuple[Line, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as the JSON API shows it."""
        return {
            "division": division_json(self.division),
            "athletes": {name: asdict(tally) for name, tally in self.athletes.items()},
            "result": asdict(self.result),
            "log": [asdict(line) for line in self.log],
        }


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


def score_match(athlete: Division, raw_events: Any) -> Report:
    """Score a match; raise RulesError for any bad event, naming it and what is allowed."""
    sheet = scoring.score(athlete, raw_events)
    edition = athlete.edition
    outcome = sheet.outcome
    return Report(
        division=athlete,
        events=sheet.events,
        athletes=sheet.athletes,
        result=Result(
            ended=outcome.ended,
            winner=outcome.winner,
            method=outcome.method,
            summary=scoring_words.outcome(edition, outcome),
            cite=outcome.cite,
        ),
        log=tuple(
            Line(
                event=effect.event,
                athlete=effect.athlete,
                effect=scoring_words.effect(edition, effect),
                cite=effect.cite,
            )
            for effect in sheet.effects
        ),
    )
