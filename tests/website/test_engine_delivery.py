"""How the engine's files reach the browser: whatever encoding a host sends, a page and the
engine files it names always from one build (issue 16, F2), and a plain message with the
chart's link when WebAssembly is broken."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from deploys import deploy_new_scripts
from engine_page import engine_answer
from recording_server import serve_recorded
from timeline_names import IN_FORCE

from benchmarks.site_variants import rewrite_manifest
from build_scripts.publish import code_folder
from build_scripts.publish.host_files import write_host_files
from build_scripts.publish.security import PAGE_POLICY, WORKER_SOURCE
from build_scripts.tools.serve import stop_server
from lvl_rules import check_all, division

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000
FIELDS = {"edition": IN_FORCE, "age": 30, "belt": "purple", "uniform": "nogi"}
ENGINE_PAGE = f"calculator/?edition={IN_FORCE}&age=30&belt=purple&uniform=nogi"  # starts the engine
NEW_BUILD = '<meta name="lvl-test-build" content="new">'


def shown(page) -> dict[str, bool]:
    """Each technique legal or not, as the page's engine answers (the lookup, which
    answers without it, no longer starts it: the calculator does)."""
    found = engine_answer(page, {"action": "eligibility", **FIELDS, "experience": []})
    return {t["id"]: t["legal"] for t in found["techniques"]}


def same_state(page) -> bool:
    """Whether the page's address still holds the division it was opened with."""
    return set(ENGINE_PAGE.split("?")[1].split("&")) <= set(page.url.split("?")[1].split("&"))


def expected() -> dict[str, bool]:
    return {a.technique.id: a.legal for a in check_all(division(**FIELDS))}


class Console:
    """What F2 was about: an engine that could not start (a checksum that differs from
    the manifest's, say). The old page's failed requests for files a deploy removed are
    expected, and left out."""

    def __init__(self, context) -> None:
        self.errors: list[str] = []
        context.on("console", self._console)

    def _console(self, message) -> None:
        text = message.text
        if message.type == "error" and ("EngineError" in text or "sha256" in text):
            self.errors.append(text)


@pytest.mark.parametrize("codings", [("gzip",), ()], ids=["gzip-only-host", "identity-host"])
def test_the_engine_works_whatever_encoding_the_host_sends(chromium, built_site, tmp_path, codings):
    """A host that sends plain gzip, or the files themselves, still gets the same answers."""
    server, url, _ = serve_recorded(built_site, tmp_path / "site", codings=codings)
    context = chromium.new_context()
    try:
        page = context.new_page()
        sent = []
        page.on("response", lambda r: sent.append(r.headers.get("content-encoding")))
        page.goto(url + ENGINE_PAGE)
        assert expected() == shown(page)
        assert "br" not in sent
    finally:
        context.close()
        stop_server(server)


def not_webassembly(context) -> None:
    """Every WebAssembly file the engine fetches is something else."""
    context.route(
        "**/pyodide.asm.wasm",
        lambda route: route.fulfill(
            status=200, body=b"\0asm not really", content_type="application/wasm"
        ),
    )


@pytest.mark.parametrize(
    ("blocked", "spoil"),
    [(False, not_webassembly), (True, lambda context: None)],
    ids=["broken-file", "blocked-by-csp"],
)
def test_broken_webassembly_ends_in_the_plain_message_with_the_chart(
    chromium, built_site, blocked, spoil
):
    """A WebAssembly file that is not one, or a worker whose Content-Security-Policy does
    not allow WebAssembly: the engine stops, says it could not start and links the
    technique chart, which has the same answers."""
    from build_scripts.tools.serve import start_server

    worker = "/" + code_folder.published_in(built_site.site, WORKER_SOURCE)
    server, url = start_server(built_site.site, csp={worker: PAGE_POLICY} if blocked else None)
    context = chromium.new_context()
    try:
        spoil(context)
        page = context.new_page()
        page.goto(url + ENGINE_PAGE)
        failed = page.locator("[data-engine-failed]")
        failed.wait_for(state="visible", timeout=ENGINE_MS)
        assert "The rules engine could not start in this browser." in failed.inner_text()
        assert (
            failed.get_by_role("link", name="technique chart")
            .get_attribute("href")
            .endswith(f"rules/{IN_FORCE}/techniques/")
        )
        assert page.locator("[data-engine-status]").is_hidden()
    finally:
        context.close()
        stop_server(server)


def redeploy(site: Path) -> set[str]:
    """A new build on the server: the engine files under new content addresses (the old
    ones gone), the pages naming them marked; returns the old paths."""
    manifest_file = site / "engine" / "manifest.json"
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    old = set()
    for entry in (manifest["stdlib"], manifest["wheel"]):
        old.add(entry["path"])
        new_path = re.sub(r"[0-9a-f]{16}", lambda m: m.group(0)[::-1], entry["path"], count=1)
        for suffix in ("", ".br", ".gz"):
            source = site / "engine" / (entry["path"] + suffix)
            if source.exists():
                target = site / "engine" / (new_path + suffix)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(source, target)
        entry["path"] = new_path
    manifest["pyodide"]["lockfile"]["packages"]["lvl-rules"]["file_name"] = manifest["wheel"][
        "path"
    ]
    rewrite_manifest(site, manifest, mark=NEW_BUILD)
    write_host_files(site)
    return {f"/engine/{path}" for path in old}


def come_back_after_a_deploy(chromium, built_site, tmp_path, deploy, old_build=None):
    """A visitor who left before the engine was kept comes back after ``deploy(site)``:
    the old page, served from the offline cache, must reload into the new build, its
    state (in the address) intact. ``old_build(site)`` makes the first build what it was.
    Returns the server's log of paths and what ``deploy`` returned."""
    site = tmp_path / "site"
    server, url, log = serve_recorded(built_site, site)
    if old_build:
        old_build(site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.route("**/engine/engine-worker.js", lambda route: route.abort())
        page.goto(url + ENGINE_PAGE)
        page.wait_for_selector("[data-lvl-offline~='page']", state="attached", timeout=ENGINE_MS)
        page.close()  # its engine could not start: the worker script was held back
        deployed = deploy(site)
        console = Console(context)

        page = context.new_page()
        page.goto(url + ENGINE_PAGE)
        page.wait_for_selector('meta[name="lvl-test-build"]', state="attached", timeout=ENGINE_MS)
        assert expected() == shown(page)
        assert same_state(page)
    finally:
        context.close()
        stop_server(server)
    assert [] == console.errors
    return log.paths(), deployed


def test_an_old_page_after_a_rebuild_reloads_into_the_new_build(chromium, built_site, tmp_path):
    """The deploy moved the engine files (new content addresses): the old page asks for
    its own, finds them gone and reloads into the new build."""
    paths, old = come_back_after_a_deploy(chromium, built_site, tmp_path, redeploy)
    assert old & set(paths)  # the old page did ask for its own engine files


def test_an_old_page_whose_scripts_are_gone_reloads_into_the_new_build(
    chromium, built_site, tmp_path
):
    """The deploy changed the scripts too: their folder has a new name, the old one is
    gone. The old page, from the offline cache, asks for its own engine worker, finds it
    gone and reloads into the new build."""

    def deploy(site: Path) -> str:
        old_worker = "/" + code_folder.published_in(site, WORKER_SOURCE)
        redeploy(site)
        deploy_new_scripts(site)
        return old_worker

    paths, old_worker = come_back_after_a_deploy(chromium, built_site, tmp_path, deploy)
    assert old_worker in paths  # the old page did ask for its own worker


def test_an_old_page_of_another_manifest_format_reloads_into_the_new_build(
    chromium, built_site, tmp_path
):
    """The deploy changed the manifest's format (the engine files' meaning): the old
    page's manifest is of a format the new engine worker does not read, so the page
    reloads into the new build rather than failing."""
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))

    def with_manifest(changes: dict, mark: str = ""):
        def write(site: Path) -> None:
            rewrite_manifest(site, {**manifest, **changes}, mark=mark)
            write_host_files(site)

        return write

    come_back_after_a_deploy(
        chromium,
        built_site,
        tmp_path,
        deploy=with_manifest({}, mark=NEW_BUILD),
        old_build=with_manifest({"format": manifest["format"] - 1}),
    )


def test_an_old_tab_whose_engine_restarts_never_mixes_builds(chromium, built_site, tmp_path):
    """A tab left open while another tab took the new build restarts its engine: it still
    answers, from its own build's files (content-addressed, so no other build's file can
    stand in for one of them) or, where those are gone, after reloading into the new build
    with its state; never with a checksum error."""
    site = tmp_path / "site"
    server, url, _ = serve_recorded(built_site, site)
    context = chromium.new_context()
    console = Console(context)
    try:
        old_tab = context.new_page()
        old_tab.goto(url + ENGINE_PAGE)
        assert expected() == shown(old_tab)
        old_tab.wait_for_selector(
            "[data-lvl-offline-engine='kept']", state="attached", timeout=ENGINE_MS
        )
        redeploy(site)

        other = context.new_page()
        other.goto(url)
        other.locator("[data-lvl-offline-update]").wait_for(state="visible", timeout=30_000)
        other.get_by_role("button", name="Reload").click()
        other.wait_for_function(
            "async () => navigator.serviceWorker.controller && (await caches.keys()).length === 1"
        )

        answer = old_tab.evaluate(
            """async (request) => {
              const { engine } = await import(
                document.querySelector("script[src*=engine-client]").src);
              await engine.restart();
              const result = await engine.request(request);
              return Object.fromEntries(result.techniques.map((t) => [t.id, t.legal]));
            }""",
            {"action": "eligibility", **FIELDS, "experience": []},
        )
        assert expected() == answer
        assert same_state(old_tab)
    finally:
        context.close()
        stop_server(server)
    assert [] == console.errors


def build_files(site: Path) -> dict[str, str]:
    """sha256 of every file the service worker of the build at ``site`` lists, by URL
    from the site root."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    files = json.loads(re.search(r"const BUILD = (\{.*?\});\n", text).group(1))["files"]
    return {url: sha256 for url, (sha256, *_) in files.items()}


def test_a_page_first_seen_after_a_deploy_runs_only_the_new_builds_scripts(
    chromium, built_site, tmp_path
):
    """A reader who visited before a deploy opens, after it, a page never visited: the old
    service worker still controls the browser and its cache holds the old build's
    scripts, yet the page (the new build's, from the network) runs only the new build's
    scripts, each as the new build lists it (every script of ours is named by its
    content, so no old one can stand in for a new one)."""
    site = tmp_path / "site"
    server, url, _ = serve_recorded(built_site, site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("[data-lvl-offline~='page']", state="attached", timeout=ENGINE_MS)
        page.close()  # the old build's page, theme and scripts are kept
        deploy_new_scripts(site)
        new = build_files(site)

        page = context.new_page()
        scripts: list = []
        page.on(
            "response",
            lambda r: scripts.append(r) if r.url.split("?")[0].endswith((".js", ".mjs")) else None,
        )
        page.goto(url + ENGINE_PAGE)
        assert expected() == shown(page)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        ran = {r.url.removeprefix(url): hashlib.sha256(r.body()).hexdigest() for r in scripts}
        names = {path.rsplit("/", 1)[-1] for path in ran}
        ours = {"main.js", "offline.js", "lvl.js", "calculator.js", "engine-client.js"}
        assert ours | {"engine-worker.js", "md-scope.js"} <= names
        assert {} == {path: sha256 for path, sha256 in ran.items() if new.get(path) != sha256}
    finally:
        context.close()
        stop_server(server)


def test_an_old_page_following_a_link_after_a_deploy_loads_the_new_build(
    chromium, built_site, tmp_path
):
    """A rule page open since before a deploy follows a link to the calculator: Material's
    instant navigation puts the new build's page into the old page, whose scripts' folder
    the server no longer has (the calculator's module with it); the page loads afresh, all
    of the new build, and the calculator answers."""
    site = tmp_path / "site"
    server, url, _ = serve_recorded(built_site, site)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(url + f"rules/{IN_FORCE}/5/")
        page.wait_for_selector("[data-lvl-offline~='page']", state="attached", timeout=ENGINE_MS)
        deploy_new_scripts(site)
        main = code_folder.published_in(site, "assets/app/main.js")
        page.locator(".md-nav__link[href$='calculator/']").first.click()
        page.wait_for_function(
            "(main) => document.querySelector('script[src$=\"/app/main.js\"]')?.src.endsWith(main)",
            arg=main,
            timeout=ENGINE_MS,
        )
        assert engine_answer(page, {"action": "editions"})
    finally:
        context.close()
        stop_server(server)
