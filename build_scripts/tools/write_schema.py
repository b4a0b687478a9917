"""Write lvl_rules/schema.json: the JSON Schema of ``lvl-rules export --json`` (format 1).

Run after changing the export's shape: ``python -m build_scripts.tools.write_schema``. A
test checks both editions validate against it and that the committed file equals what
this script writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TARGET = Path(__file__).resolve().parents[2] / "lvl_rules" / "schema.json"


def obj(properties: dict[str, Any], *, description: str = "") -> dict[str, Any]:
    """A closed object: every listed property required, nothing else allowed."""
    out: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def array(items: dict[str, Any]) -> dict[str, Any]:
    """An array of ``items``."""
    return {"type": "array", "items": items}


TEXT = {"type": "string", "minLength": 1}
ANY_TEXT = {"type": "string"}
COUNT = {"type": "integer", "minimum": 0}
AGE = {"type": "integer", "minimum": 4, "maximum": 120}
CLAUSE = {"type": "string", "pattern": r"^(\d+(\.\d+)*|preamble|reading-guide|closing-note)$"}
ID = {"type": "string", "pattern": r"^[a-z0-9][a-z0-9-]*$"}
CRITERIA = {
    "type": "object",
    "properties": {
        "min_age": AGE,
        "max_age": AGE,
        "lvls": array({"type": "integer", "minimum": 1}),
        "belts": array(ID),
        "uniforms": array({"enum": ["gi", "nogi"]}),
    },
    "required": ["min_age", "max_age"],
    "additionalProperties": False,
    "description": "A set of athletes: ages (inclusive), optionally some LVLs or belts"
    " and uniforms.",
}
AWARD = {
    "name": TEXT,
    "award": {"enum": ["points", "advantage", "none"]},
    "points": COUNT,
    "clause": CLAUSE,
    "explain": ANY_TEXT,
    "standard": {"type": "boolean"},
}


def schema() -> dict[str, Any]:
    """The whole schema."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "lvl-rules-edition-format-1",
        "title": "LVL Rules edition export (format 1)",
        "description": "One complete edition of the LVL Grappling Federation's competition rules. "
        "Every clause ID cited anywhere exists in the same file.",
        **obj(
            {
                "format": {"const": 1},
                "edition": {"type": "string", "pattern": r"^\d+$"},
                "title": TEXT,
                "name": TEXT,
                "description": TEXT,
                "based_on": {"type": ["string", "null"]},
                "latest": {"type": "boolean"},
                "clauses": array(
                    obj(
                        {
                            "id": CLAUSE,
                            "title": TEXT,
                            "parent": {"anyOf": [CLAUSE, {"type": "null"}]},
                            "markdown": ANY_TEXT,
                            "source": ANY_TEXT,
                            "references": array(CLAUSE),
                            "notes": array(ID),
                            "status": {"enum": ["unchanged", "changed", "added"]},
                        },
                        description="A citable clause; markdown has references and tables"
                        " expanded.",
                    )
                ),
                "notes": array(
                    obj(
                        {
                            "id": ID,
                            "clause": CLAUSE,
                            "title": TEXT,
                            "decision": TEXT,
                            "reason": TEXT,
                        }
                    )
                ),
                "techniques": array(
                    obj(
                        {
                            "id": ID,
                            "name": TEXT,
                            "description": TEXT,
                            "prohibited": {"type": "boolean"},
                        }
                    )
                ),
                "eligibility": _eligibility(),
                "scoring": _scoring(),
                "changes": array(
                    obj(
                        {
                            "collection": TEXT,
                            "key": {"type": ["string", "null"]},
                            "kind": {"enum": ["changed", "added", "removed"]},
                            "summary": TEXT,
                        }
                    )
                ),
            }
        ),
    }


def _eligibility() -> dict[str, Any]:
    return obj(
        {
            "axis": {"enum": ["lvl", "belt"]},
            "clause": CLAUSE,
            "rank_required_from": AGE,
            "prohibited_label": TEXT,
            "ranks": array(obj({"id": ID, "name": TEXT, "min_age": AGE, "max_age": AGE})),
            "experiences": array(obj({"id": ID, "name": TEXT})),
            "promotion": {
                "anyOf": [
                    {"type": "null"},
                    obj({"clause": CLAUSE, "from": ID, "to": ID, "min_age": AGE}),
                ]
            },
            "groups": array(
                obj(
                    {
                        "id": ID,
                        "label": TEXT,
                        "when": array(CRITERIA),
                        "adds": array(ID),
                        "limits": {"type": "object", "additionalProperties": CRITERIA},
                        "clause": CLAUSE,
                        "notes": array(ID),
                    },
                    description="A chart group; groups are cumulative in order.",
                )
            ),
            "bands": array(obj({"id": ID, "label": TEXT, "when": CRITERIA})),
        }
    )


def _scoring() -> dict[str, Any]:
    return obj(
        {
            "positions": array(
                obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "points": COUNT,
                        "clause": CLAUSE,
                        "variants": array(obj({"id": ID, **AWARD})),
                    }
                )
            ),
            "escapes": obj({"locked": obj(AWARD), "open": obj(AWARD)}),
            "advantages": array(obj({"id": ID, "name": TEXT, "clause": CLAUSE})),
            "fouls": array(
                obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "group": {"enum": ["stalling", "serious", "severe", "disciplinary"]},
                        "clause": CLAUSE,
                        "description": TEXT,
                        "generic": {"type": "boolean"},
                        "only_for": array(CRITERIA),
                        "opponent_points": COUNT,
                        "opponent_points_if_defending": COUNT,
                        "restart": {"enum": ["standing", "center", None]},
                        "unless_legal": {"anyOf": [ID, {"type": "null"}]},
                    }
                )
            ),
            "ladders": array(
                obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "clause": CLAUSE,
                        "when": array(CRITERIA),
                        "steps": array(
                            obj(
                                {
                                    "effect": {
                                        "enum": ["mark", "advantage", "points", "disqualify"]
                                    },
                                    "points": COUNT,
                                }
                            )
                        ),
                    }
                )
            ),
            "methods": array(obj({"id": ID, "name": TEXT, "clause": CLAUSE, "summary": TEXT})),
            "rules": obj(
                {
                    "repeat_clause": CLAUSE,
                    "advantage_clause": CLAUSE,
                    "severe_penalty_clause": CLAUSE,
                    "panel_clause": CLAUSE,
                    "double_stalling_step": COUNT,
                    "double_stalling_clause": CLAUSE,
                    "random_draw_clause": CLAUSE,
                }
            ),
        }
    )


def render_schema() -> str:
    """The schema file's exact text."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    TARGET.write_text(render_schema(), encoding="utf-8")
    print(f"wrote {TARGET}")
