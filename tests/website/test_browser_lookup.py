"""The lookup page in Chromium: the same answers as the engine, by form and by URL."""

from __future__ import annotations

import pytest
from engine_page import engine_when_ready

import lvl_rules
from lvl_rules import check_all, division

pytestmark = pytest.mark.browser

ENGINE_SECONDS = 60_000  # generous: a cold start on a loaded 2-core CI machine


def rows(page) -> dict[str, bool]:
    page.wait_for_selector("#lookup-rows tr[data-technique]", timeout=ENGINE_SECONDS)
    return {
        row.get_attribute("data-technique"): row.get_attribute("data-legal") == "true"
        for row in page.query_selector_all("#lookup-rows tr[data-technique]")
    }


def expected(**fields) -> dict[str, bool]:
    return {a.technique.id: a.legal for a in check_all(division(**fields))}


CASES = [
    ({"edition": "2", "age": 14, "belt": "white", "uniform": "gi", "experience": ["wrestling"]},
     "edition=2&age=14&belt=white&uniform=gi&experience=wrestling"),
    ({"edition": "2", "age": 30, "belt": "white", "uniform": "nogi", "experience": ["mma"]},
     "edition=2&age=30&belt=white&uniform=nogi&experience=mma"),
    ({"edition": "2", "age": 40, "belt": "brown", "uniform": "nogi"},
     "edition=2&age=40&belt=brown&uniform=nogi"),
    ({"edition": "1", "age": 30, "lvl": 3, "uniform": "gi"}, "edition=1&age=30&lvl=3&uniform=gi"),
    ({"edition": "1", "age": 15, "lvl": 4, "uniform": "nogi"},
     "edition=1&age=15&lvl=4&uniform=nogi"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "query"), CASES)
def test_lookup_from_the_url(visit, site_url, fields, query):
    """A shared link reproduces the answer: every row equals the engine's answer."""
    page = visit().page
    page.goto(f"{site_url}lookup/?{query}")
    answer = expected(**fields)
    assert answer == rows(page)
    legal = sum(answer.values())
    verb = "is" if legal == 1 else "are"
    counts = f"{legal} of the {len(answer)} techniques in the chart {verb} legal."
    assert counts in page.locator("#lookup-summary").inner_text()


def test_lookup_by_the_form(visit, site_url):
    """Filling the labelled form and pressing the button gives the engine's answers."""
    page = visit().page
    page.goto(f"{site_url}lookup/")
    page.locator("#lookup-form").get_by_label("Edition", exact=True).select_option("1")
    page.locator("#lookup-form").get_by_label("Age", exact=True).fill("18")
    page.locator("#lookup-form").get_by_label("LVL", exact=True).select_option("2")
    page.locator("#lookup-form").get_by_label("No-Gi", exact=True).check()
    page.get_by_role("button", name="Check techniques").click()
    assert expected(edition="1", age=18, lvl=2, uniform="nogi") == rows(page)
    assert "edition=1&age=18&lvl=2&uniform=nogi" in page.url  # the link now reproduces it
    page.locator("#lookup-form").get_by_label("Edition", exact=True).select_option("2")
    page.locator("#lookup-form").get_by_label("Belt", exact=True).select_option("purple")
    page.get_by_role("button", name="Check techniques").click()
    page.wait_for_function(
        "() => document.querySelector('#lookup-summary').textContent.includes('purple')"
    )
    assert expected(edition="2", age=18, belt="purple", uniform="nogi") == rows(page)


def test_each_row_cites_its_clause(visit, site_url):
    """Each answer links to the permalink of the clause it comes from."""
    page = visit().page
    page.goto(f"{site_url}lookup/?edition=2&age=30&belt=purple&uniform=nogi")
    rows(page)
    link = page.locator('#lookup-rows tr[data-technique="heel-hook"] a')
    assert "§1" == link.inner_text()
    assert link.get_attribute("href").endswith("/cite/2/1/")


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("edition=2&age=abc&uniform=gi", "age", "whole number of years from 4 to 120"),
        ("edition=2&age=12&belt=blue&uniform=gi", "belt", "does not exist at age 12"),
        ("edition=1&age=30&uniform=gi", "lvl", "lvl is required from age 16"),
        ("edition=2&age=30&belt=bogus&uniform=gi", "belt", "allowed: white"),
    ],
)
def test_bad_input_shows_the_engines_message(visit, site_url, query, field, words):
    """Bad input in the URL: a clear message, the field marked, and the page still works."""
    page = visit().page
    page.goto(f"{site_url}lookup/?{query}")
    error = page.locator("#lookup-error")
    error.wait_for(state="visible", timeout=ENGINE_SECONDS)
    assert words in error.inner_text()
    assert "true" == page.locator(f'#lookup-form [name="{field}"]:enabled').get_attribute(
        "aria-invalid"
    )
    page.locator("#lookup-form").get_by_label("Edition", exact=True).select_option("2")
    page.locator("#lookup-form").get_by_label("Age", exact=True).fill("10")
    page.locator("#lookup-form").get_by_label("Belt", exact=True).select_option("grey")
    page.get_by_role("button", name="Check techniques").click()
    assert expected(edition="2", age=10, belt="grey", uniform="gi") == rows(page)
    assert error.is_hidden()


def test_who_may_use_a_technique(visit, site_url):
    """'Who may use' names the divisions where the engine says a technique is legal."""
    page = visit().page
    page.goto(f"{site_url}lookup/?edition=2&technique=heel-hook")
    result = page.locator("#divisions-result p")
    result.wait_for(timeout=ENGINE_SECONDS)
    assert "Adults, brown and black belts (No-Gi)" in result.inner_text()


def test_engine_boots_from_its_snapshot(visit, site_url):
    """Once the engine is kept offline (here by "keep everything"), it restores the
    build's memory snapshot, the fast start, rather than starting Python afresh, which
    would still answer, only slowly. Pyodide's private _loadSnapshot/_makeSnapshot are the
    one private part the worker keeps: this fails loudly when an upgrade breaks them."""
    page = visit().page
    page.goto(site_url)
    page.wait_for_selector("[data-lvl-offline~='page']", state="attached", timeout=ENGINE_SECONDS)
    page.locator("[data-lvl-offline-keep-all]").click()
    page.wait_for_selector(
        "[data-lvl-offline~='everything']", state="attached", timeout=ENGINE_SECONDS
    )
    page.goto(f"{site_url}lookup/?edition=2&age=30&belt=purple&uniform=nogi")
    rows(page)
    versions = engine_when_ready(page)["versions"]
    assert versions["snapshot"] == "used"
    assert versions["lvl_rules"] == lvl_rules.__version__
