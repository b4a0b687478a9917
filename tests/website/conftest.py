"""Fixtures for the site tests: one fresh build of the whole site per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from build_scripts.tools.serve import start_server, stop_server

# build_scripts imports from the repository root, which `make test` puts on sys.path
# after site-packages (a .pth file): lvl_rules still comes from the installed wheel.
ROOT = Path(__file__).resolve().parents[2]


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker these tests carry (also registered by the package tests)."""
    config.addinivalue_line("markers", "host: needs a subprocess or files outside the package")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every site test needs the repository and a subprocess: mark them `host`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.host)


class Build:
    """A finished build of the site (`build_scripts.build_site`, as `make site`)."""

    def __init__(self, site: Path, output: str) -> None:
        self.site = site
        self.output = output

    def page(self, url_path: str) -> str:
        """The HTML served at a site URL path such as ``rules/2/5/``."""
        path = self.site / url_path
        if url_path.endswith("/") or path.is_dir():
            path = path / "index.html"
        return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Build the site from scratch, exactly as `make site` does (PDFs included)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "build_scripts.build_site", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return Build(out, output)


@pytest.fixture(scope="session")
def site_url(built_site):
    """The fresh build, served with the production headers (CSP and friends)."""
    server, url = start_server(built_site.site)
    yield url
    stop_server(server)


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium, driven by Playwright (never `playwright install`)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS
        )
        yield browser
        browser.close()


class Visit:
    """A browser page that records what it fetched and what the console said."""

    def __init__(self, context, origin: str) -> None:
        self.page = context.new_page()
        self.origin = origin.rstrip("/")
        self.foreign: list[str] = []
        self.console_errors: list[str] = []
        self.page.on("request", self._request)
        self.page.on(
            "console",
            lambda m: self.console_errors.append(m.text) if m.type == "error" else None,
        )
        self.page.on("pageerror", lambda e: self.console_errors.append(str(e)))

    def _request(self, request) -> None:
        url = request.url
        if not url.startswith((self.origin, "data:", "blob:")):
            self.foreign.append(url)


@pytest.fixture
def visit(chromium, site_url):
    """A fresh browser context (cold cache) per test; fails on any request elsewhere."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    visits: list[Visit] = []

    def open_page() -> Visit:
        visits.append(Visit(context, site_url))
        return visits[-1]

    yield open_page
    context.close()
    assert [] == [url for v in visits for url in v.foreign]
    assert [] == [text for v in visits for text in v.console_errors]


@pytest.fixture
def screen(request, chromium, site_url):
    """A browser context on the screen named by the test's parameter (match_screen.SCREENS);
    no console error and no request to another origin by the end of the test."""
    from match_screen import SCREENS, Screen

    shown = Screen(chromium, site_url, SCREENS[request.param])
    yield shown
    shown.context.close()
    assert ([], []) == (shown.errors, shown.foreign)
