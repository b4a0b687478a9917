"""Search for people on phones: every chart row, foul and clause is a search entry of its
own, titled with it and its edition, two lines long; opening one lands on it, the words
searched for marked (build_scripts/pages/search_entries.py, docs/assets/lvl.js)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect
from search_box import ON_SCREEN, search_results
from timeline_names import FULL, IN_FORCE, TITLE

from build_scripts.pages.search_entries import (
    BODY,
    INDEX,
    TEXT_LIMIT,
    page_entries,
    search_index,
    short_text,
)
from build_scripts.pages.urls import clause_page, page_url
from lvl_rules import load_all
from lvl_rules.words.site import edition_label, editions_label

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LANDED = re.compile(r"\blvl-landed\b")
THEME_READY = "() => document.documentElement.classList.contains('js')"
# A search result's text (under its title), in lines as drawn: its line boxes, counted
# from the rectangles of its text (not its height over its computed line height, which
# reads "normal" while a stylesheet is still on its way).
TEXT_LINES = """(item) => {
  const text = item.querySelector("article > p");
  if (!text) return 0;
  const range = document.createRange();
  range.selectNodeContents(text);
  const tops = [];
  for (const box of range.getClientRects()) {
    const known = tops.some((top) => Math.abs(top - box.top) < box.height / 2);
    if (box.width > 0 && !known) tops.push(box.top);
  }
  return tops.length;
}"""

# How a page about every edition names them ("Editions 1 and 2").
EVERY_EDITION = editions_label(load_all())


def _material_page(location: str, title: str, text: str, *sections: tuple[str, str, str]):
    docs = [{"location": location, "title": title, "text": text, "boost": 2.0}]
    docs += [
        {"location": f"{location}#{anchor}", "title": heading, "text": body, "boost": 2.0}
        for anchor, heading, body in sections
    ]
    return docs


def test_a_rule_page_is_its_clauses():
    """A rule page whose only text before its first clause is its edition line: the page's
    entry is its first clause, at the page's address, and every other clause is an entry
    at <page>?at=<clause>, titled with its edition; empty headings are left out."""
    editions = load_all()
    docs = _material_page(
        f"rules/{IN_FORCE}/7/",
        f"§7 Fouls · {TITLE[IN_FORCE]}, in force",
        "",
        ("7", "7 Fouls", "<p>A foul is a breach of the rules.</p>"),
        ("7.2", "7.2 Technical fouls", ""),
        ("7.2.2", "7.2.2 Serious fouls", "<p>A serious foul breaks the spirit. More.</p>"),
    )
    entries = page_entries(docs, editions)
    assert [
        (
            f"rules/{IN_FORCE}/7/",
            f"§7 Fouls · {TITLE[IN_FORCE]}, in force",
            "<p>A foul is a breach of the rules.</p>",
        ),
        (
            f"rules/{IN_FORCE}/7/?at=7.2.2",
            f"7.2.2 Serious fouls · {TITLE[IN_FORCE]}, in force",
            "<p>A serious foul breaks the spirit. More.</p>",
        ),
    ] == [(e["location"], e["title"], e["text"]) for e in entries]
    assert [2.0, 2.0] == [e["boost"] for e in entries]


def test_the_pages_about_every_edition_name_each_entrys_edition():
    """On the notes page, a note of Edition 1 says Edition 1; its other sections name every
    edition; a page of no edition names none."""
    editions = load_all()
    docs = _material_page(
        "rules/notes/",
        f"Editorial notes · {EVERY_EDITION}",
        "<p>Why we read the rules as we do.</p>",
        ("editorial-notes", "Editorial notes", "<p>The documents are the source.</p>"),
        ("e1-adult-means-18", "“Adult” means 18", "<p>Decision.</p>"),
    )
    titles = [e["title"] for e in page_entries(docs, editions)]
    assert [
        f"Editorial notes · {EVERY_EDITION}",
        f"Editorial notes · {EVERY_EDITION}",
        f"“Adult” means 18 · {TITLE[FULL]}",
    ] == titles
    home = _material_page("", "Home", "<p>The rules.</p>", ("cards", "Cards", "<p>Go.</p>"))
    assert ["Home", "Cards"] == [e["title"] for e in page_entries(home, editions)]


def test_an_entrys_text_is_short_and_its_body_whole():
    """What a result shows is its first sentence, or its first words; search reads all."""
    long = "<p>" + "A very long sentence without an end " * 10 + "</p>"
    assert short_text(long).endswith("…")
    assert len(short_text(long)) <= TEXT_LIMIT + 1
    said = "<p>Stalling is when an athlete is clearly not trying to move. It is called:</p>"
    assert "Stalling is when an athlete is clearly not trying to move." == short_text(
        said, limit=60
    )
    index = search_index({"config": {"fields": {"title": {}}}, "docs": []}, load_all())
    assert BODY in index["config"]["fields"]


def test_every_row_foul_and_clause_is_an_entry_of_its_edition(built_site):
    """The built index has an entry for each chart row, each foul and each clause of every
    edition, titled with its edition, its text at most two lines."""
    index = json.loads((built_site.site / INDEX).read_text(encoding="utf-8"))
    by_location = {doc["location"]: doc for doc in index["docs"]}
    editions = load_all()
    missing = []
    for edition in editions:
        label = edition_label(edition, editions[-1].id)
        wanted = {f"rules/{edition.id}/techniques/?at=technique-{t}": t for t in edition.techniques}
        wanted |= {f"rules/{edition.id}/scoring/?at=foul-{f}": f for f in edition.fouls}
        for clause in edition.clauses.values():
            page = page_url(clause_page(edition.id, clause))
            at = f"{page}?at={clause.id}"
            wanted[at if at in by_location else page] = clause.id
        for location in wanted:
            doc = by_location.get(location)
            if doc is None or not doc["title"].endswith(f" · {label}"):
                missing.append(location)
    assert [] == missing
    too_long = [d["location"] for d in index["docs"] if len(d["text"]) > TEXT_LIMIT + 10]
    assert [] == too_long


@pytest.mark.browser
@pytest.mark.parametrize(
    ("words", "landing"),
    [
        ("heel hook", "technique-heel-hook"),
        ("slam", "technique-slam"),
        ("jumping guard", "foul-jump-guard"),
    ],
)
def test_the_first_result_is_two_lines_and_lands_on_the_rule(chromium, site_url, words, landing):
    """At 390x844 the first result names the technique or foul and the edition in force
    in under 200 characters, its text in at most two lines; opening it shows that row, with
    the words searched for marked in it, on the first screen."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{site_url}rules/")
        page.wait_for_function(THEME_READY)
        first = search_results(page, words).first
        expect(first.locator("h1")).to_have_text(
            f"{words.capitalize()} · {TITLE[IN_FORCE]}, in force"
        )
        assert len(first.inner_text()) < 200
        assert 1 <= first.evaluate(TEXT_LINES) <= 2
        link = first.locator("a.md-search-result__link").first
        href = link.get_attribute("href") or ""
        assert [landing] == parse_qs(urlsplit(href).query)["at"]
        link.tap()
        page.wait_for_url(f"**?at={landing}**")
        place = page.locator(f"#{landing}")
        row = page.locator(f"tr:has(#{landing}), tr#{landing}").first
        expect(row).to_have_class(LANDED)
        mark = row.locator("mark").first
        expect(mark).to_contain_text(words.split()[0], ignore_case=True)
        assert place.evaluate(ON_SCREEN) or row.evaluate(ON_SCREEN)
        assert mark.evaluate(ON_SCREEN)
    finally:
        context.close()
    assert [] == errors


@pytest.mark.browser
def test_a_result_on_the_page_on_screen_lands_too(chromium, site_url):
    """On the chart already, choosing another of its rows brings that row into view (no
    page is fetched, so lvl.js follows Material's location)."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{IN_FORCE}/techniques/")
        page.wait_for_function(THEME_READY)
        first = search_results(page, "knee bar").first
        first.locator("a.md-search-result__link").first.tap()
        row = page.locator("#technique-knee-bar")
        expect(row).to_have_class(LANDED)
        assert row.evaluate(ON_SCREEN)
    finally:
        context.close()
