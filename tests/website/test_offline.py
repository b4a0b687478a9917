"""Offline use without silent downloads: a visit costs what the visitor asked for. Pages
are kept as visited, the engine once a calculator page loaded it, everything
when the reader asks; Save-Data fetches nothing ahead of need; a new build is offered with
a Reload button.

What the server sent is logged by the server itself (tests/website/recording_server.py),
so the service worker's requests count too."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from engine_page import engine_when_ready
from offline_page import (
    ENGINE_MS,
    KEPT_MS,
    SAID,
    UPDATE,
    Errors,
    build_of,
    kept_urls,
    said,
    wait_kept,
)
from playwright.sync_api import expect
from recording_server import serve_recorded
from search_box import top_result_mentions
from timeline_names import FULL, IN_FORCE

from build_scripts.publish.code_folder import published_in
from build_scripts.publish.host_files import write_host_files
from build_scripts.tools.serve import stop_server
from lvl_rules import check_all, division

RULE_PAGE = f"rules/{IN_FORCE}/5/"
RULE_PAGE_BUDGET = 300_000  # bytes a first visit of a rule page may cost (issue 13)
LOOKUP = f"lookup/?edition={IN_FORCE}&age=30&belt=purple&uniform=nogi"
CALCULATOR = f"calculator/?edition={IN_FORCE}&age=30&belt=purple&uniform=gi"

pytestmark = pytest.mark.browser


@pytest.fixture
def served(built_site, tmp_path):
    """A copy of the build, served by a server that logs every response it sends."""
    server, url, log = serve_recorded(built_site, tmp_path / "site")
    yield url, log, tmp_path / "site"
    stop_server(server)


@pytest.fixture
def browser_context(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    errors = Errors(context)
    yield context, errors
    context.close()
    assert [] == errors.errors


def test_groups_say_when_each_file_is_kept(built_site, tmp_path):
    """sw.js lists every page and engine file in its group, with its download size; its
    version changes with any file."""
    files = build_of(built_site.site)["files"]
    groups = {url: group for url, (_, _, group, _) in files.items()}
    assert "page" == groups[RULE_PAGE]
    assert "print" == groups[f"rules/{IN_FORCE}/print/"]
    assert "print" == groups[f"data/{IN_FORCE}.pdf"]
    assert "core" == groups["search/search_index.json"]
    assert "core" == groups["404.html"]
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    assert "engine" == groups[f"engine/{manifest['stdlib']['path']}"]
    _, size, _, download = files[f"engine/{manifest['stdlib']['path']}"]
    assert manifest["stdlib"]["sizes"] == {
        "identity": size,
        "br": download,
        "gzip": (built_site.site / "engine" / (manifest["stdlib"]["path"] + ".gz")).stat().st_size,
    }
    assert [] == [url for url in files if url.endswith((".map", ".gz", ".br"))]
    # An app's own modules are kept when a page loads them, never ahead of it; the
    # modules and scripts every page runs with the theme.
    code = published_in(built_site.site, "assets/app/main.js").removesuffix("app/main.js")
    assert {"other"} == {
        groups[u] for u in files if u.startswith((f"{code}engine/", f"{code}vendor/"))
    }
    assert "other" == groups[f"{code}app/calculator.js"]
    assert {"core"} == {
        groups[f"{code}{path}"] for path in ("app/main.js", "app/offline.js", "lvl.js")
    }
    assert {"core"} == {groups[u] for u in files if u.startswith(f"{code}theme/")}

    site = tmp_path / "site"
    shutil.copytree(built_site.site, site, ignore=shutil.ignore_patterns("engine"))
    first = write_host_files(site).version
    assert first == write_host_files(site).version  # a second run changes nothing
    page = site / "rules" / "2" / "5" / "index.html"
    page.write_text(page.read_text("utf-8").replace("</body>", "<p>amended</p></body>"), "utf-8")
    assert first != write_host_files(site).version


def test_a_rule_page_fetches_no_engine_file_and_no_pdf(served, browser_context):
    """A first visit of a rule page, background work included: no engine file, no PDF, no
    printable page, no other page, and at most 300 KB in all; the page is then kept."""
    url, log, _ = served
    context, _ = browser_context
    page = context.new_page()
    page.goto(url + RULE_PAGE, wait_until="load")
    wait_kept(page)
    page.wait_for_timeout(3000)  # anything the service worker would do after that
    paths = log.paths()
    assert [] == [p for p in paths if p.startswith("/engine/") or p.endswith(".pdf")]
    assert [] == [p for p in paths if p.endswith("/") and p != f"/{RULE_PAGE}"]
    assert log.bytes() <= RULE_PAGE_BUDGET
    assert "This page is available offline." == page.locator(SAID).inner_text()


def test_my_division_fetches_nothing_of_the_engine_or_the_calculator(served, browser_context):
    """My division's first visit, background work included: its answer, and nothing of the
    engine, of its client or of the calculator (the service worker kept those scripts with
    the theme, for a visit that may never come)."""
    url, log, _ = served
    context, _ = browser_context
    page = context.new_page()
    page.goto(url + LOOKUP, wait_until="load")
    page.wait_for_selector("#lookup-results:not([hidden])")
    wait_kept(page)
    page.wait_for_timeout(3000)  # anything the service worker would do after that
    ahead = re.compile(r"^/engine/|^/assets/code-\w+/(?:engine/|vendor/|app/calculator)")
    assert [] == [p for p in log.paths() if ahead.match(p)]


def test_visited_pages_work_offline_and_others_say_so(served, browser_context):
    """The visited page opens offline; a page never opened gets the offline 404 page."""
    url, _, _ = served
    context, errors = browser_context
    page = context.new_page()
    page.goto(url + RULE_PAGE)
    wait_kept(page)
    context.set_offline(True)
    again = context.new_page()
    again.goto(url + RULE_PAGE)
    assert again.title().startswith("§5 ")
    errors.missing.add(f"{url}rules/{FULL}/3/")
    response = again.goto(f"{url}rules/{FULL}/3/")
    assert (404, True) == (response.status, response.from_service_worker)


def test_the_engine_is_kept_after_the_calculator_was_used(served, browser_context):
    """Once the calculator's engine has started, its files are kept without downloading
    them again, and the calculator then records an event offline."""
    url, log, site = served
    context, _ = browser_context
    page = context.new_page()
    page.goto(url + CALCULATOR)
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    page.wait_for_selector("[data-lvl-offline-engine='kept']", state="attached", timeout=KEPT_MS)
    # The service worker answers in turn: once it says the engine is kept, the page and
    # the theme it needs offline were kept before it.
    assert "page" == page.locator("[data-lvl-offline]").get_attribute("data-lvl-offline")
    core = [u for u, (_, _, group, _) in build_of(site)["files"].items() if group == "core"]
    assert [] == [u for u in core if u not in kept_urls(page, url)]
    engine_files = [
        p for p in log.paths() if p.startswith("/engine/") and p != "/engine/manifest.json"
    ]
    assert len(engine_files) == len(set(engine_files))  # each sent once, kept from the cache
    context.set_offline(True)
    page = context.new_page()
    page.goto(url + CALCULATOR)
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    page.locator('.lvl-half[data-half="A"]').get_by_role(
        "button", name="Guard pass, 3 points,"
    ).click()
    page.locator("#calc-log li").first.wait_for()
    assert "3" == page.locator('[data-athlete="A"]').get_attribute("data-points")


def test_a_visit_fetches_nothing_for_the_next(served, browser_context):
    """A calculator visit and a repeat visit fetch the engine's files the engine loads,
    each once, and nothing more, before or after the engine has answered: what it loaded
    is kept from the HTTP cache, and no byte is spent on a next visit (the build before
    fetched a memory snapshot for it)."""
    url, log, site = served
    context, _ = browser_context
    for _ in range(2):
        page = context.new_page()
        page.goto(url + CALCULATOR)
        engine_when_ready(page)
        kept = "[data-lvl-offline-engine='kept']"
        page.wait_for_selector(kept, state="attached", timeout=KEPT_MS)
        page.wait_for_timeout(3000)  # anything the page or the service worker would do after
        page.close()
    manifest = json.loads((site / "engine" / "manifest.json").read_text("utf-8"))
    loaded = [manifest["stdlib"], manifest["wheel"], *manifest["runtime"]]
    sent = [p for p in log.paths() if p.startswith("/engine/") and p != "/engine/manifest.json"]
    assert sorted(f"/engine/{entry['path']}" for entry in loaded) == sorted(sent)


def test_keep_everything_makes_the_whole_site_work_offline(served, browser_context):
    """The one control keeps every file, says its size and progress, and then every page,
    search, the PDFs, the lookup and the calculator work with the network off."""
    url, _, _ = served
    context, _ = browser_context
    page = context.new_page()
    page.goto(url)
    wait_kept(page)
    control = page.locator("[data-lvl-offline-keep-all]")
    assert re.fullmatch(
        r"Keep the whole rulebook and the calculators offline \(\d+\.\d MB\)", control.inner_text()
    )
    control.click()
    wait_kept(page, "everything")
    assert (
        "The whole rulebook and the calculators are available offline."
        == page.locator(SAID).inner_text()
    )
    assert page.locator("[data-lvl-offline-keep]").is_hidden()

    context.set_offline(True)
    page = context.new_page()
    page.goto(f"{url}rules/{FULL}/3/")  # never opened
    assert page.title().startswith("§3 ")
    pdf = page.evaluate("async (u) => (await fetch(u)).status", f"{url}data/{FULL}.pdf")
    assert 200 == pdf
    top_result_mentions(page, "heel hook")
    page.goto(url + LOOKUP)  # answered from the page itself: its rows are in folded sections
    page.wait_for_selector("#lookup-rows tr[data-technique]", state="attached")
    shown = {
        row.get_attribute("data-technique"): row.get_attribute("data-legal") == "true"
        for row in page.query_selector_all("#lookup-rows tr[data-technique]")
    }
    fields = {"edition": IN_FORCE, "age": 30, "belt": "purple", "uniform": "nogi"}
    assert {a.technique.id: a.legal for a in check_all(division(**fields))} == shown


def test_an_interrupted_keep_says_so_and_a_retry_keeps_only_the_rest(
    built_site, tmp_path, browser_context
):
    """The connection drops while everything is being kept (a download in flight is cut,
    the rest fail): the page says so and how much is kept, and offers the control again;
    back online, the control keeps the rest, and nothing already kept is downloaded again
    (the former service worker never answered: "Keeping ...: 0.9 of 8.4 MB" stayed, the
    control disabled)."""
    server, url, log = serve_recorded(built_site, tmp_path / "site")
    try:
        context, _ = browser_context
        page = context.new_page()
        page.goto(url)
        wait_kept(page)
        manifest = json.loads((tmp_path / "site/engine/manifest.json").read_text("utf-8"))
        wasm = next(f"/engine/{e['path']}" for e in manifest["runtime"] if ".wasm" in e["path"])
        cut = server.hold(wasm)  # the largest file, late in the list: much is kept by then
        control = page.locator("[data-lvl-offline-keep-all]")
        control.click()
        assert cut.arrived.wait(KEPT_MS / 1000)
        context.set_offline(True)
        cut.cut()
        expect(control).to_be_enabled(timeout=KEPT_MS)
        text = page.locator("[data-lvl-offline-progress-text]").inner_text()
        assert said("failed").fullmatch(text), text
        assert said("retry").fullmatch(control.inner_text())
        cached, total = map(float, re.findall(r"\d+\.\d", text))
        assert 0 < cached < total
        kept = set(kept_urls(page, url))
        assert wasm[1:] not in kept

        context.set_offline(False)
        cut.back()
        sent_before = len(log.paths())
        control.click()
        wait_kept(page, "everything")
        again = log.paths()[sent_before:]
        assert wasm in again
        assert [] == [path for path in again if path[1:] in kept]
    finally:
        stop_server(server)


def test_with_save_data_nothing_is_fetched_ahead_of_need(served, browser_context):
    """With Save-Data the service worker downloads nothing the page did not ask for
    itself (it keeps the page and what it loaded, which costs at most a revalidation of
    the same URLs), the page then opens offline, and the engine says its size and waits
    for the reader before downloading anything."""
    url, log, _ = served
    context, _ = browser_context
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    asked_by_page: set[str] = set()
    page.on(
        "request", lambda r: asked_by_page.add(r.url.removeprefix(url.rstrip("/")).split("?")[0])
    )
    page.goto(url + RULE_PAGE)
    assert page.evaluate("() => navigator.connection.saveData")
    wait_kept(page)
    page.wait_for_timeout(3000)
    assert set() == set(log.paths()) - asked_by_page - {"/sw.js"}
    # The tab's icon too: the browser fetches it after load, at times after the page has
    # listed what it loaded and before the worker serves it.
    assert page.evaluate(
        "async () => Boolean(await caches.match(document.querySelector('link[rel~=icon]').href))"
    )
    # Material's instant navigation asks for the sitemap once it is set up, on a busy
    # machine after the page said it was kept; offline the next page asks for it again
    # (net::ERR_FAILED in the console if it was not kept yet): wait until it is kept.
    page.wait_for_function("async (u) => Boolean(await caches.match(u))", arg=url + "sitemap.xml")
    # What the page loaded was kept with it: offline it opens styled and scripted.
    context.set_offline(True)
    again = context.new_page()
    again.goto(url + RULE_PAGE)
    assert "sticky" == again.evaluate(
        "() => getComputedStyle(document.querySelector('.md-header')).position"
    )
    wait_kept(again)  # said by offline.js, a script without a hash in its name
    again.close()
    context.set_offline(False)

    page.goto(url + CALCULATOR)
    status = page.locator("[data-engine-status] [data-status-text]")
    status.wait_for()
    page.wait_for_function(
        "() => document.querySelector('[data-status-go]')?.offsetParent !== null"
    )
    assert re.fullmatch(
        r"The rules engine is a \d+\.\d MB download\. It is kept in this browser afterwards,"
        r" for use offline\.",
        status.inner_text(),
    )
    page.wait_for_timeout(1000)
    assert [] == [p for p in log.paths() if p.startswith("/engine/")]
    page.locator("[data-status-go]").click()
    engine_when_ready(page)


def test_update_prompt_after_a_new_build(served, browser_context):
    """A new build is offered; Reload shows it and only its cache is left."""
    url, _, site = served
    context, _ = browser_context
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The page visited is kept once the worker has fetched it: until then, the build
    # changed below would be the one kept (the full suite's run on a clean clone once
    # saw the second build here, before the prompt).
    page.wait_for_function("async (u) => Boolean(await caches.match(u))", arg=url)
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
