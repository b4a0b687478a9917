"""The fixture's third edition (tests/fixture_editions/: a draft amending the edition in
force, never published) through the whole site in Chromium, on a phone: one build of the
site with it (LVL_RULES_MORE_EDITIONS), shared by every test here.

My division answers an adult in every edition, whatever rank axis it goes by, by the form
and by the address; the calculator records a match in every edition (the engine in the
page knows the draft too); the draft's rule pages carry its banner; the changes page has
no axe violation with three editions and says what the draft would change, division by
division; and where the engine cannot start, the calculator links the chart of the
edition chosen (issue 37).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from test_accessibility import SETTLED, STYLED, THEME_READY, violations
from test_engine_delivery import not_webassembly
from timeline_names import EDITIONS, IN_FORCE

from build_scripts.publish.host_files import write_host_files
from build_scripts.tools.serve import start_server, stop_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixture_editions"
DRAFT = next(entry.name for entry in FIXTURES.iterdir() if entry.is_dir())
EVERY = (*EDITIONS, DRAFT)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ENGINE_MS = 120_000
ADULT = "30"


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with the fixture editions, as `make site` builds it but for the PDFs:
    MkDocs (the pages and the engine), then the host files (the service worker...)."""
    out = tmp_path_factory.mktemp("fixture-site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "LVL_RULES_MORE_EDITIONS": str(FIXTURES)}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert 0 == done.returncode, done.stdout + done.stderr
    write_host_files(out)
    return out


@pytest.fixture(scope="module")
def fixture_url(fixture_site):
    server, url = start_server(fixture_site)
    yield url
    stop_server(server)


@pytest.fixture
def phone(chromium):
    """A phone; no console error and no request elsewhere by the end of the test."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    yield page
    context.close()


def lookup_table(site: Path) -> dict:
    """My division's rules table, as the build wrote it into the page."""
    html = (site / "lookup" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="lookup-table">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


def an_adult(site: Path, edition: str) -> tuple[str, str]:
    """The rank field of an edition, and a rank an adult may have in it (the first one
    the form offers at 30: each option says the ages it exists for)."""
    axis = lookup_table(site)["editions"][edition]["field"]
    html = (site / "lookup" / "index.html").read_text(encoding="utf-8")
    select = re.search(rf'<select id="lookup-{axis}".*?</select>', html, re.S)
    assert select, f"no {axis} field"
    for value, low, high in re.findall(
        r'<option value="([^"]+)" data-min-age="(\d+)" data-max-age="(\d+)"', select.group(0)
    ):
        if int(low) <= int(ADULT) <= int(high):
            return axis, value
    raise AssertionError(f"no {axis} of an adult")


def test_the_draft_is_on_the_timeline_of_the_built_site(fixture_site):
    """The table knows every edition, the draft among them, and not as the one in force."""
    table = lookup_table(fixture_site)
    assert set(EVERY) == set(table["editions"])
    assert IN_FORCE == table["latest"]


@pytest.mark.parametrize("edition", EVERY)
def test_my_division_answers_an_adult_by_the_form(phone, fixture_site, fixture_url, edition):
    """Edition chosen, age 30 typed, the edition's own rank field (LVL or belt) chosen:
    the answer, for that edition; no field said to be wrong."""
    axis, rank = an_adult(fixture_site, edition)
    phone.goto(f"{fixture_url}lookup/")
    phone.wait_for_selector("#lookup-form[data-ready]")
    form = phone.locator("#lookup-form")
    form.get_by_label("Edition", exact=True).select_option(edition)
    form.get_by_label("Age", exact=True).fill(ADULT)
    field = form.locator(f'select[name="{axis}"]')
    field.wait_for()
    assert 1 == form.locator("select:visible:not([name=edition])").count()  # its own only
    field.select_option(rank)
    phone.get_by_role("button", name="Show my division").click()
    phone.wait_for_selector(f'#lookup-results:not([hidden])[data-edition="{edition}"]')
    assert f"{axis}={rank}" in phone.locator("#lookup-results").get_attribute("data-query")
    assert 0 == phone.locator("#lookup-form [aria-invalid]").count()
    assert [] == phone.errors


@pytest.mark.parametrize("edition", EVERY)
def test_my_division_answers_an_adult_by_the_address(phone, fixture_site, fixture_url, edition):
    """The same question as a link: answered on opening."""
    axis, rank = an_adult(fixture_site, edition)
    query = f"edition={edition}&age={ADULT}&{axis}={rank}&uniform=gi"
    phone.goto(f"{fixture_url}lookup/?{query}")
    phone.wait_for_selector(f'#lookup-results:not([hidden])[data-edition="{edition}"]')
    answered = phone.locator("#lookup-results").get_attribute("data-query")
    assert sorted(query.split("&")) == sorted(answered.split("&"))
    assert 0 == phone.locator("#lookup-form [aria-invalid]").count()
    assert [] == phone.errors


@pytest.mark.parametrize("edition", EVERY)
def test_the_calculator_records_in_every_edition(phone, fixture_site, fixture_url, edition):
    """The calculator opened for an adult of the edition: the engine in the page takes the
    division and scores a guard pass."""
    axis, rank = an_adult(fixture_site, edition)
    phone.goto(f"{fixture_url}calculator/?edition={edition}&age={ADULT}&{axis}={rank}&uniform=gi")
    phone.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    assert edition == phone.locator("#calc-form [name=edition]").input_value()
    half = phone.locator('.lvl-half[data-half="A"]')
    half.get_by_role("button", name="Guard pass, 3 points,").click()
    phone.wait_for_function(
        """() => document.querySelectorAll('#calc-log li[data-event]').length === 1
          && document.querySelector('#calc-board').dataset.settled === 'true'"""
    )
    assert 0 == phone.locator("#calc-form [aria-invalid]").count()
    assert [] == phone.errors


@pytest.mark.parametrize("edition", EVERY)
def test_the_calculator_links_the_chart_of_the_edition_chosen(chromium, fixture_url, edition):
    """The engine cannot start (its WebAssembly is not): the link to read the chart
    instead is the chart of the edition the address names (issue 37: the latest's)."""
    context = chromium.new_context()
    try:
        not_webassembly(context)
        page = context.new_page()
        page.goto(f"{fixture_url}calculator/?edition={edition}")
        failed = page.locator("[data-engine-failed]")
        failed.wait_for(state="visible", timeout=ENGINE_MS)
        links = failed.get_by_role("link", name="technique chart")
        assert 1 == links.count()  # the other editions' are hidden
        assert links.first.get_attribute("href").endswith(f"rules/{edition}/techniques/")
    finally:
        context.close()


def test_the_drafts_rule_page_carries_its_banner(phone, fixture_url):
    """The draft's rule page opens with its banner; an in-force page has none."""
    phone.goto(f"{fixture_url}rules/{DRAFT}/1/")
    banner = phone.get_by_text(f"Edition {DRAFT} is a draft, not in force")
    assert banner.first.is_visible()
    phone.goto(f"{fixture_url}rules/{IN_FORCE}/1/")
    assert 0 == phone.get_by_text("is a draft, not in force").count()


def test_the_changes_page_has_no_axe_violation(phone, fixture_url):
    """/rules/changes/ with three editions: axe finds nothing (each edition's chart changes
    under its own heading: landmark-unique)."""
    phone.goto(f"{fixture_url}rules/changes/")
    phone.wait_for_function(THEME_READY)
    phone.evaluate(STYLED)  # as test_accessibility reads a page: every style worked out
    phone.wait_for_function(SETTLED)
    assert [] == violations(Axe(), phone)


def test_what_the_draft_would_change_for_you(phone, fixture_url):
    """The draft's part of the changes page: each division whose answer would change, to
    open and read, with a link to My division asking for it in the draft."""
    phone.goto(f"{fixture_url}rules/changes/#e{DRAFT}-for-you")
    part = phone.locator(f"#e{DRAFT}-for-you ~ details.lvl-for-you").first
    part.locator("summary").click()
    said = part.inner_text()
    assert "ages 13-15" in said
    assert "would be illegal" in said
    link = part.get_by_role("link")
    link.click()
    phone.wait_for_selector(f'#lookup-results:not([hidden])[data-edition="{DRAFT}"]')
