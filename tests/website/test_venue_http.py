"""Plain http on a venue's network (`make serve HOST=0.0.0.0`, phones opening
http://192.168.x.y:8000/): the browser withholds what needs a secure context (the service
worker, the share sheet, the clipboard). Every page still works and says plainly what is
unavailable: the offline region that keeping needs an https address, each share button
that copying is unavailable, showing the link to select instead.

On loopback only: a Chromium of its own maps the name venue.test to 127.0.0.1, so the
pages are at http://venue.test:PORT/ (no secure context, as at a venue) while every byte
goes to this machine's test server."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from deploys import section_of_each_edition
from offline_page import build_of
from playwright.sync_api import expect

from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from lvl_rules import resolve_edition
from lvl_rules.faces.site import offline_words
from lvl_rules.words.match import PAGE as MATCH_PAGE
from lvl_rules.words.my_division import PAGE as MY_DIVISION
from lvl_rules.words.site import CITATION_SHARE

pytestmark = pytest.mark.browser

VENUE = "venue.test"
ENGINE_MS = 60_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
UNAVAILABLE = "[data-lvl-offline-unavailable]"


@pytest.fixture(scope="module")
def venue_browser(chromium):
    """A Chromium that resolves venue.test to 127.0.0.1 (and nothing else differently)."""
    browser = chromium.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[*LAUNCH_ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"],
    )
    yield browser
    browser.close()


@pytest.fixture
def venue(venue_browser, site_url):
    """A phone's browser context and the site's address on the venue's network; no console
    error and no request elsewhere by the end."""
    base = f"http://{VENUE}:{urlsplit(site_url).port}/"
    context = venue_browser.new_context(**PHONE)
    errors: list[str] = []
    foreign: list[str] = []
    context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    context.on("weberror", lambda e: errors.append(str(e.error)))
    context.on(
        "request",
        lambda r: None if r.url.startswith((base, "data:", "blob:")) else foreign.append(r.url),
    )
    yield context, base
    context.close()
    assert ([], []) == (errors, foreign)


def division_query() -> str:
    return f"edition={resolve_edition('latest')}&age=30&belt=blue&uniform=gi"


def says_offline_is_unavailable(page) -> None:
    assert page.evaluate("() => window.isSecureContext") is False
    assert page.evaluate("() => 'serviceWorker' in navigator") is False
    expect(page.locator(UNAVAILABLE)).to_have_text(offline_words.UNAVAILABLE)
    expect(page.locator("[data-lvl-offline-keep]")).to_be_hidden()


def shows_the_link(page, button, words: str, url: str) -> None:
    """The share button says copying is unavailable; a tap shows ``url``, selected."""
    expect(button).to_have_text(words)
    button.tap()
    link = page.locator(".lvl-share-address").first
    expect(link).to_have_text(url)
    assert url == link.get_attribute("href")
    assert url == page.evaluate("() => getSelection().toString()")


def test_a_rule_page_works_and_says_what_is_unavailable(venue, built_site):
    """A rule page answers, says offline keeping needs https, and a citation's button says
    copying is unavailable and shows the citation's link to select."""
    context, base = venue
    page = context.new_page()
    rule_page = section_of_each_edition(build_of(built_site.site)["files"])[-1]
    response = page.goto(base + rule_page)
    assert 200 == response.status
    assert page.title().startswith("§")
    says_offline_is_unavailable(page)
    button = page.locator("button.lvl-copy").first
    cite = button.get_attribute("data-href")
    shows_the_link(
        page,
        button,
        CITATION_SHARE["unavailable"],
        page.evaluate("(href) => new URL(href, document.baseURI).href", cite),
    )


def test_my_division_answers_and_its_link_is_shown(venue):
    """My division answers from the page and its share button shows the answer's link: its
    own address (/lookup/<division>/) with the form's fields."""
    context, base = venue
    page = context.new_page()
    page.goto(f"{base}lookup/?{division_query()}")
    page.wait_for_selector("#lookup-results:not([hidden])")
    says_offline_is_unavailable(page)
    button = page.locator("#lookup-share")
    expect(button).to_have_text(MY_DIVISION["unavailable"])
    button.tap()
    url = page.locator(".lvl-share-address").first.get_attribute("href") or ""
    assert re.fullmatch(rf"{re.escape(base)}lookup/[a-z0-9-]+/\?.+", url)
    assert dict(parse_qsl(division_query())) == dict(parse_qsl(urlsplit(url).query))
    shows_the_link(page, button, MY_DIVISION["unavailable"], url)


def test_the_calculator_scores_and_its_link_is_shown(venue):
    """The calculator's engine starts and scores over plain http, and its share button
    shows the match's link."""
    context, base = venue
    page = context.new_page()
    page.goto(f"{base}calculator/?{division_query()}")
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    page.locator('.lvl-half[data-half="A"]').get_by_role(
        "button", name="Guard pass, 3 points,"
    ).click()
    expect(page.locator('[data-athlete="A"]')).to_have_attribute(
        "data-points", "3", timeout=ENGINE_MS
    )
    says_offline_is_unavailable(page)
    shows_the_link(
        page, page.locator("#calc-share-button"), MATCH_PAGE["share_unavailable"], page.url
    )
