"""A whole edition as JSON: the file the site publishes and tournament software reads.

Each record is written as its declared fields say (:mod:`lvl_rules.model.fields`); the
few values that exist only in the export (a clause's rendered Markdown, the tables that
group the records) are declared here, once, with their descriptions. The JSON Schema
(:func:`edition_schema`) is derived from the same declarations. ``FORMAT`` versions the
shape: fields are only ever added within a format version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import loading
from ..model import (
    Award,
    Band,
    Change,
    Clause,
    Count,
    Edition,
    Eligibility,
    Experience,
    Foul,
    Group,
    Ladder,
    Method,
    Note,
    Position,
    Rank,
    Reason,
    Scoring,
    Technique,
    Unlisted,
)
from ..model.fields import CLAUSE_PATTERN, ID_PATTERN, json_schema, to_json
from ..words.markdown import body, expand

FORMAT = 1
CLAUSE = {"type": "string", "pattern": CLAUSE_PATTERN}


@dataclass(frozen=True, slots=True)
class Extra:
    """A value the export adds to a record: its name, schema, description and maker."""

    name: str
    schema: dict[str, Any]
    description: str
    value: Callable[[Edition, Any], Any]


CLAUSE_EXTRAS = (
    Extra(
        "parent", {"anyOf": [CLAUSE, {"type": "null"}]},
        "The enclosing clause's ID, or null for a section.",
        lambda edition, clause: clause.parent,
    ),
    Extra(
        "markdown", {"type": "string"},
        "The text as Markdown, references and generated tables written out.",
        lambda edition, clause: body(edition, clause),
    ),
    Extra(
        "references", {"type": "array", "items": CLAUSE},
        "The clauses the title and text refer to.",
        lambda edition, clause: list(dict.fromkeys(clause.references())),
    ),
    Extra(
        "notes", {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}},
        "The editorial notes on this clause.",
        lambda edition, clause: [note.id for note in edition.notes_for(clause.id)],
    ),
    Extra(
        "readings", {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}},
        "The editorial notes whose reading, not the source's words, this clause shows (its "
        "number, its title, a corrected reference): each note's readings name its places.",
        lambda edition, clause: [note.id for note in edition.readings("clauses", clause.id)],
    ),
    Extra(
        "status", {"enum": ["unchanged", "changed", "added"]},
        "How the amendment that made this edition touched the clause.",
        lambda edition, clause: (
            change.kind if (change := edition.changed("clauses", clause.id)) else "unchanged"
        ),
    ),
)  # fmt: skip


def _list(cls: type, description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/$defs/{_name(cls)}"}, "description": description}


def _name(cls: type) -> str:
    return cls.__name__[0].lower() + cls.__name__[1:]


# The export's tables: JSON name -> (record, description), in order.
ELIGIBILITY_TABLES = {
    "ranks": (Rank, "The LVLs or belts of the edition."),
    "unlisted": (
        Unlisted,
        "Examples of techniques the chart does not name, so restricts for no athlete.",
    ),
    "experiences": (Experience, "Prior experience that moves a white belt up."),
    "groups": (Group, "The chart's groups; cumulative in this order."),
    "bands": (Band, "The chart's columns (layout only)."),
}
SCORING_TABLES = {
    "positions": (Position, "Scoring positions and their variants."),
    "advantages": (Reason, "Named reasons for an advantage."),
    "fouls": (Foul, "Every foul and what it does."),
    "counts": (Count, "The counts the referee keeps, and the penalty when one runs out."),
    "ladders": (Ladder, "The penalty scales."),
    "methods": (Method, "The ways a match is decided, in the rulebook's order."),
}


def export_edition(edition: Edition) -> dict[str, Any]:
    """Every clause, note, technique, chart group and scoring table of an edition."""

    def write(record: Any) -> dict[str, Any]:
        return to_json(record, render=lambda text: expand(edition, text), axis=axis)

    axis = edition.eligibility.axis
    about = to_json(edition)
    eligibility = write(edition.eligibility)
    return {
        "format": FORMAT,
        **about,
        "latest": loading.timeline().is_in_force(edition.id),
        "clauses": [
            write(clause) | {extra.name: extra.value(edition, clause) for extra in CLAUSE_EXTRAS}
            for clause in edition.clauses.values()
        ],
        "notes": [write(note) for note in edition.notes.values()],
        "techniques": [write(technique) for technique in edition.techniques.values()],
        "eligibility": {
            **eligibility,
            **{name: [write(r) for r in _records(edition, name)] for name in ELIGIBILITY_TABLES},
        },
        "scoring": {
            **{name: [write(r) for r in _records(edition, name)] for name in SCORING_TABLES},
            "escapes": {name: write(award) for name, award in edition.escapes.items()},
            "awards": {name: write(award) for name, award in edition.awards.items()},
            "rules": write(edition.scoring),
        },
        "changes": [write(change) for change in edition.changes],
    }


def _records(edition: Edition, name: str) -> list[Any]:
    records = getattr(edition, name)
    return list(records.values()) if isinstance(records, dict) else list(records)


def edition_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`export_edition`'s output (format 1)."""
    defs: dict[str, Any] = {}
    for cls in (Note, Technique, Eligibility, Award, Scoring, Change):
        json_schema(cls, defs)
    for cls, _ in (*ELIGIBILITY_TABLES.values(), *SCORING_TABLES.values()):
        json_schema(cls, defs)
    clause = json_schema(Clause, defs)
    clause_def = defs[_name(Clause)]
    for extra in CLAUSE_EXTRAS:
        clause_def["properties"][extra.name] = {**extra.schema, "description": extra.description}
    clause_def["required"] = sorted(clause_def["properties"])
    about = _about()
    eligibility = defs[_name(Eligibility)]
    for name, (cls, description) in ELIGIBILITY_TABLES.items():
        eligibility["properties"][name] = _list(cls, description)
    eligibility["required"] = sorted(eligibility["properties"])
    scoring = {
        "type": "object",
        "description": "Points, advantages, fouls, penalty scales and match decisions.",
        "properties": {
            **{name: _list(cls, text) for name, (cls, text) in SCORING_TABLES.items()},
            "escapes": {
                "type": "object",
                "description": "What an escaped submission earns: locked or open.",
                "additionalProperties": {"$ref": f"#/$defs/{_name(Award)}"},
            },
            "awards": {
                "type": "object",
                "description": "Points the rules give outside a scoring position, by kind.",
                "additionalProperties": {"$ref": f"#/$defs/{_name(Award)}"},
            },
            "rules": {"$ref": f"#/$defs/{_name(Scoring)}"},
        },
        "additionalProperties": False,
    }
    scoring["required"] = sorted(scoring["properties"])
    properties = {
        "format": {"const": FORMAT, "description": "The version of this file's shape."},
        **about["properties"],
        "latest": {"type": "boolean", "description": "Whether this edition is in force."},
        "clauses": {"type": "array", "items": clause, "description": "Every clause, in order."},
        "notes": _list(Note, "Editorial notes: how we read the source, and why."),
        "techniques": _list(Technique, "The technique catalogue."),
        "eligibility": {"$ref": f"#/$defs/{_name(Eligibility)}"},
        "scoring": scoring,
        "changes": _list(Change, "What the amendment that made this edition changed."),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"lvl-rules-edition-format-{FORMAT}",
        "title": f"LVL Rules edition export (format {FORMAT})",
        "description": "One complete edition of the LVL Grappling Federation's competition "
        "rules. Every clause ID cited anywhere exists in the same file.",
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
        "$defs": dict(sorted(defs.items())),
    }


def _about() -> dict[str, Any]:
    """The schema of the edition's own fields (id, title, ...), from their declarations."""
    defs: dict[str, Any] = {}
    json_schema(Edition, defs)
    return defs[_name(Edition)]
