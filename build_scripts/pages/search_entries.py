"""Search for people on phones: every place a reader can land is a search entry of its own.

Material's search plugin cuts each page into sections at its headings, and its results
group a page's sections under the page: a result opens with the page's title, which
links to the top of the page (with an empty ``?h=`` when only a section matched), and
shows every section's whole text. The technique chart, one table under one heading,
was one section of 4,700 characters; a chart row could not be landed on at all.

Here the index file Material writes (``search/search_index.json``) is rewritten once the
build has written it (the MkDocs hook's ``on_post_build``, after Material's). Each entry
is an article of its own (Material links an entry without a fragment to its location, and
groups sections only under the page they are on), so each is a result of its own:

- every section Material found (every clause, note, change, ...) at ``<page>?at=<id>``,
  titled with its heading and the edition it belongs to;
- every row of each technique chart, and every foul of each scoring page, from the rule
  data, titled with the technique or foul and the edition;
- the page itself, when something of its own comes before its first heading; otherwise
  (a rule page: the edition line, then the section's clause) its first section, at the
  page's own address.

A name searched for whole comes first, then its longer variants ("toe hold": "Toe hold",
then "Toe hold with outward pressure"). Material's index weighs every field without its
length (``b(0)``) and searches each word as a prefix, so both titles match "toe hold"
alike and the variant's description ("A toe hold that ...") put it first. An entry whose
name holds another name of its edition's chart or fouls has its boost scaled by
``VARIANT_BOOST``: the titles weigh 1,000 times a description, so the exact name wins by
its title, and a search with the variant's own words ("outward") still finds the variant
first, by the words the shorter name lacks.

An entry's ``text``, which Material shows under its title, is two lines on a phone (a
row's answer in one line, a section's first sentence); what it says in full is in a
field of its own, ``body``, added to the fields the index names, so that search still
finds every word. ``docs/assets/lvl.js`` brings the element named by ``?at=`` into view
when the page opens; Material marks the words searched for (``?h=``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import Any

from lvl_rules.faces.site import (
    Edition,
    chart,
    edition_in_force,
    edition_label,
    editions_label,
    page_title,
)
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from .page_meta import IN_FORCE_BOOST, OLDER_BOOST
from .scoring_tables import foul_anchor
from .urls import page_url

INDEX = "search/search_index.json"
AT = "at"  # the query parameter naming the element an entry lands on (docs/assets/lvl.js)
BODY = "body"  # the field that holds an entry's whole text
BODY_FIELD = {"boost": 1.0}  # as Material's own text field
# The most characters of an entry's text: two lines of a search result on a 390-pixel
# phone (Material's result text is 0.64rem, some 55 characters a line).
TEXT_LIMIT = 110
# An entry named with a longer variant of another entry's name, after that entry.
VARIANT_BOOST = 0.8
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"\w+")
EDITION_PAGE = re.compile(r"^rules/(?P<edition>[^/]+)/")  # rules/<edition>/...
# On the pages about every edition (what changed, notes), an entry of one edition's:
# #e<edition>-<id> (build_scripts/pages/changes.py, notes_page.py).
EDITION_ANCHOR = re.compile(r"^e(?P<edition>[^-]+)-")
ABOUT_EDITIONS = ("rules/changes/", "rules/notes/")


def rewrite_index(site_dir: Path, editions: tuple[Edition, ...]) -> int:
    """Rewrite the search index Material wrote into ``site_dir``; return its entries."""
    path = site_dir / INDEX
    index = json.loads(path.read_text(encoding="utf-8"))
    index = search_index(index, editions)
    path.write_text(json.dumps(index, separators=(",", ":"), ensure_ascii=False), "utf-8")
    return len(index["docs"])


def search_index(index: dict[str, Any], editions: tuple[Edition, ...]) -> dict[str, Any]:
    """Material's index (``config``, ``docs``) with one entry per place to land."""
    config = {**index["config"], "fields": {**index["config"]["fields"], BODY: BODY_FIELD}}
    docs = [entry for page in _pages(index["docs"]) for entry in page_entries(page, editions)]
    latest = edition_in_force(editions).id
    for edition in editions:
        docs += chart_entries(edition, latest)
        docs += foul_entries(edition, latest)
    return {**index, "config": config, "docs": docs}


def page_entries(docs: list[dict[str, Any]], editions: tuple[Edition, ...]) -> list[dict]:
    """One page's entries: Material's page entry (or, when it has no text of its own, its
    first section at the page's address) and each section at ``<page>?at=<id>``."""
    page, sections = docs[0], docs[1:]
    if not _plain(page["text"]) and sections:
        first, *sections = sections
        page = {**first, "location": page["location"], "title": page["title"]}
    entries = [_entry(page, page["title"])]
    for section in sections:
        if not _plain(section["text"]):
            continue  # a heading over other headings, or in a part not searched
        path, _, anchor = section["location"].partition("#")
        label = label_for(path, anchor, editions)
        title = page_title(section["title"], label) if label else section["title"]
        entries.append(_entry({**section, "location": landing(path, anchor)}, title))
    return entries


def chart_entries(edition: Edition, latest: str) -> list[dict[str, Any]]:
    """Every row of an edition's technique chart: ``Heel hook · Edition 2, in force`` /
    ``Legal: adults, brown and black belts, No-Gi only``."""
    where = page_url(f"rules/{edition.id}/techniques.md")
    label = edition_label(edition, latest)
    names = entry_names(edition)
    return [
        entry(
            landing(where, f"technique-{technique.id}"),
            page_title(technique.name, label),
            words.chart_row_line(edition, technique, cells),
            technique.description,
            name_boost(_boost(edition, latest), technique.name, names),
        )
        for technique, cells in chart(edition)
    ]


def foul_entries(edition: Edition, latest: str) -> list[dict[str, Any]]:
    """Every foul in an edition's scoring tables, where its row says what it does."""
    where = page_url(f"rules/{edition.id}/scoring.md")
    label = edition_label(edition, latest)
    names = entry_names(edition)
    return [
        entry(
            landing(where, foul_anchor(foul.id)),
            page_title(foul.name, label),
            words.foul_line(edition, foul),
            render.expand(edition, foul.description).replace("**", ""),
            name_boost(_boost(edition, latest), foul.name, names),
        )
        for foul in edition.fouls.values()
    ]


def entry_names(edition: Edition) -> frozenset[str]:
    """The names an edition's chart rows and fouls are searched by (lower case)."""
    every = (*edition.techniques.values(), *edition.fouls.values())
    return frozenset(record.name.lower() for record in every)


def is_variant(name: str, names: frozenset[str]) -> bool:
    """Whether ``name`` is a longer variant of another of ``names``: it holds that name's
    words, whole, and more ("Toe hold with outward pressure" of "Toe hold")."""
    words_of = WORD.findall(name.lower())
    for other in names:
        shorter = WORD.findall(other)
        if len(shorter) < len(words_of) and any(
            words_of[i : i + len(shorter)] == shorter for i in range(len(words_of))
        ):
            return True
    return False


def name_boost(boost: float, name: str, names: frozenset[str]) -> float:
    """An entry's boost: its edition's, after the shorter name when it is a variant."""
    return boost * VARIANT_BOOST if is_variant(name, names) else boost


def landing(page: str, anchor: str) -> str:
    """An entry's location: the page, and the element to bring into view."""
    return f"{page}?{AT}={anchor}"


def entry(location: str, title: str, text: str, body: str, boost: float | None) -> dict:
    """A search entry (text and body plain; Material reads them as HTML)."""
    found = {
        "location": location,
        "title": escape(title, quote=False),
        "text": f"<p>{escape(text, quote=False)}</p>",
        BODY: escape(body, quote=False),
    }
    if boost is not None:
        found["boost"] = boost
    return found


def label_for(path: str, anchor: str, editions: tuple[Edition, ...]) -> str | None:
    """The edition(s) a section belongs to, as its title names them: that of its page
    (``rules/2/...``), or on the pages about every edition that of its anchor
    (``#e2-...``), or all of them; None for a page of no edition."""
    by_id = {edition.id: edition for edition in editions}
    latest = edition_in_force(editions).id
    found = EDITION_PAGE.match(path)
    if found and found["edition"] in by_id:
        return edition_label(by_id[found["edition"]], latest)
    if path in ABOUT_EDITIONS:
        found = EDITION_ANCHOR.match(anchor)
        if found and found["edition"] in by_id:
            return edition_label(by_id[found["edition"]], latest)
        return editions_label(editions)
    return None


def short_text(html: str, limit: int = TEXT_LIMIT) -> str:
    """A section's text in two lines: its first sentence (or first few short ones), or
    its first words and "…"."""
    return words.lead(_plain(html), limit)


def _entry(doc: dict[str, Any], title: str) -> dict[str, Any]:
    found = {
        "location": doc["location"],
        "title": title,
        "text": f"<p>{short_text(doc['text'])}</p>" if _plain(doc["text"]) else "",
        BODY: doc["text"],
    }
    for key in ("tags", "boost"):
        if key in doc:
            found[key] = doc[key]
    return found


def _pages(docs: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Material's entries page by page: the page's own, then its sections (Material
    writes them in that order)."""
    pages: list[list[dict[str, Any]]] = []
    for doc in docs:
        if "#" in doc["location"]:
            pages[-1].append(doc)
        else:
            pages.append([doc])
    return pages


def _plain(html: str) -> str:
    return " ".join(TAG.sub(" ", html).split())


def _boost(edition: Edition, latest: str) -> float:
    return IN_FORCE_BOOST if edition.id == latest else OLDER_BOOST
