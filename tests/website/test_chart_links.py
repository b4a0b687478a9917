"""Every chart row links the clause that restricts its technique, at the technique's own
item in that clause, and the same row in the other edition's chart; switching edition
there lands on the same row (or, from a clause, the same clause), marked, below the
notice that says which edition this is (build_scripts/pages/chart.py, docs/assets/lvl.js,
lvl.css)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import expect
from search_box import ON_SCREEN
from timeline_names import EDITIONS, IN_FORCE, PAIRS

from lvl_rules import load_edition
from lvl_rules.faces.site import chart

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
THEME_READY = "() => document.documentElement.classList.contains('js')"
LANDED = re.compile(r"\blvl-landed\b")
BASE = "http://site.invalid/"
ROW = re.compile(r'<tr id="(technique-[^"]+)".*?</tr>', re.S)
HREF = re.compile(r'<a class="(lvl-row-rule|lvl-row-other)" href="([^"]+)"[^>]*>([^<]*)</a>')
# What is wholly on the screen below Material's header, and below the edition's notice.
BELOW_NOTICE = """(element) => {
  const box = element.getBoundingClientRect();
  const notice = document.querySelector(".lvl-edition-notice").getBoundingClientRect();
  return box.top >= notice.bottom - 1 && box.top < innerHeight && box.height > 0;
}"""
OLDER = next(amended for amended, amending in PAIRS if amending == IN_FORCE)


def _lands_below_notice(page, link, address: str, notice_says: str) -> None:
    """Tap ``link``: the page at ``address`` (ending ``#<id>``) marks that element, below
    the edition's notice, which says ``notice_says`` and is on screen."""
    link.tap()
    page.wait_for_url(f"**/{address}")
    target = address.rpartition("#")[2]
    expect(page.locator(f'[id="{target}"]')).to_have_class(LANDED)
    notice = page.locator(".lvl-edition-notice")
    expect(notice).to_contain_text(notice_says)
    page.wait_for_function(f"() => ({BELOW_NOTICE})(document.getElementById('{target}'))")
    assert notice.evaluate(ON_SCREEN)


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_row_links_its_clause_and_the_other_editions_row(built_site, edition_id):
    """Each row's rule link says the clause the engine cites for it and lands on the
    technique's item on that clause's page; its other-edition link lands on that row."""
    edition = load_edition(edition_id)
    here = f"rules/{edition_id}/techniques/"
    rows = dict(_rows(built_site.page(here)))
    cites = {f"technique-{t.id}": cells[0].verdict.cite for t, cells in chart(edition)}
    assert set(cites) == set(rows)
    wrong = []
    for anchor, links in rows.items():
        rule = links["lvl-row-rule"]
        target = urlsplit(urljoin(BASE + here, rule[0]))
        page = built_site.page(target.path.lstrip("/"))
        if rule[1] != f"§{cites[anchor]}" or target.fragment != anchor or anchor not in _ids(page):
            wrong.append((anchor, rule))
        if "lvl-row-other" in links:
            other = urlsplit(urljoin(BASE + here, links["lvl-row-other"][0]))
            if other.fragment != anchor or anchor not in _ids(built_site.page(other.path[1:])):
                wrong.append((anchor, links["lvl-row-other"]))
    assert [] == wrong
    assert all("lvl-row-other" in links for links in rows.values())


def _rows(html: str) -> list[tuple[str, dict[str, tuple[str, str]]]]:
    return [
        (found[1], {kind: (href, text) for kind, href, text in HREF.findall(found[0])})
        for found in ROW.finditer(html)
    ]


@pytest.mark.browser
def test_switching_edition_on_a_row_lands_on_that_row_below_its_notice(chromium, site_url):
    """At 390x844, from a row of the chart in force, "In Edition N" opens the older chart
    on the same row, marked, on screen, with the notice "This is the chart of Edition N"
    in view above it."""
    older = load_edition(OLDER)
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{IN_FORCE}/techniques/#technique-slam")
        page.wait_for_function(THEME_READY)
        link = page.locator("#technique-slam a.lvl-row-other")
        landed = f"rules/{OLDER}/techniques/#technique-slam"
        _lands_below_notice(page, link, landed, f"This is the chart of {older.title}")
    finally:
        context.close()


@pytest.mark.browser
def test_switching_edition_on_a_clause_lands_on_that_clause_below_its_notice(chromium, site_url):
    """From §7.2.3 in force, its link to the older edition lands on §7.2.3 there, marked,
    with the notice "This is Edition N" in view."""
    older = load_edition(OLDER)
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{IN_FORCE}/7/#7.2.3")
        page.wait_for_function(THEME_READY)
        tools = page.locator('[id="7.2.3"] + .lvl-clause-tools')
        link = tools.locator("a", has_text=f"{older.title}: §7.2.3")
        _lands_below_notice(page, link, f"rules/{OLDER}/7/#7.2.3", f"This is {older.title}.")
    finally:
        context.close()


@pytest.mark.browser
def test_a_rows_rule_link_lands_on_its_item_in_the_clause(chromium, site_url):
    """A row's "§1" opens section 1 on that technique's item, marked, on screen."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{IN_FORCE}/techniques/#technique-heel-hook")
        page.wait_for_function(THEME_READY)
        page.locator("#technique-heel-hook a.lvl-row-rule").tap()
        page.wait_for_url("**#technique-heel-hook")
        item = page.locator("li:has(#technique-heel-hook)")
        expect(item).to_have_class(LANDED)
        page.wait_for_function(
            "(s) => { const b = document.querySelector(s).getBoundingClientRect();"
            " return b.top >= 0 && b.top < innerHeight; }",
            arg="#technique-heel-hook",
        )
    finally:
        context.close()


@pytest.mark.browser
def test_switching_back_lands_on_the_row_below_the_edition_in_forces_line(chromium, site_url):
    """From a row of the older chart, "In Edition N" opens the chart in force on that row,
    marked, with the line naming the edition in force in view above it."""
    in_force = load_edition(IN_FORCE)
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{OLDER}/techniques/#technique-knee-bar")
        page.wait_for_function(THEME_READY)
        page.locator("#technique-knee-bar a.lvl-row-other").tap()
        page.wait_for_url(f"**/rules/{IN_FORCE}/techniques/#technique-knee-bar")
        expect(page.locator("#technique-knee-bar")).to_have_class(LANDED)
        line = page.locator("article > .lvl-edition")
        expect(line).to_contain_text(in_force.title)
        page.wait_for_function(
            "() => { const line = document.querySelector('article > .lvl-edition')"
            ".getBoundingClientRect(); const row = document.getElementById("
            "'technique-knee-bar').getBoundingClientRect();"
            " return row.top >= line.bottom - 1 && row.top < innerHeight; }"
        )
        assert line.evaluate(ON_SCREEN)
    finally:
        context.close()
