"""Material's search works on the pages that run the engine and on rule pages. (Its worker
is no longer held back: benchmarks/site_variants.py search-later measures what that was
worth, see the README.)"""

from __future__ import annotations

import pytest
from search_box import top_result_mentions

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000  # generous: a cold start on a loaded 2-core CI machine


def test_search_works_beside_the_engine(visit, site_url):
    """On the lookup page, with the engine answering, search finds a technique."""
    page = visit().page
    page.goto(f"{site_url}lookup/?edition=2&age=30&belt=purple&uniform=nogi")
    page.wait_for_selector("#lookup-rows tr[data-technique]", timeout=ENGINE_MS)
    top_result_mentions(page, "heel hook")


def test_search_works_on_a_rule_page(visit, site_url):
    """A rule page's search box finds a foul."""
    page = visit().page
    page.goto(f"{site_url}rules/2/5/")
    top_result_mentions(page, "stalling")
