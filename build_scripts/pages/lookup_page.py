"""/lookup/, "My division": what an athlete may do, what not and when, the fouls that
concern them, their penalty scale and what changed between editions; and who may use a
technique.

The page answers from two JSON blocks made by lvl_rules at build time, and loads no rules
engine: the rules table (every answer of the form, and which fields matter at which age:
:func:`lvl_rules.faces.my_division.table`), which the build checks against the engine
(:mod:`.lookup_check`); and the words the page shows around an answer
(:func:`lvl_rules.words.my_division.page_words`), with the engine's answer to "who may use
a technique" for every technique of every edition (the JSON API's ``divisions-for``).
"""

from __future__ import annotations

import gzip
import json
import logging
from dataclasses import dataclass

from lvl_rules.faces import api
from lvl_rules.faces.my_division import table
from lvl_rules.faces.site import Edition, edition_in_force, page_text, page_words

from .clause_blocks import share_attributes
from .division_pages import POSTER, addresses, divisions
from .form_check import check_form
from .forms import division_fields, options
from .lookup_check import check_table
from .notes_page import NOTES_PAGE
from .poster import poster_path
from .templating import TEMPLATES
from .urls import href, page_url

LOOKUP = "lookup.md"
LOOKUP_NAME = "My division"  # as the build's messages name the page
POSTER_SIZE = "a4"  # the poster My division links to: the paper a parent has at home
# The share button's words (docs/assets/app/share.js)
SHARE_WORDS = ("share-label", "copy-label", "copied", "failed", "unavailable")
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
    latest = edition_in_force(editions)
    answers = rules_table(editions)
    size = table_size(answers)
    log.info(
        "LVL Rules lookup table: %d bytes, %d gzip, %d brotli", size.raw, size.gzip, size.brotli
    )
    division = division_fields("lookup", editions, not_asked=not_asked_first(answers))
    check_form(LOOKUP_NAME, division, editions, answers)
    said = page_words(editions, unlocks(answers))
    text = page_text(editions)
    share = {name: text[name.replace("-", "_")] for name in SHARE_WORDS}
    return TEMPLATES.get_template("lookup.md.j2").render(
        link_table=compact_json(link_table(answers)),
        said=text,
        latest=latest.id,
        share=share_attributes(share),
        poster=href(LOOKUP, poster_path(latest.id, POSTER_SIZE)),
        root=href(LOOKUP, ""),
        division=division,
        techniques=options([(t.id, t.name) for t in latest.techniques.values()]),
        table=json_element(TABLE_ELEMENT_ID, answers),
        words=json_element(
            WORDS_ELEMENT_ID,
            {
                **said,
                "who": who_may_use(editions),
                "paths": _paths(),
                "divisions": addresses(editions, divisions(editions, answers)),
            },
        ),
    )


def not_asked_first(answers: dict[str, object]) -> set[str]:
    """The fields the page, opened without a question, does not ask (those that change
    nothing with no age entered, in the latest edition: lookup.js's askOnly, as it leaves
    them): the build writes them hidden, so the first paint is the state the script keeps.
    Every other field that some age asks for is revealed by the script when asked."""
    asks: dict[str, dict] = answers["asks"]  # type: ignore[assignment]
    askable = {
        field
        for entry in asks.values()
        for fields in [*(run for _, run in entry["runs"]), entry["none"], entry["other"]]
        for field in fields
    }
    return askable - set(asks[answers["latest"]]["none"])  # type: ignore[index]


def link_table(answers: dict[str, object]) -> dict[str, object]:
    """The part of the rules table that says which fields an address's age asks for
    (division-table.js's askedFields and editionOf read it): written into the page's
    <head> for docs/assets/app/lookup-link.js, which runs before the first paint."""
    editions: dict[str, object] = answers["editions"]  # type: ignore[assignment]
    return {
        "asks": answers["asks"],
        "ages": answers["ages"],
        "latest": answers["latest"],
        "editions": {key: {} for key in editions},
    }


def who_may_use(editions: tuple[Edition, ...]) -> dict[str, dict[str, dict[str, str]]]:
    """For each edition and each technique the page lists (the latest edition's), the
    engine's answer to "who may use it" (``divisions-for``): its summary and clause, or
    the message of its refusal (a technique the edition does not have)."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for edition in editions:
        found[edition.id] = {}
        for technique in edition_in_force(editions).techniques:
            request = {"action": "divisions-for", "edition": edition.id, "technique": technique}
            said = json.loads(api.handle(json.dumps(request)))
            found[edition.id][technique] = (
                {"summary": said["result"]["summary"], "cite": said["result"]["cite"]}
                if said["ok"]
                else {"error": said["error"]}
            )
    return found


_TABLES: dict[tuple[int, ...], tuple[tuple[Edition, ...], dict[str, object]]] = {}


def rules_table(editions: tuple[Edition, ...]) -> dict[str, object]:
    """The rules table of these editions, made and checked against the engine once per
    build (the engine is pure)."""
    key = tuple(id(edition) for edition in editions)
    found = _TABLES.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], editions, strict=True)):
        _TABLES.clear()
        answers = table(editions)
        check_table(editions, answers)
        found = (editions, answers)
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
        "chart_row": "rules/{edition}/techniques/#technique-{technique}",
        "poster": "{division}" + POSTER,
    }
