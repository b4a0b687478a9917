"""Share: the phone's share sheet where the browser has one, the clipboard otherwise, on
citations and My division (docs/assets/app/share.js, its words from lvl_rules/words/).
My division shares its answer's own address (/lookup/<division>/, with the form's fields),
copies that address alone, and links its division's poster."""

from __future__ import annotations

import functools
import io
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader
from timeline_names import EDITIONS, IN_FORCE, TITLE

from build_scripts.pages.division_pages import addresses, divisions
from lvl_rules import load_all, load_edition
from lvl_rules.faces.my_division import answer, placement_text, table
from lvl_rules.words.my_division import PAGE
from lvl_rules.words.site import CITATION_SHARE

SHARE_TESTS = Path(__file__).resolve().parents[1] / "share" / "share.test.mjs"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# A share sheet, as a phone's browser has one: what it was given is kept for the test.
SHARE_SHEET = """
Object.defineProperty(navigator, "share", { value: async (data) => { window.lvlShared = data; } });
Object.defineProperty(navigator, "canShare", { value: () => true });
"""
LOOKUP_FIELDS = {"edition": IN_FORCE, "age": "15", "uniform": "nogi"}
LOOKUP_QUERY = urlencode(LOOKUP_FIELDS)
LOOKUP = f"lookup/?{LOOKUP_QUERY}"


@functools.cache
def _divisions() -> tuple[dict[str, dict], tuple]:
    """Each answer's division as the lookup page shares it (the build's words, from the
    rules table), with the table."""
    editions = load_all()
    answers = table(editions)
    return addresses(editions, divisions(editions, answers)), answers


def division_of(fields: dict) -> dict:
    """The division (path, title, summary) the lookup page shares for a form."""
    shared, answers = _divisions()
    found = answer(fields)
    text = placement_text(found["placement"])
    index = next(n for n, p in enumerate(answers["placements"]) if placement_text(p) == text)
    return shared["divisions"][shared["by"][str(index)]]


def test_share_under_nodes_test_runner():
    """share.js's choices (sheet, copy, cancelled, failed) and its button's words:
    tests/share/share.test.mjs."""
    done = subprocess.run(
        ["node", "--test", str(SHARE_TESTS)], capture_output=True, text=True, check=False
    )
    assert 0 == done.returncode, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
    assert "# pass 10" in done.stdout


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
    """My division's answer goes to the share sheet with its division's title, a one-line
    summary (what the athlete may do first) and its own address, which holds the form's
    fields."""
    phone.add_init_script(SHARE_SHEET)
    page = phone.new_page()
    page.goto(site_url + LOOKUP)
    button = page.locator("#lookup-share")
    expect(button).to_have_text(PAGE["share_label"])
    button.tap()
    page.wait_for_function("() => window.lvlShared")
    shared = page.evaluate("() => window.lvlShared")
    division = division_of(LOOKUP_FIELDS)
    assert f"{site_url}{division['path']}?{LOOKUP_QUERY}" == shared["url"]
    assert division["title"] == shared["title"]
    assert shared["title"].startswith(PAGE["title"] + ": ")
    assert "No-Gi" in shared["title"]
    assert division["summary"] == shared["text"]
    lead = "You may use everything the chart does not restrict, such as the armbar"
    assert shared["text"].startswith(lead)


@pytest.mark.browser
def test_my_division_copies_its_link(phone, site_url):
    """Without a share sheet, My division copies the link to its answer and nothing else:
    the division's address, which pasted into an address bar opens the same answer."""
    page = phone.new_page()
    page.goto(site_url + LOOKUP)
    button = page.locator("#lookup-share")
    expect(button).to_have_text(PAGE["copy_label"])
    button.tap()
    expect(button).to_have_text(PAGE["copied"])
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert f"{site_url}{division_of(LOOKUP_FIELDS)['path']}?{LOOKUP_QUERY}" == copied
    pasted = phone.new_page()
    pasted.goto(copied)
    pasted.wait_for_selector(f'#lookup-results:not([hidden])[data-query="{LOOKUP_QUERY}"]')
    assert f"{site_url}lookup/?{LOOKUP_QUERY}" == pasted.url


@pytest.mark.browser
@pytest.mark.parametrize("edition", EDITIONS)
def test_my_division_links_the_poster_of_its_division(phone, site_url, edition):
    """The answer's poster link is its division's poster (not the whole chart), one A4
    page titled with the division, and it is there."""
    page = phone.new_page()
    rules = load_edition(edition)
    highest = [rank for rank in rules.ranks.values() if rank.min_age <= 30 <= rank.max_age][-1]
    fields = {"edition": edition, "age": "30", "uniform": "gi"}
    fields[rules.eligibility.axis] = highest.id  # the longest answer: still one page
    query = urlencode(fields)
    page.goto(f"{site_url}lookup/?{query}")
    link = page.locator("#lookup-poster")
    expect(link).to_have_text(PAGE["poster"])
    division = division_of(fields)
    expect(link).to_have_attribute("href", f"{site_url}{division['path']}poster-a4.pdf")
    response = page.request.get(link.get_attribute("href") or "")
    assert 200 == response.status
    assert "application/pdf" == response.headers["content-type"]
    poster = PdfReader(io.BytesIO(response.body()))
    assert 1 == len(poster.pages)
    assert division["title"] in " ".join(poster.pages[0].extract_text().split())


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
