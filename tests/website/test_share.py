"""Share: the phone's share sheet where the browser has one, the clipboard otherwise, on
citations and My division (docs/assets/app/share.js, its words from lvl_rules/words/);
My division links the poster of the edition it answers for."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect
from timeline_names import AMENDMENT, FULL, IN_FORCE, TITLE

from lvl_rules.words.my_division import PAGE
from lvl_rules.words.site import CITATION_SHARE

SHARE_TESTS = Path(__file__).resolve().parents[1] / "share" / "share.test.mjs"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# A share sheet, as a phone's browser has one: what it was given is kept for the test.
SHARE_SHEET = """
Object.defineProperty(navigator, "share", { value: async (data) => { window.lvlShared = data; } });
Object.defineProperty(navigator, "canShare", { value: () => true });
"""
LOOKUP = f"lookup/?edition={IN_FORCE}&age=30&belt=blue&uniform=nogi"


def test_share_under_nodes_test_runner():
    """share.js's choices (sheet, copy, cancelled, failed) and its button's words:
    tests/share/share.test.mjs."""
    done = subprocess.run(
        ["node", "--test", str(SHARE_TESTS)], capture_output=True, text=True, check=False
    )
    assert 0 == done.returncode, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
    assert "# pass 8" in done.stdout


@pytest.fixture
def phone(chromium, site_url):
    """A phone's browser (no share sheet in Chromium on Linux), allowed the clipboard."""
    context = chromium.new_context(**PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url[:-1])
    yield context
    context.close()


@pytest.mark.browser
def test_a_citation_is_copied_without_a_share_sheet(phone, site_url):
    """The citation button says "Copy citation", copies "citation — permalink" and says
    so."""
    page = phone.new_page()
    page.goto(f"{site_url}rules/{IN_FORCE}/5/")
    button = page.locator("#\\35 \\.4 ~ .lvl-clause-tools button.lvl-copy").first
    expect(button).to_have_text(CITATION_SHARE["copy-label"])
    button.tap()
    expect(button).to_have_text(CITATION_SHARE["copied"])
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert f"LVL Rules, {TITLE[IN_FORCE]}, §5.4 — {site_url}cite/{IN_FORCE}/5.4/" == copied


@pytest.mark.browser
def test_a_citation_goes_to_the_share_sheet(phone, site_url):
    """Where the browser has a share sheet, the button says "Share citation" and gives it
    the citation and its permalink."""
    phone.add_init_script(SHARE_SHEET)
    page = phone.new_page()
    page.goto(f"{site_url}rules/{IN_FORCE}/5/")
    button = page.locator("#\\35 \\.4 ~ .lvl-clause-tools button.lvl-copy").first
    expect(button).to_have_text(CITATION_SHARE["share-label"])
    button.tap()
    page.wait_for_function("() => window.lvlShared")
    shared = page.evaluate("() => window.lvlShared")
    assert {
        "url": f"{site_url}cite/{IN_FORCE}/5.4/",
        "title": f"LVL Rules, {TITLE[IN_FORCE]}, §5.4",
        "text": f"LVL Rules, {TITLE[IN_FORCE]}, §5.4",
    } == shared


@pytest.mark.browser
def test_my_division_shares_its_answer(phone, site_url):
    """My division's answer can be shared: its address (which holds the question) and the
    athlete in words."""
    phone.add_init_script(SHARE_SHEET)
    page = phone.new_page()
    page.goto(site_url + LOOKUP)
    button = page.locator("#lookup-share")
    expect(button).to_have_text(PAGE["share_label"])
    button.tap()
    page.wait_for_function("() => window.lvlShared")
    shared = page.evaluate("() => window.lvlShared")
    assert site_url + LOOKUP == shared["url"]
    assert PAGE["title"] == shared["title"]
    assert "30" in shared["text"]
    assert "No-Gi" in shared["text"]


@pytest.mark.browser
def test_my_division_copies_its_link(phone, site_url):
    """Without a share sheet, My division copies the link to its answer."""
    page = phone.new_page()
    page.goto(site_url + LOOKUP)
    button = page.locator("#lookup-share")
    expect(button).to_have_text(PAGE["copy_label"])
    button.tap()
    expect(button).to_have_text(PAGE["copied"])
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.endswith(f" — {site_url}{LOOKUP}")


@pytest.mark.browser
@pytest.mark.parametrize("edition", [FULL, AMENDMENT])
def test_my_division_links_the_poster_of_its_edition(phone, site_url, edition):
    """The answer's poster link is the chart poster of the edition it answers for, and
    the poster is there."""
    page = phone.new_page()
    query = "lvl=3" if edition == FULL else "belt=blue"
    page.goto(f"{site_url}lookup/?edition={edition}&age=30&{query}&uniform=gi")
    link = page.locator("#lookup-poster")
    expect(link).to_have_text(PAGE["poster"])
    expect(link).to_have_attribute("href", re.compile(rf"/data/{edition}-poster-a4\.pdf$"))
    response = page.request.get(link.get_attribute("href") or "")
    assert 200 == response.status
    assert "application/pdf" == response.headers["content-type"]


@pytest.mark.browser
def test_a_match_link_is_shared_with_its_match(phone, site_url):
    """The calculator's match link goes to the share sheet as it is at the tap: the match's
    id and every event recorded, the result in words."""
    from lvl_rules.faces.site import match_words

    phone.add_init_script(SHARE_SHEET)
    page = phone.new_page()
    page.goto(f"{site_url}calculator/?edition={IN_FORCE}&age=30&belt=blue&uniform=gi&name_a=Ana")
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=60_000)
    page.locator('.lvl-half[data-half="A"] [data-preset="score-mount"]').click()
    page.wait_for_selector("#calc-board[data-settled='true'] #calc-log li[data-event]")
    button = page.locator("#calc-share-button")
    expect(button).to_have_text(match_words.PAGE["share_label"])
    button.tap()
    page.wait_for_function("() => window.lvlShared")
    shared = page.evaluate("() => window.lvlShared")
    assert "match=" in shared["url"]
    assert "mount" in shared["url"]
    assert "name_a=Ana" in shared["url"]
    assert "The match is under way." == shared["text"]
