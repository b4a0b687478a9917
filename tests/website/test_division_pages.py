"""Each answer of My division at its own address (/lookup/<division>/, issue 40): a page
that carries the division's title, a one-line summary and a small picture of its answer,
read without running a script (what a messenger's link preview reads), and that opens
the answer in My division; its poster. And the answer's first screen on a phone: what
the athlete may do first, and only the fouls of their uniform.

LVL_SHOTS=<folder> keeps phone screenshots of the first screens and a link-preview card
drawn from a division page's tags, to look at.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urljoin

import pytest

from build_scripts.pages.division_pages import PREVIEW, PREVIEW_SIZE, divisions, title
from lvl_rules import load_all, load_edition, timeline
from lvl_rules.faces.my_division import answer, table
from lvl_rules.words.my_division import division_summary

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
IN_FORCE = timeline().in_force()
RESULTS = "#lookup-results:not([hidden])"
TAG = re.compile(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"')
SHOTS = Path(os.environ["LVL_SHOTS"]) if os.environ.get("LVL_SHOTS") else None
FIFTEEN = {"edition": IN_FORCE, "age": "15", "uniform": "nogi"}
NINE = {"edition": IN_FORCE, "age": "9", "uniform": "gi"}
LEAD = "You may use everything the chart does not restrict, such as the "


def tags(page: str) -> dict[str, str]:
    """A page's <meta> name or property -> content (unescaped)."""
    return {name: html.unescape(content) for name, content in TAG.findall(page)}


def keep(page, name: str) -> None:
    """A screenshot of what the page shows, where LVL_SHOTS asks for them."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name))


@pytest.fixture(scope="module")
def every_division():
    """Every distinct answer of the rules table, with its edition."""
    editions = load_all()
    by_id = {edition.id: edition for edition in editions}
    return [(by_id[d.edition], d) for d in divisions(editions, table(editions))]


def division_for(every_division, fields: dict):
    """The division whose answer a form gets."""
    found = answer(fields)["placement"]["answer"]
    return next(
        (e, d) for e, d in every_division
        if d.edition == fields["edition"] and d.answer == found and d.uniform == fields["uniform"]
    )  # fmt: skip


def gi_only_fouls(edition) -> dict[str, str]:
    """The fouls the data makes fouls in Gi only, by ID: their names."""
    return {
        foul.id: foul.name
        for foul in edition.fouls.values()
        if foul.only_for and all(c.uniforms == ("gi",) for c in foul.only_for)
    }


def test_every_answer_has_its_page_picture_and_poster(built_site, every_division):
    """One page per distinct answer, each with its own title and summary in its tags, its
    picture (a small PNG of 600x315) and its poster; no two share an address."""
    site = built_site.site
    folders = {p.parent.name for p in (site / "lookup").glob("*/index.html")}
    assert len(every_division) == len(folders)
    for edition, division in every_division:
        folder = site / "lookup" / division.slug
        found = tags((folder / "index.html").read_text("utf-8"))
        assert title(edition, division) == found["og:title"]
        assert division_summary(edition, division.answer) == found["og:description"]
        assert found["description"] == found["og:description"]
        assert PREVIEW == found["og:image"]  # relative: the tests' build has no public address
        picture = (folder / PREVIEW).read_bytes()
        assert picture.startswith(b"\x89PNG\r\n\x1a\n")
        size = int.from_bytes(picture[16:20], "big"), int.from_bytes(picture[20:24], "big")
        assert PREVIEW_SIZE == size
        assert len(picture) < 60_000
        assert (folder / "poster-a4.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.browser
def test_a_division_address_without_scripts(chromium, site_url, every_division):
    """A shared answer's address, opened with scripts off (as a link preview reads it):
    the division's own title, description and picture, the answer at a glance (what the
    athlete may do first, marked as our reading), and a link to the whole answer; it stays
    there. A card drawn from its tags (as a messenger draws one) shows the division."""
    edition, division = division_for(every_division, FIFTEEN)
    address = f"{site_url}lookup/{division.slug}/"
    context = chromium.new_context(java_script_enabled=False, **PHONE)
    try:
        page = context.new_page()
        response = page.goto(address)
        assert 200 == response.status
        text = response.text()
        assert address == page.url
    finally:
        context.close()
    assert f"<title>{html.escape(title(edition, division))}</title>" in text
    found = tags(text)
    assert title(edition, division) == found["og:title"]
    assert division_summary(edition, division.answer) == found["og:description"]
    main = html.unescape(text[text.index("<main>") :])
    first = re.search(r'<ul class="may"><li>(.*?)</li>', main).group(1)
    assert first.startswith(LEAD + "armbar")
    assert "Our reading:" in first
    for name in gi_only_fouls(edition).values():
        assert name not in main
    link = re.search(r'<a id="lvl-open-answer" href="([^"]+)">', text).group(1)
    target = urljoin(address, html.unescape(link))
    assert target.startswith(f"{site_url}lookup/?")
    assert division.params == dict(parse_qsl(target.split("?", 1)[1]))
    context = chromium.new_context(viewport={"width": 420, "height": 380})
    try:
        card = context.new_page()
        picture = card.request.get(urljoin(address, found["og:image"]))
        assert 200 == picture.status
        assert "image/png" == picture.headers["content-type"]
        card.set_content(
            '<div style="font:14px system-ui,sans-serif;border:1px solid #ccc;'
            'border-radius:10px;overflow:hidden;width:400px;margin:8px">'
            f'<img src="{urljoin(address, found["og:image"])}" width="400" height="210" '
            'style="display:block">'
            f'<div style="padding:8px"><b>{html.escape(found["og:title"])}</b>'
            f'<div style="color:#555">{html.escape(found["og:description"])}</div>'
            f'<div style="color:#888">{html.escape(site_url)}</div></div></div>'
        )
        card.wait_for_function("() => document.images[0].complete")
        assert PREVIEW_SIZE[0] == card.evaluate("() => document.images[0].naturalWidth")
        keep(card, "link-preview-card.png")
    finally:
        context.close()


@pytest.mark.browser
def test_a_division_address_opens_its_answer(chromium, site_url, every_division):
    """The address alone opens My division with its answer (the youngest athlete who gets
    it); with a form's fields as its query, with those fields."""
    _, division = division_for(every_division, FIFTEEN)
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{site_url}lookup/{division.slug}/")
        asked = page.wait_for_selector(f"{RESULTS}[data-query]").get_attribute("data-query")
        assert division.params == dict(parse_qsl(asked))
        assert page.url.startswith(f"{site_url}lookup/?")
        query = urlencode(FIFTEEN)
        page.goto(f"{site_url}lookup/{division.slug}/?{query}")
        page.wait_for_selector(f'{RESULTS}[data-query="{query}"]')
        assert f"{site_url}lookup/?{query}" == page.url
    finally:
        context.close()


def first_screen(chromium, site_url, fields: dict):
    """A phone that asked My division about an athlete by the form: the answer's first
    screen."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{site_url}lookup/?edition={fields['edition']}")
    page.wait_for_selector("#lookup-form[data-ready]")
    form = page.locator("#lookup-form")
    form.get_by_label("Age", exact=True).fill(fields["age"])
    form.get_by_label("No-Gi" if fields["uniform"] == "nogi" else "Gi", exact=True).check()
    page.get_by_role("button", name="Show my division").click()
    page.wait_for_selector(RESULTS)
    page.wait_for_function(
        "() => document.querySelector('#lookup-results').getBoundingClientRect().top < 100"
    )
    return context, page


def on_screen(page, selector: str) -> bool:
    """Whether an element is wholly within the phone's screen."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


@pytest.mark.browser
def test_a_9_year_olds_first_screen_leads_with_what_she_may_do(chromium, site_url):
    """A 9-year-old in Gi: the answer's first screen opens with what she may do, naming
    techniques the chart leaves to everyone (from the data), then what she may not and
    when that changes; no "0 of N" headline."""
    edition = load_edition(IN_FORCE)
    context, page = first_screen(chromium, site_url, NINE)
    try:
        may = page.locator("#lookup-may li").first
        named = [t.name for t in edition.unlisted.values() if t.worn_in("gi")]
        said = may.inner_text()
        assert said.startswith(LEAD)
        assert all(name in said for name in named)
        assert on_screen(page, "#lookup-may")
        may_top = page.locator("#lookup-may").bounding_box()["y"]
        assert may_top < page.locator("#lookup-not-yet").bounding_box()["y"]
        assert on_screen(page, "#lookup-not-yet li:first-child")
        glance = page.locator("#lookup-glance").inner_text()
        assert not re.search(r"\d+ of the \d+ techniques", glance)
        keep(page, "nine-year-old-first-screen.png")
    finally:
        context.close()


@pytest.mark.browser
def test_a_15_year_old_in_no_gi_is_shown_no_gi_only_foul(chromium, site_url):
    """A 15-year-old in No-Gi: no foul that needs a gi among the disqualifying ones or the
    fouls listed; those of both uniforms are there."""
    edition = load_edition(IN_FORCE)
    context, page = first_screen(chromium, site_url, FIFTEEN)
    try:
        assert on_screen(page, "#lookup-may")
        keep(page, "fifteen-year-old-no-gi-first-screen.png")
        page.locator("#lookup-disqualifies details summary").click()
        page.locator("#lookup-fouls-box > summary").click()
        shown = page.locator("#lookup-disqualifies").inner_text()
        shown += page.locator("#lookup-fouls").inner_text()
        assert "No undergarment" in shown
        assert "Gripping clothing in No-Gi" in shown
        for name in gi_only_fouls(edition).values():
            assert name not in shown
    finally:
        context.close()
