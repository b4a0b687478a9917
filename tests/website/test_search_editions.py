"""What officials see: every rule page names its edition in its title, and search puts
the edition in force first, each result naming its edition."""

from __future__ import annotations

import re

import pytest
from search_box import top_result_mentions
from timeline_names import IN_FORCE, TITLE

from lvl_rules import load_all

SEARCH_READY = (
    "() => !document.querySelector('.md-search-result__meta').textContent.includes('Initializing')"
)


def title_of(html: str) -> str:
    """The text of a page's <title>."""
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found
    return found.group(1)


def test_every_page_of_an_edition_names_it_in_its_title(built_site):
    """ "§7 Fouls · Edition 2, in force - LVL Rules"; an older edition's pages say only
    their edition; the pages about every edition name them all."""
    editions = load_all()
    latest = editions[-1]
    wrong = {}
    for edition in editions:
        label = f"{edition.title}, in force" if edition is latest else edition.title
        for page in sorted((built_site.site / "rules" / edition.id).rglob("index.html")):
            title = title_of(page.read_text(encoding="utf-8"))
            if not title.endswith(f" · {label} - LVL Rules"):
                wrong[page.relative_to(built_site.site).as_posix()] = title
    assert {} == wrong
    assert f"§7 Fouls · {TITLE[IN_FORCE]}, in force - LVL Rules" == title_of(
        built_site.page(f"rules/{IN_FORCE}/7/")
    )
    every = "Editions " + " and ".join(e.id for e in editions)
    for path in ("rules/changes/", "rules/notes/"):
        assert title_of(built_site.page(path)).endswith(f" · {every} - LVL Rules")


@pytest.mark.browser
@pytest.mark.parametrize("words", ["knee reaping", "stalling"])
def test_search_puts_the_edition_in_force_first(visit, site_url, words):
    """The first result is a page of the edition in force; every result names its
    edition(s) in its title."""
    page = visit().page
    page.goto(f"{site_url}rules/")
    page.wait_for_function(SEARCH_READY)
    top_result_mentions(page, words)
    results = page.locator(".md-search-result__item")
    first_link = results.first.locator("a.md-search-result__link").first.get_attribute("href")
    titles = results.locator("article h1").all_inner_texts()
    assert f"/rules/{IN_FORCE}/" in (first_link or "")
    assert titles[0].endswith(f"{TITLE[IN_FORCE]}, in force")
    assert len(titles) > 3
    assert [] == [title for title in titles if "Edition" not in title]
