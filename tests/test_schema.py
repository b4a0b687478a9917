"""The JSON Schema is derived from the model's declarations, and the exports follow it.

Every object of the schema is closed (no other properties) and requires every property
it lists, so an export that validates has exactly the schema's fields, no more, no fewer.
"""

from __future__ import annotations

import pytest
from timeline_names import AMENDMENT, EDITIONS

from lvl_rules import edition_schema, export_edition, load_edition
from lvl_rules.faces.export import CLAUSE_EXTRAS, ELIGIBILITY_TABLES
from lvl_rules.model import COLLECTIONS, Clause, Eligibility, Promotion, Scoring
from lvl_rules.model.fields import declared, definition_name, json_name

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a host tool")

RECORDS = (*COLLECTIONS.values(), Eligibility, Promotion, Scoring)
# What the export adds to a record, declared in lvl_rules.faces.export.
EXTRAS = {Clause: {extra.name for extra in CLAUSE_EXTRAS}, Eligibility: set(ELIGIBILITY_TABLES)}


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_exports_validate(edition_id: str) -> None:
    """Each edition's export is valid against the schema (closed objects: no stray fields)."""
    schema = edition_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(export_edition(load_edition(edition_id)), schema)


def test_schema_rejects_a_broken_export() -> None:
    """A clause without an id fails validation: the schema is not a rubber stamp."""
    data = export_edition(load_edition(AMENDMENT))
    del data["clauses"][0]["id"]
    with pytest.raises(jsonschema.ValidationError, match="'id' is a required property"):
        jsonschema.validate(data, edition_schema())


def test_schema_rejects_an_unknown_field() -> None:
    """A field the model does not declare fails validation."""
    data = export_edition(load_edition(AMENDMENT))
    data["scoring"]["fouls"][0]["penalty"] = 2
    with pytest.raises(jsonschema.ValidationError, match="Additional properties"):
        jsonschema.validate(data, edition_schema())


@pytest.mark.parametrize("record", RECORDS, ids=lambda cls: cls.__name__)
def test_schema_agrees_with_the_model(record: type) -> None:
    """A record's schema lists exactly its declared JSON fields, each with a description."""
    schema = edition_schema()["$defs"][definition_name(record)]
    declared_names = set()
    for field, spec in declared(record):
        if spec.json is not None:
            names = ("lvls", "belts") if spec.kind == "ranks" else (json_name(field, spec, {}),)
            declared_names.update(names)
    extras = EXTRAS.get(record, set())
    assert declared_names | extras == set(schema["properties"])
    assert [] == [
        name for name, value in schema["properties"].items() if not value.get("description")
    ]
