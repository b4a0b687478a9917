"""Search ranks a technique or foul searched for by its whole name first, then the name's
longer variants ("toe hold": "Toe hold", then "Toe hold with outward pressure"), and opening
the first result lands on its row (build_scripts/pages/search_entries.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from search_box import search_results
from timeline_names import IN_FORCE

from build_scripts.pages.search_entries import entry_names, is_variant, name_boost
from lvl_rules import load_edition
from lvl_rules.words.site import edition_label

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
THEME_READY = "() => document.documentElement.classList.contains('js')"
LANDED = re.compile(r"\blvl-landed\b")
# A technique and a foul with longer variants: (searched, its row, a longer variant).
NAMES = [
    ("toe hold", "technique-toe-hold", "Toe hold with outward pressure"),
    ("straight foot lock", "technique-straight-foot-lock", "Straight foot lock, turning"),
    ("fleeing the area", "foul-flee-area", "Fleeing the area to avoid tapping"),
]


def test_a_variant_is_a_name_holding_another_whole():
    """ "Toe hold with outward pressure" is a variant of "Toe hold"; "Toe hold" is none, nor
    is a name holding another's letters but not its words; a variant's boost is lower."""
    names = entry_names(load_edition(IN_FORCE))
    assert {"toe hold", "fleeing the area"} <= names
    assert is_variant("Toe hold with outward pressure", names)
    assert is_variant("Fleeing the area to avoid tapping", names)
    assert not is_variant("Toe hold", names)
    assert not is_variant("Toe holder", frozenset({"toe hold"}))
    assert name_boost(2.0, "Toe hold with outward pressure", names) < 2.0
    assert 2.0 == name_boost(2.0, "Toe hold", names)


@pytest.mark.browser
@pytest.mark.parametrize(("words", "row", "variant"), NAMES)
def test_a_whole_name_comes_first_then_its_variants(chromium, site_url, words, row, variant):
    """At 390x844, the first result is the technique or foul of that very name in the
    edition in force, a longer variant comes after it, and opening it lands on its row."""
    label = edition_label(load_edition(IN_FORCE), IN_FORCE)
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{site_url}rules/")
        page.wait_for_function(THEME_READY)
        results = search_results(page, words)
        expect(results.first.locator("h1")).to_have_text(f"{words.capitalize()} · {label}")
        titles = results.locator("article h1").all_inner_texts()
        after = [i for i, title in enumerate(titles) if title.startswith(variant)]
        assert after, titles
        assert min(after) > 0
        results.first.locator("a.md-search-result__link").first.tap()
        page.wait_for_url(f"**?at={row}**")
        expect(page.locator(f"tr:has(#{row}), tr#{row}").first).to_have_class(LANDED)
    finally:
        context.close()
    assert [] == errors


@pytest.mark.browser
def test_a_variants_own_words_find_the_variant_first(chromium, site_url):
    """ "toe hold outward" finds "Toe hold with outward pressure" first."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/")
        page.wait_for_function(THEME_READY)
        page.locator('label.md-header__button[for="__search"]').tap()
        page.locator(".md-search__input").press_sequentially("toe hold outward")
        first = page.locator(".md-search-result__item").first.locator("h1")
        expect(first).to_contain_text("Toe hold with outward pressure")
    finally:
        context.close()
