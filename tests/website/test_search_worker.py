"""Material's search works on the pages that run the engine and on rule pages; on the
engine's pages its index is built once the engine has started, or at once when the reader
opens search (docs/assets/javascripts/workers/search-when-free.js)."""

from __future__ import annotations

import re

import pytest
from engine_page import engine_when_ready
from playwright.sync_api import expect
from search_box import top_result_mentions
from timeline_names import FULL, IN_FORCE

from benchmarks.site_variants import with_search_at_once
from build_scripts.pages.search_worker import (
    OUR_WORKER_FILE,
    SearchConfigError,
    imported_by_ours,
    search_when_free,
)

MATERIAL_WORKER = re.compile(r"/assets/javascripts/workers/search\.[0-9a-f]+\.min\.js$")
OUR_WORKER = re.compile(r"/assets/javascripts/workers/search-when-free\.[0-9a-f]{10}\.js$")
PUBLISHED = "assets/javascripts/workers/search-when-free.0123456789.js"
CALCULATOR = f"calculator/?edition={FULL}&age=30&lvl=3&uniform=gi&events="
WAITING_MS = 3000  # the engine held back this long: Material's worker is not fetched
SEARCH_SOON_MS = 5000  # well under search-when-free.js's START_ANYWAY_MS (10 s)

MATERIAL_BLOCK = """
      <script id="__config" type="application/json">{"base": "../..", "features": [],
 "search": "../../assets/javascripts/workers/search.a7633da7.min.js", "tags": null}</script>
"""


def test_the_config_names_our_worker_and_materials():
    """The config's search URL is our worker's, beside Material's; the rest of the config
    is Material's, and "<" stays escaped (as Material's tojson writes it)."""
    block = MATERIAL_BLOCK.replace('"tags": null', '"tags": "\\u003c/script\\u003e"')
    rewritten = str(search_when_free(block, PUBLISHED))
    assert f'"search": "../../{PUBLISHED}"' in rewritten
    assert '"base": "../.."' in rewritten
    assert rewritten.count("</script>") == 1


@pytest.mark.parametrize(
    ("block", "says"),
    [
        ("<script>{}</script>", "no <script id"),
        (MATERIAL_BLOCK.replace("search.a7633da7.min.js", "lunr.js"), "lunr.js"),
        (
            MATERIAL_BLOCK.replace("search.a7633da7", "search.0123abcd"),
            "set its MATERIAL_WORKER to the new name",
        ),
    ],
    ids=["no-config", "another-worker", "a-new-material-worker"],
)
def test_a_changed_theme_fails_the_build(block, says):
    with pytest.raises(SearchConfigError, match=re.escape(says)):
        search_when_free(block, PUBLISHED)


def test_our_worker_beside_materials_or_the_build_fails():
    """Our worker must sit beside Material's, whose relative URLs it needs."""
    elsewhere = "assets/code-0123456789/search-when-free.js"
    with pytest.raises(SearchConfigError, match="not beside Material's"):
        search_when_free(MATERIAL_BLOCK, elsewhere)


def test_every_page_starts_our_worker(built_site):
    """Every page of the build names our worker, under a name that carries its content's
    hash; it and the Material worker it imports are published side by side."""
    site = built_site.site
    workers = site / "assets" / "javascripts" / "workers"
    named = set()
    for page in [site / "index.html", site / "rules" / "2" / "5" / "index.html"]:
        found = re.search(r'"search": "([^"]*)"', page.read_text(encoding="utf-8"))
        assert found, page
        assert OUR_WORKER.search("/" + found[1])
        named.add(found[1].rsplit("/", 1)[-1])
    (name,) = named
    assert OUR_WORKER_FILE.read_bytes() == (workers / name).read_bytes()
    assert (workers / imported_by_ours()).is_file()


def test_the_benchmark_variant_puts_materials_worker_back(built_site, tmp_path):
    """benchmarks/site_variants.py search-at-once still finds what to change."""
    page = tmp_path / "index.html"
    page.write_text((built_site.site / "index.html").read_text(encoding="utf-8"), "utf-8")
    with_search_at_once(tmp_path)
    found = re.search(r'"search": "([^"]*)"', page.read_text(encoding="utf-8"))
    assert found
    assert MATERIAL_WORKER.search("/" + found[1])


def test_search_works_beside_the_engine(visit, site_url):
    """On the calculator, with the engine answering, search finds a technique."""
    page = visit().page
    page.goto(site_url + CALCULATOR)
    engine_when_ready(page)
    top_result_mentions(page, "heel hook")


def test_search_works_on_a_rule_page(visit, site_url):
    """A rule page's search box finds a foul."""
    page = visit().page
    page.goto(f"{site_url}rules/{IN_FORCE}/5/")
    top_result_mentions(page, "stalling")


def test_the_index_waits_for_the_engine_unless_the_reader_searches(visit, site_url):
    """While the engine is starting (its WebAssembly held back), Material's search worker
    is not even fetched; once the reader opens search, it is, and search answers."""
    opened = visit()
    page = opened.page
    held = []
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # never answered
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(site_url + CALCULATOR)
    page.wait_for_function("() => document.querySelector('[data-engine-status]:not([hidden])')")
    page.wait_for_timeout(WAITING_MS)
    assert held  # the engine is starting
    assert any(OUR_WORKER.search(url) for url in fetched)
    assert not [url for url in fetched if MATERIAL_WORKER.search(url)]
    top_result_mentions(page, "stalling")
    assert [url for url in fetched if MATERIAL_WORKER.search(url)]


def test_a_search_link_does_not_wait_for_the_engine(visit, site_url):
    """A link with ?q= on the calculator, the engine held back: Material opens search as
    the page loads, and the results come without waiting for the engine (or 10 s)."""
    page = visit().page
    held = []
    page.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # never answered
    page.goto(f"{site_url}{CALCULATOR}&q=stalling")
    expect(page.locator(".md-search-result__item").first).to_contain_text(
        "stalling", ignore_case=True, timeout=SEARCH_SOON_MS
    )
    assert held  # the engine is still starting
