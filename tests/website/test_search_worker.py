"""Material's search worker starts at a quiet moment (docs/assets/theme/search-later.js)."""

from __future__ import annotations

import pytest
from engine_page import engine_when_ready
from search_box import top_result_mentions

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000  # generous: a cold start on a loaded 2-core CI machine
START_ANYWAY_MS = 8000  # search-later.js starts the search worker by then in any case


SEARCH_WORKER_AT = """() => performance.getEntriesByType("resource")
  .filter((entry) => entry.name.includes("/workers/search."))
  .map((entry) => entry.startTime)"""


def test_search_waits_for_the_engine_and_then_works(visit, site_url):
    """On an engine page Material's search worker starts once the engine is ready (they
    would share the CPU), and searching there works as on any page."""
    page = visit().page
    page.goto(f"{site_url}lookup/?edition=2&age=30&belt=purple&uniform=nogi")
    page.wait_for_selector("#lookup-rows tr[data-technique]", timeout=ENGINE_MS)
    ready_at = engine_when_ready(page)["readyAt"]
    page.wait_for_function(f"() => ({SEARCH_WORKER_AT})().length > 0")
    [search_at] = page.evaluate(SEARCH_WORKER_AT)
    assert search_at >= min(ready_at, START_ANYWAY_MS)  # search-later.js's limit
    top_result_mentions(page, "heel hook")


def test_search_starts_at_once_when_the_reader_opens_it(visit, site_url):
    """The reader who goes to search before the engine is ready does not wait for it."""
    page = visit().page
    # The engine never starts: its worker script never arrives. (Holding manifest.json
    # back no longer does that: the engine pages carry the manifest themselves.)
    page.route("**/assets/engine/engine-worker.js", lambda route: None)
    page.goto(f"{site_url}lookup/")
    assert [] == page.evaluate(SEARCH_WORKER_AT)
    page.locator(".md-search__input").focus()
    page.wait_for_function(f"() => ({SEARCH_WORKER_AT})().length > 0", timeout=3000)


LOADED_AT = """() => performance.getEntriesByType("navigation")[0].loadEventEnd"""


def test_on_a_rule_page_search_starts_after_the_page_has_loaded(visit, site_url):
    """A rule page builds its search index only once it has loaded, and search works."""
    page = visit().page
    page.goto(f"{site_url}rules/2/5/")
    page.wait_for_function(f"() => ({SEARCH_WORKER_AT})().length > 0")
    [search_at] = page.evaluate(SEARCH_WORKER_AT)
    assert search_at >= page.evaluate(LOADED_AT) > 0
    top_result_mentions(page, "stalling")
