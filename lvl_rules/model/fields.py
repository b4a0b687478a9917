"""Each field of the model declared once: its TOML key, JSON name, kind and description.

A record is a frozen dataclass whose fields are made with :func:`declare`. From those
declarations come the three forms of a record, so a new field is added in one place:

- :func:`read`: the record from its TOML table (every key typed and checked, unknown
  keys rejected, errors naming file and key);
- :func:`to_json`: the record as the JSON export writes it;
- :func:`json_schema`: the JSON Schema of that export, with each field's description.

A record class may define ``settle(self, table, context)`` for rules that tie fields
together; it runs after the fields are read and before unknown keys are rejected, and
returns the record (possibly completed).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from .reader import MISSING, Table

SAME = "<the attribute's name>"
CLAUSE_PATTERN = r"^(\d+(\.\d+)*|preamble|reading-guide|closing-note)$"
ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
ID = re.compile(ID_PATTERN)
MIN_AGE = 4
MAX_AGE = 120

# What a field holds. TOML reading, JSON writing and the schema all switch on it.
KINDS = (
    "key",  # the record's ID: its key in the TOML table
    "clause-key",  # a clause's ID: its key in the TOML table, a number such as 5.4
    "text",  # non-empty text (may be limited to `choices`); no braces, no HTML
    "markup",  # rule text: non-empty Markdown with {§…} references and {…} markers
    "clause",  # a clause ID, checked against the edition when it is loaded
    "ref",  # the ID of another record
    "refs",  # a list of IDs of other records
    "whole",  # a whole number, at least `minimum`
    "age",  # an age in years
    "flag",  # true or false
    "choice-flag",  # true or false, written in TOML as one of two words (`choices`)
    "ranks",  # LVLs or belts: `lvls = [...]` or `belts = [...]` by the edition's axis
    "record",  # one sub-table read as `item` (absent: the default)
    "records",  # an array of tables, each read as `item`
    "keyed",  # a table of tables, each read as `item`, exported as a list with "id"
    "by-name",  # a table of tables, each read as `item`, exported as an object
)


@dataclasses.dataclass(frozen=True, slots=True)
class Spec:
    """How one field is written in TOML and JSON, and what it means."""

    kind: str
    description: str
    toml: str | None = SAME
    json: str | None = SAME
    choices: tuple[str, ...] = ()
    minimum: int = 0
    item: Any = None
    rendered: bool = False  # JSON: references and markers written out as plain text
    omit_empty: bool = False  # JSON: left out when empty


def declare(
    kind: str,
    description: str,
    *,
    default: Any = MISSING,
    toml: str | None = SAME,
    json: str | None = SAME,
    choices: tuple[str, ...] = (),
    minimum: int = 0,
    item: Any = None,
    rendered: bool = False,
    omit_empty: bool = False,
) -> Any:
    """A dataclass field with its declaration. A field with a default is optional in TOML."""
    if kind not in KINDS:
        raise ValueError(kind)  # a programming error: not one of KINDS
    spec = Spec(kind, description, toml, json, choices, minimum, item, rendered, omit_empty)
    metadata = {"spec": spec}
    if isinstance(default, dict):
        return dataclasses.field(default_factory=dict, metadata=metadata)
    if default is MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def declared(cls: type) -> tuple[tuple[dataclasses.Field[Any], Spec], ...]:
    """The declared fields of a record class: its ID first, then in declaration order."""
    pairs = [(f, f.metadata["spec"]) for f in dataclasses.fields(cls) if "spec" in f.metadata]
    return tuple(sorted(pairs, key=lambda pair: pair[1].kind not in ("key", "clause-key")))


def toml_key(field: dataclasses.Field[Any], spec: Spec, context: Mapping[str, Any]) -> str:
    """The key a field is written under in TOML."""
    if spec.kind == "ranks":
        return f"{context['axis']}s"
    return field.name if spec.toml == SAME else str(spec.toml)


def json_name(field: dataclasses.Field[Any], spec: Spec, context: Mapping[str, Any]) -> str:
    """The name a field is written under in JSON."""
    if spec.kind == "ranks":
        return f"{context['axis']}s"
    return field.name if spec.json == SAME else str(spec.json)


# ---------------------------------------------------------------- reading TOML


def read(cls: Any, table: Table, *, key: str | None = None, **context: Any) -> Any:
    """A record from its TOML table; ``key`` is its ID, ``context`` what its kinds need
    (``axis`` for ranks)."""
    record = cls(**read_values(cls, table, key=key, **context))
    settle = getattr(record, "settle", None)
    if settle is not None:
        record = settle(table, context)
    table.finish()
    return record


def read_values(
    cls: Any, table: Table, *, key: str | None = None, **context: Any
) -> dict[str, Any]:
    """The declared fields of ``cls`` read from ``table``, by attribute name."""
    values: dict[str, Any] = {}
    for field, spec in declared(cls):
        if spec.kind in ("key", "clause-key"):
            if spec.kind == "key" and not ID.fullmatch(str(key)):
                raise table.fail("", "bad-id", value=key)
            values[field.name] = key
        elif spec.toml is not None:
            # Sub-records see the fields read so far: a variant's points default to its
            # position's.
            values[field.name] = _read_field(table, field, spec, {**context, "parent": values})
    return values


def _default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return MISSING


def _read_field(
    table: Table, field: dataclasses.Field[Any], spec: Spec, context: Mapping[str, Any]
) -> Any:
    name = toml_key(field, spec, context)
    default = _default(field)
    kind = spec.kind
    if kind in ("text", "clause", "ref", "markup"):
        return table.text(name, default, choices=spec.choices, markup=kind == "markup")
    if kind == "choice-flag":
        return table.text(name, choices=spec.choices) == spec.choices[0]
    if kind in ("whole", "age"):
        minimum = MIN_AGE if kind == "age" else spec.minimum
        return table.integer(name, default, minimum=minimum)
    if kind == "flag":
        return table.boolean(name, default)
    if kind in ("refs", "ranks"):
        return table.texts(name, default)
    optional = default is not MISSING
    if kind == "record":
        if optional and not table.has(name):
            return default
        return read(spec.item, table.table(name), **context)
    if kind == "records":
        if optional and not table.has(name):
            return default
        return tuple(read(spec.item, item, **context) for item in table.array(name))
    # keyed, by-name: a table of tables
    entries = table.keyed(name, {} if optional else MISSING)
    return {item_id: read(spec.item, item, key=item_id, **context) for item_id, item in entries}


# ---------------------------------------------------------------- writing JSON

Render = Callable[[str], str]  # rule text -> the same text with its markers written out


def to_json(record: Any, *, render: Render | None = None, **context: Any) -> dict[str, Any]:
    """A record as the JSON export writes it (its ID first)."""
    out: dict[str, Any] = {}
    for field, spec in declared(type(record)):
        if spec.json is None:
            continue
        value = _json_value(getattr(record, field.name), spec, render, context)
        if spec.omit_empty and not value:
            continue
        out[json_name(field, spec, context)] = value
    return out


def _json_value(value: Any, spec: Spec, render: Render | None, context: Mapping[str, Any]) -> Any:
    kind = spec.kind
    if value is None:
        return None
    if spec.rendered and render is not None:
        return render(value)
    if kind == "ranks":
        return [int(rank) if context["axis"] == "lvl" else rank for rank in value]
    if kind == "refs":
        return list(value)
    if kind == "record":
        return to_json(value, render=render, **context)
    if kind == "records":
        return [to_json(item, render=render, **context) for item in value]
    if kind == "keyed":
        return [to_json(item, render=render, **context) for item in value.values()]
    if kind == "by-name":
        return {name: to_json(item, render=render, **context) for name, item in value.items()}
    return value


# ---------------------------------------------------------------- the JSON Schema


def definition_name(cls: type) -> str:
    """The name of a record's schema under ``$defs``: ``Rank`` -> ``rank``."""
    return cls.__name__[0].lower() + cls.__name__[1:]


def json_schema(cls: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    """A reference to the record's schema, added (with those it uses) to ``definitions``."""
    name = definition_name(cls)
    if name not in definitions:
        definitions[name] = {}  # reserved: a record may hold records of its own kind
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field, spec in declared(cls):
            if spec.json is None:
                continue
            value = _property(field, spec, definitions)
            value["description"] = spec.description
            names = ("lvls", "belts") if spec.kind == "ranks" else (json_name(field, spec, {}),)
            for shown in names:
                properties[shown] = value
                if not spec.omit_empty:
                    required.append(shown)
        definitions[name] = {
            "type": "object",
            "description": (cls.__doc__ or "").strip().splitlines()[0],
            "properties": properties,
            "required": sorted(required),
            "additionalProperties": False,
        }
    return {"$ref": f"#/$defs/{name}"}


def _property(field: dataclasses.Field[Any], spec: Spec, definitions: dict[str, Any]) -> Any:
    kind = spec.kind
    optional_none = _default(field) is None
    if kind in ("key", "ref"):
        value: dict[str, Any] = {"type": "string", "pattern": ID_PATTERN}
    elif kind in ("clause", "clause-key"):
        value = {"type": "string", "pattern": CLAUSE_PATTERN}
    elif kind in ("text", "markup"):
        value = {"enum": list(spec.choices)} if spec.choices else {"type": "string"}
        if not spec.choices and _default(field) is MISSING:
            value["minLength"] = 1
    elif kind in ("whole", "age"):
        value = {"type": "integer", "minimum": MIN_AGE if kind == "age" else spec.minimum}
        if kind == "age":
            value["maximum"] = MAX_AGE
    elif kind in ("flag", "choice-flag"):
        value = {"type": "boolean"}
    elif kind == "refs":
        value = {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}}
    elif kind == "ranks":
        value = {"type": "array", "items": {"type": ["integer", "string"]}}
    elif kind == "record":
        value = json_schema(spec.item, definitions)
    elif kind in ("records", "keyed"):
        value = {"type": "array", "items": json_schema(spec.item, definitions)}
    else:  # by-name
        value = {"type": "object", "additionalProperties": json_schema(spec.item, definitions)}
    if optional_none:
        value = {"anyOf": [value, {"type": "null"}]}
    return value
