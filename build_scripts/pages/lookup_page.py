"""/lookup/, "My division": what an athlete may do, what not and when, the fouls that
concern them, their penalty scale and what changed between editions; and who may use a
technique.

The page carries two JSON blocks made by lvl_rules: the rules table (every answer of the
form, :func:`lvl_rules.faces.my_division.table`), from which the page answers at once,
before and without the engine; and the words the page shows around an answer
(:func:`lvl_rules.words.my_division.page_words`).
"""

from __future__ import annotations

import gzip
import json
import logging
from dataclasses import dataclass

from lvl_rules.faces.my_division import table
from lvl_rules.faces.site import Edition, page_words

from .forms import division_fields, options, status_block
from .notes_page import NOTES_PAGE
from .templating import TEMPLATES
from .urls import href, page_url

LOOKUP = "lookup.md"
TABLE_ELEMENT_ID = "lookup-table"
WORDS_ELEMENT_ID = "lookup-words"
log = logging.getLogger("mkdocs.plugins.lvl_rules")


@dataclass(frozen=True, slots=True)
class TableSize:
    """The rules table's size in bytes, as written into the page and compressed."""

    raw: int
    gzip: int
    brotli: int


def lookup_page(editions: tuple[Edition, ...]) -> str:
    """/lookup/: "My division", and who may use a technique."""
    latest = editions[-1]
    answers = rules_table(editions)
    size = table_size(answers)
    log.info(
        "LVL Rules lookup table: %d bytes, %d gzip, %d brotli", size.raw, size.gzip, size.brotli
    )
    return TEMPLATES.get_template("lookup.md.j2").render(
        status=status_block(LOOKUP, latest.id),
        root=href(LOOKUP, ""),
        division=division_fields("lookup", editions, side_by_side=True),
        techniques=options([(t.id, t.name) for t in latest.techniques.values()]),
        table=json_element(TABLE_ELEMENT_ID, answers),
        words=json_element(
            WORDS_ELEMENT_ID, {**page_words(editions, unlocks(answers)), "paths": _paths()}
        ),
    )


_TABLES: dict[tuple[int, ...], tuple[tuple[Edition, ...], dict[str, object]]] = {}


def rules_table(editions: tuple[Edition, ...]) -> dict[str, object]:
    """The rules table of these editions, made once per build (the engine is pure)."""
    key = tuple(id(edition) for edition in editions)
    found = _TABLES.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], editions, strict=True)):
        _TABLES.clear()
        found = (editions, table(editions))
        _TABLES[key] = found
    return found[1]


def compact_json(value: object) -> str:
    """JSON as the page carries it: no spaces, every "<" escaped so no text ends the
    element it sits in."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def json_element(ident: str, value: object) -> str:
    """A JSON ``<script>`` element (data, never run: the CSP allows no inline script)."""
    return f'<script type="application/json" id="{ident}">{compact_json(value)}</script>'


def table_size(answers: object) -> TableSize:
    """The table's bytes as written, and compressed as a host would send them."""
    import brotli  # build-time only (requirements-dev.txt)

    raw = compact_json(answers).encode("utf-8")
    return TableSize(
        raw=len(raw),
        gzip=len(gzip.compress(raw, compresslevel=9, mtime=0)),
        brotli=len(brotli.compress(raw, quality=11)),
    )


def unlocks(answers: dict[str, object]) -> set[str]:
    """Every unlock key the table's answers use."""
    found = set()
    for shown in answers["placements"]:  # type: ignore[attr-defined]
        for item in shown.get("answer", {}).get("not_legal", ()):
            found.add(item["unlock"])
    return found


def _paths() -> dict[str, str]:
    """Where the page links to, relative to the site root ({edition}, {clause}, {note})."""
    return {
        "cite": "cite/{edition}/{clause}/",
        "note": page_url(NOTES_PAGE) + "#e{edition}-{note}",
        "changes": "rules/changes/",
    }
