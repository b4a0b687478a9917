"""Offline use: after one visit, rule pages, search, lookup and calculator work with the
network off, and a new build is offered with a Reload button."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from search_box import top_result_mentions

from build_scripts.publish.host_files import write_host_files
from build_scripts.tools.serve import start_server, stop_server
from lvl_rules import check_all, division

ENGINE_MS = 60_000  # a cold engine start on a loaded 2-core CI machine
READY = "[data-lvl-offline-ready]"
UPDATE = "[data-lvl-offline-update]"
SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default site_url, named by sitemap.xml


def build_of(site: Path) -> dict:
    """The BUILD object build_scripts/publish/service_worker.py wrote into sw.js."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const BUILD = (\{.*?\});\n", text).group(1))


def serve_copy(built_site, target: Path):
    """A copy of the build, served, whose sitemap names this server (Material's instant
    navigation only follows the links it lists, as on the real host)."""
    shutil.copytree(built_site.site, target)
    server, url = start_server(target)
    sitemap = target / "sitemap.xml"
    sitemap.write_text(sitemap.read_text(encoding="utf-8").replace(SITE_URL, url), "utf-8")
    write_host_files(target)  # the sitemap changed: as a new build would
    return server, url


class Watch:
    """What a browser context fetched from elsewhere and what its pages logged as errors."""

    def __init__(self, context, url: str) -> None:
        self.origin = url.rstrip("/")
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.missing: set[str] = set()  # URLs a test asks for knowing they do not exist
        context.on("request", self._request)
        context.on("console", self._console)
        context.on("weberror", lambda e: self.errors.append(str(e.error)))

    def _console(self, message) -> None:
        if message.type == "error" and message.location.get("url") not in self.missing:
            self.errors.append(message.text)

    def _request(self, request) -> None:
        if not request.url.startswith((self.origin, "data:", "blob:")):
            self.foreign.append(request.url)


@pytest.fixture(scope="module")
def offline(chromium, built_site, tmp_path_factory):
    """One visit to a rule page, then the server stopped and the browser set offline."""
    server, url = serve_copy(built_site, tmp_path_factory.mktemp("offline") / "site")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    watch = Watch(context, url)
    fetched: list[str] = []  # URL paths the page and the service worker asked for
    context.on("request", lambda r: fetched.append(urlsplit(r.url).path))
    page = context.new_page()
    page.goto(f"{url}rules/2/5/", wait_until="load")
    before_load = list(fetched)
    page.wait_for_selector(READY, state="visible", timeout=ENGINE_MS)
    page.close()
    stop_server(server)
    context.set_offline(True)
    yield SimpleNamespace(
        context=context, url=url, watch=watch, before_load=before_load, fetched=fetched
    )
    context.close()
    assert [] == watch.foreign
    assert [] == watch.errors


@pytest.fixture
def offline_page(offline):
    """A new tab in the offline browser; its console must stay free of errors."""
    page = offline.context.new_page()
    errors_before = len(offline.watch.errors)
    yield page
    page.close()
    assert [] == offline.watch.errors[errors_before:]


pytestmark = pytest.mark.browser


def test_version_and_precache_list_come_from_the_files(built_site, tmp_path):
    """sw.js lists every page and engine file; its version changes with any file."""
    build = build_of(built_site.site)
    files = build["files"]
    pages = {
        p.relative_to(built_site.site).as_posix().removesuffix("index.html") or "./"
        for p in built_site.site.rglob("*.html")
    }
    assert set() == pages - set(files)
    engine = {url for url, (_, _, group) in files.items() if group == "engine"}
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    assert {
        "engine/manifest.json",
        f"engine/{manifest['wheel']['path']}",
        f"engine/{manifest['snapshot']['path']}",
        f"engine/{manifest['pyodide']['path']}pyodide.asm.wasm",
    } <= engine
    assert [] == [url for url in files if url.endswith((".map", ".wasm.gz", ".html.gz"))]

    site = tmp_path / "site"
    shutil.copytree(built_site.site, site, ignore=shutil.ignore_patterns("engine"))
    first = write_host_files(site).version
    assert first == write_host_files(site).version  # a second run changes nothing
    page = site / "rules" / "2" / "5" / "index.html"
    page.write_text(page.read_text("utf-8").replace("</body>", "<p>amended</p></body>"), "utf-8")
    assert first != write_host_files(site).version


def test_a_rule_page_leaves_the_engine_for_after_its_load(offline):
    """The first rule page loads no engine file; the service worker copies them later."""
    assert [] == [path for path in offline.before_load if path.startswith("/engine/")]
    assert "/engine/manifest.json" in offline.fetched
    assert any(path.endswith("/pyodide.asm.wasm") for path in offline.fetched)


def test_the_engine_is_warmed_up_once_the_copy_is_complete(offline, offline_page):
    """Before "available offline" shows, the engine worker's warm-up has imported
    Pyodide's JavaScript from the cache (so the browser keeps its compiled code); it
    records this build's version, and is not run again for it."""
    page = offline_page
    page.goto(f"{offline.url}rules/2/5/")
    page.wait_for_selector(READY, state="visible", timeout=ENGINE_MS)
    warmed = page.evaluate("() => localStorage.getItem('lvl-rules.engine-warmed')")
    assert warmed  # set when the warm-up worker reports "warmed"
    assert f"(build {warmed})" in page.get_attribute(READY, "title")  # this build's


def test_rule_pages_offline(offline, offline_page):
    """A page never opened, by URL and by instant navigation, comes from the cache."""
    page = offline_page
    page.goto(f"{offline.url}rules/1/3/")
    assert page.title().startswith("§3 ")
    page.evaluate("() => { window.lvlSamePage = true; }")
    page.locator("nav.md-nav a[href$='/rules/2/']").first.click()
    page.wait_for_url("**/rules/2/")
    page.locator("h1").first.wait_for()
    assert page.evaluate("() => window.lvlSamePage === true")  # instant: fetched, not loaded
    assert page.locator(READY).is_visible()
    offline.watch.missing.add(f"{offline.url}no/such/page/")
    response = page.goto(f"{offline.url}no/such/page/")
    assert (404, True) == (response.status, response.from_service_worker)


def test_search_offline(offline, offline_page):
    """Material's search box finds a technique with the network off."""
    page = offline_page
    page.goto(f"{offline.url}rules/2/")
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__meta')"
        ".textContent.includes('Initializing')"
    )
    top_result_mentions(page, "heel hook")


def test_lookup_offline(offline, offline_page):
    """The lookup starts the engine from the cache and gives the engine's answers."""
    page = offline_page
    page.goto(f"{offline.url}lookup/?edition=2&age=30&belt=purple&uniform=nogi")
    page.wait_for_selector("#lookup-rows tr[data-technique]", timeout=ENGINE_MS)
    shown = {
        row.get_attribute("data-technique"): row.get_attribute("data-legal") == "true"
        for row in page.query_selector_all("#lookup-rows tr[data-technique]")
    }
    fields = {"edition": "2", "age": 30, "belt": "purple", "uniform": "nogi"}
    assert {a.technique.id: a.legal for a in check_all(division(**fields))} == shown


def test_calculator_offline(offline, offline_page):
    """The calculator records an event with the network off."""
    page = offline_page
    page.goto(f"{offline.url}calculator/?edition=2&age=30&belt=purple&uniform=gi")
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    page.get_by_role("radio", name="Athlete A", exact=True).check()
    page.locator(".lvl-controls:visible, .lvl-recorder").get_by_role(
        "button", name="Guard pass (3)", exact=True
    ).first.click()
    page.locator("#calc-log li").first.wait_for()
    assert "3" == page.locator('[data-athlete="A"]').get_attribute("data-points")


def test_update_prompt_after_a_new_build(chromium, built_site, tmp_path):
    """A new build is offered; Reload shows it and only its cache is left."""
    site = tmp_path / "site"
    server, url = serve_copy(built_site, site)
    context = chromium.new_context()
    watch = Watch(context, url)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert page.locator(UPDATE).is_hidden()

        home = site / "index.html"
        home.write_text(
            home.read_text("utf-8").replace("</body>", '<p id="second-build">2</p></body>'),
            "utf-8",
        )
        version = write_host_files(site).version
        page.reload()  # a visit: the browser looks for a new sw.js
        page.locator(UPDATE).wait_for(state="visible", timeout=30_000)
        assert page.locator("#second-build").count() == 0  # still the cached build
        page.get_by_role("button", name="Reload").click()
        page.locator("#second-build").wait_for(state="attached", timeout=30_000)
        assert [f"lvl-rules-{version}"] == page.evaluate("() => caches.keys()")
    finally:
        context.close()
        stop_server(server)
    assert [] == watch.foreign
    assert [] == watch.errors
