"""The published JSON Schema describes the exports, and is the one the script writes."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest

from build_scripts.tools.write_schema import render_schema
from lvl_rules import export_edition, load_edition


def test_committed_schema_is_current():
    """lvl_rules/schema.json equals what build_scripts/tools/write_schema.py writes."""
    shipped = files("lvl_rules").joinpath("schema.json").read_text(encoding="utf-8")
    assert render_schema() == shipped


@pytest.mark.parametrize("edition_id", ["1", "2"])
def test_exports_validate(edition_id):
    """Each edition's export is valid against the schema (closed objects: no stray fields)."""
    schema = json.loads(files("lvl_rules").joinpath("schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(export_edition(load_edition(edition_id)), schema)


def test_schema_rejects_a_broken_export():
    """A clause without an id fails validation: the schema is not a rubber stamp."""
    schema = json.loads(files("lvl_rules").joinpath("schema.json").read_text(encoding="utf-8"))
    data = export_edition(load_edition("2"))
    del data["clauses"][0]["id"]
    with pytest.raises(jsonschema.ValidationError, match="'id' is a required property"):
        jsonschema.validate(data, schema)
