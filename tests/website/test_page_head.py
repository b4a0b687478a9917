"""What a page fetches from its <head>: the scripts and modules it runs, together, and our
stylesheets as one file (build_scripts/pages/preloads.py, stylesheet.py); every script of
ours named by its content (build_scripts/publish/code_folder.py).

On a phone's network each request costs a round trip; a page whose scripts were found
one by one as the parser reached them waited for five in a row before its first answer.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from timeline_names import IN_FORCE

from build_scripts.pages import search_worker
from build_scripts.publish import code_folder
from build_scripts.publish.code_folder import published_in
from build_scripts.publish.headers import CACHE_FOREVER, cache_control

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "",
    f"rules/{IN_FORCE}/5/",
    f"rules/{IN_FORCE}/techniques/",
    "lookup/",
    "calculator/",
    "calculator/board/",
]
APPS = {"lookup/": "lookup", "calculator/": "calculator"}
IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}/[^"]+\.js)"', re.M | re.S)


class Head(HTMLParser):
    """The page's preloads and stylesheets (in <head>), and the scripts it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.in_head = True
        self.preloads: dict[str, str] = {}  # href -> "script" or "module"
        self.stylesheets: list[str] = []
        self.blocking: list[str] = []  # classic scripts that stop the parser
        self.modules: list[str] = []
        self.fetched_by_head: list[str] = []  # script tags in <head> fetch their own files

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "body":
            self.in_head = False
        elif tag == "link" and a.get("rel") == "preload" and a.get("as") == "script":
            self.preloads[a["href"]] = "script"
        elif tag == "link" and a.get("rel") == "modulepreload":
            self.preloads[a["href"]] = "module"
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.stylesheets.append(a["href"])
        elif tag == "script" and a.get("src"):
            if self.in_head:
                self.fetched_by_head.append(a["src"])
            if a.get("type") == "module":
                self.modules.append(a["src"])
            elif not self.in_head and "async" not in a and "defer" not in a:
                self.blocking.append(a["src"])


def head_of(built_site, path: str) -> Head:
    head = Head()
    head.feed(built_site.page(path))
    return head


def site_path(page: str, href: str) -> str:
    """A page's relative href as a path from the site root."""
    return posixpath.normpath(posixpath.join(page, href))


def imports(site: Path, module: str) -> set[str]:
    """``module`` (a site path) and every module it imports statically, read from the
    published files themselves."""
    found: set[str] = set()
    todo = [module]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        folder = path.rsplit("/", 1)[0]
        for target in IMPORT.findall((site / path).read_text(encoding="utf-8")):
            todo.append(site_path(folder + "/", target))
    return found


@pytest.mark.parametrize("page", APPS)
def test_the_head_fetches_every_script_the_page_runs(built_site, page):
    """On the lookup and calculator, each classic script the parser stops at in <body> is
    preloaded from <head>, and so is every module the page runs at its start with all it
    imports."""
    head = head_of(built_site, page)
    preloaded = {site_path(page, href): kind for href, kind in head.preloads.items()}
    blocking = {site_path(page, src) for src in head.blocking}
    assert blocking
    assert blocking <= {p for p, kind in preloaded.items() if kind == "script"}
    app = published_in(built_site.site, f"assets/app/{APPS[page]}.js")
    modules = {site_path(page, src) for src in head.modules} | {app}
    needed = set().union(*(imports(built_site.site, m) for m in modules))
    assert needed - {site_path(page, src) for src in head.fetched_by_head} <= set(preloaded)


@pytest.mark.parametrize("page", [page for page in PAGES if page not in APPS])
def test_other_pages_fetch_from_the_head_only_what_stops_the_parser_midway(built_site, page):
    """A page without an app preloads the theme's two scripts that stop the parser in the
    middle of the page, and nothing else: its other scripts are at the end of a small
    page, and fetched early they shared the network with the first paint (preloads.py:
    largest contentful paint 2.38 -> 1.21 s, Lighthouse mobile)."""
    head = head_of(built_site, page)
    preloaded = {site_path(page, href): kind for href, kind in head.preloads.items()}
    theme = {
        published_in(built_site.site, f"assets/theme/md-{name}.js"): "script"
        for name in ("palette", "content")
    }
    assert theme == preloaded
    blocking = [site_path(page, src) for src in head.blocking]
    assert blocking[:2] == list(theme)  # the first two the parser stops at
    assert head.modules  # the page's modules are still run, found at the end of the page


@pytest.mark.parametrize("page", PAGES)
def test_nothing_preloaded_that_the_page_does_not_run(built_site, page):
    """No byte is fetched for nothing: every preload is a script of the page or a module
    its modules import (the calculator's modules are not preloaded on the lookup)."""
    head = head_of(built_site, page)
    runs = {site_path(page, src) for src in head.blocking + head.modules}
    modules = {site_path(page, src) for src in head.modules}
    if page in APPS:
        modules.add(published_in(built_site.site, f"assets/app/{APPS[page]}.js"))
    runs |= set().union(*(imports(built_site.site, m) for m in modules))
    # the engine's progress, imported when it starts
    runs.add(published_in(built_site.site, "assets/app/status.js"))
    assert {site_path(page, href) for href in head.preloads} <= runs
    if page == "lookup/":
        calculator = published_in(built_site.site, "assets/app/calculator.js")
        assert calculator not in {site_path(page, h) for h in head.preloads}


def test_our_stylesheets_are_one_file(built_site):
    """docs/assets/*.css are published as one file named by its content (cached for
    good), whole and in mkdocs.yml's order; the separate files are not published."""
    head = head_of(built_site, f"rules/{IN_FORCE}/5/")
    ours = [href for href in head.stylesheets if "/stylesheets/" not in href]
    assert len(ours) == 1
    path = site_path(f"rules/{IN_FORCE}/5/", ours[0])
    assert re.fullmatch(r"assets/lvl\.[0-9a-f]{10}\.css", path)
    assert CACHE_FOREVER == cache_control("/" + path)
    combined = (built_site.site / path).read_text(encoding="utf-8")
    listed = re.findall(r"^  - (assets/\S+\.css)$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert len(listed) == len(list((ROOT / "docs" / "assets").glob("*.css")))
    sources = [(ROOT / "docs" / name).read_text(encoding="utf-8").strip() for name in listed]
    where = [combined.index(source) for source in sources]
    assert where == sorted(where)
    for name in listed:
        assert not (built_site.site / name).exists()
    for page in PAGES:
        links = [site_path(page, href) for href in head_of(built_site, page).stylesheets]
        assert links == [site_path(f"rules/{IN_FORCE}/5/", href) for href in head.stylesheets]


# Material's own scripts: its hash in each name; its lunr language files are never
# fetched while the site is in English only (build_scripts/publish/site_files.py).
MATERIALS = re.compile(
    r"^assets/javascripts/(?:bundle|workers/search)\.[0-9a-f]{8}\.min\.js$"
    r"|^assets/javascripts/lunr/"
)
CONFIG_SEARCH = re.compile(r'"search": "([^"]*)"')


def test_every_script_a_page_names_is_named_by_its_content(built_site):
    """Every script a page names (scripts, preloads, the search worker of Material's
    configuration) is at a path that changes with its content, cached for good: ours in
    one folder named by the hash of them all (their relative imports kept), or with their
    own hash (the search worker), the theme's with Material's; no script of ours is left
    at a fixed path. So a page of one build never runs another build's script."""
    site = built_site.site
    named: set[str] = set()
    for page in PAGES:
        head = head_of(built_site, page)
        hrefs = [*head.preloads, *head.blocking, *head.modules, *head.fetched_by_head]
        hrefs += CONFIG_SEARCH.findall(built_site.page(page))
        named |= {site_path(page, href) for href in hrefs}
    folder = published_in(site, "assets/app/main.js").removesuffix("app/main.js")
    in_folder = {
        code_folder.source_of(path.relative_to(site).as_posix()): path.read_bytes()
        for path in (site / folder).rglob("*")
        if path.suffix in (".js", ".mjs")
    }
    assert folder == code_folder.folder_name(in_folder)
    (worker,) = site.glob("assets/javascripts/workers/search-when-free.*.js")
    worker_path = worker.relative_to(site).as_posix()
    assert worker_path == code_folder.hashed_name(
        search_worker.OUR_WORKER_SOURCE, worker.read_bytes()
    )
    assert {worker_path, published_in(site, "assets/lvl.js")} <= named
    assert [] == [
        path
        for path in named
        if not (path.startswith(folder) or path == worker_path or MATERIALS.match(path))
    ]
    assert {CACHE_FOREVER} == {cache_control(f"/{path}") for path in named}
    scripts = {p.relative_to(site).as_posix() for p in site.glob("assets/**/*.*js")}
    assert [] == sorted(
        path
        for path in scripts
        if not (path.startswith(folder) or path == worker_path or MATERIALS.match(path))
    )


@pytest.mark.browser
def test_scripts_are_requested_together(chromium, site_url, built_site):
    """The lookup's scripts are all requested before any of them has arrived: each is
    held back until every one has been asked for (requested one by one, as the parser
    reaches each, the first held would stop the page from asking for the next)."""
    page_path = "lookup/"
    head = head_of(built_site, page_path)
    wanted = {site_path(page_path, src) for src in head.blocking + head.modules}
    wanted |= imports(built_site.site, published_in(built_site.site, "assets/app/lookup.js"))
    context = chromium.new_context()
    page = context.new_page()
    held: dict = {}
    holding = [True]

    def hold(route) -> None:
        path = route.request.url.removeprefix(site_url).split("?")[0]
        if holding[0] and path in wanted:
            held[path] = route
        else:
            route.continue_()

    page.route("**/*.js", hold)
    page.goto(
        site_url + page_path + f"?edition={IN_FORCE}&age=14&belt=white&uniform=gi",
        wait_until="commit",
    )
    for _ in range(100):  # 10 s
        if set(held) == wanted:
            break
        page.wait_for_timeout(100)
    asked = set(held)
    holding[0] = False
    for route in held.values():
        route.continue_()
    assert wanted == asked
    # and the page works once they arrive (its rows are in folded sections)
    page.locator("#lookup-rows tr").first.wait_for(state="attached")
    context.close()
