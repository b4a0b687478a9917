"""The Content-Security-Policy and the other security headers: in every page, in every
response, in the static host's _headers file, and obeyed by every page in Chromium."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

import pytest
from engine_page import engine_when_ready
from headers_file import on_cloudflare, on_netlify, parse_host_headers
from timeline_names import IN_FORCE

from build_scripts.publish import security
from build_scripts.publish.code_folder import published_in
from build_scripts.tools.serve import start_server, stop_server

CALCULATOR = f"calculator/?edition={IN_FORCE}&age=30&belt=purple&uniform=nogi"  # starts the engine
SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


class Head(HTMLParser):
    """The CSP <meta> tags of a page and the tags that came before the first of them."""

    def __init__(self) -> None:
        super().__init__()
        self.policies: list[str] = []
        self.loads_before: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append(values.get("content") or "")
        elif tag in ("script", "link", "style", "img") and not self.policies:
            self.loads_before.append(tag)


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    """Status, headers and body text of a response (a 404 included)."""
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            return (
                response.status,
                dict(response.headers),
                response.read().decode("utf-8", "replace"),
            )
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def worker_path(site) -> str:
    """The engine worker's URL path in the build at ``site`` (its name carries a hash)."""
    return "/" + published_in(site, security.WORKER_SOURCE)


def html_pages(site) -> list[str]:
    """Every HTML file of the build, as a URL path from the site root."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def test_every_page_carries_the_policy_in_a_meta_tag(built_site):
    """Each HTML file has exactly one CSP <meta>, the page policy, before any script, and
    its <meta charset> still within the first 1024 bytes, where browsers look for it."""
    wrong = {}
    for path in html_pages(built_site.site):
        html = (built_site.site / path).read_bytes()
        head = Head()
        head.feed(html.decode("utf-8"))
        charset = html.find(b"<meta charset=")
        if head.policies != [security.meta_policy()] or head.loads_before or not 0 < charset < 1000:
            wrong[path] = (head.policies, head.loads_before, charset)
    assert {} == wrong
    assert len(html_pages(built_site.site)) > 100


def test_no_page_policy_allows_inline_eval_or_wasm():
    """Pages: no 'unsafe-inline', 'unsafe-eval' or 'wasm-unsafe-eval'; the worker: wasm."""
    for policy in (security.PAGE_POLICY, security.meta_policy()):
        assert [] == [word for word in security.FORBIDDEN_IN_PAGES if word in policy]
    assert "frame-ancestors" not in security.meta_policy()
    assert "frame-ancestors 'none'" in security.PAGE_POLICY
    assert "'wasm-unsafe-eval'" in security.script_sources(security.WORKER_POLICY)
    assert security.WORKER_POLICY == security.PAGE_POLICY.replace(
        "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
    )


@pytest.mark.parametrize(
    ("path", "policy"),
    [
        ("", security.PAGE_POLICY),
        (f"rules/{IN_FORCE}/5/", security.PAGE_POLICY),
        (f"lookup/?edition={IN_FORCE}&age=30", security.PAGE_POLICY),
        ("calculator/", security.PAGE_POLICY),
        ("no/such/page/", security.PAGE_POLICY),
        ("search/search_index.json", security.PAGE_POLICY),
        ("sw.js", security.PAGE_POLICY),
        ("assets/engine/engine-client.js", security.PAGE_POLICY),
        ("assets/engine/engine-worker.js", security.WORKER_POLICY),
    ],
)
def test_responses_carry_the_headers(built_site, site_url, path, policy):
    """`make serve` sends the policy (the worker's own), nosniff and no referrer."""
    if path.startswith("assets/"):  # a script's path under docs/: where this build put it
        path = published_in(built_site.site, path)
    status, headers, body = fetch(site_url + path)
    assert (404 if path.startswith("no/") else 200) == status
    assert {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    } == {name: headers.get(name) for name in SECURITY_HEADERS}
    if headers["Content-Type"].startswith("text/html"):
        head = Head()
        head.feed(body)
        assert [security.meta_policy()] == head.policies
    if path == "sw.js":
        assert "no-cache" == headers["Cache-Control"]


# URLs with no file of their own: 404s at every depth, folders without their slash (a
# 301 to the folder), a file missing beside the engine worker.
NO_FILE = (
    "/no/such/page/",
    "/no-such-file.js",
    "/rules",
    "/rules/2",
    "/assets/engine",
    "/assets/engine/no-such-worker.js",
    "/engine/pyodide/no-such-version/pyodide.mjs",
)
CLOUDFLARE_MAX_RULES = 100  # and characters in a line: pages-shared/metadata-generator
CLOUDFLARE_MAX_LINE = 2000


def head(site_url: str, url: str) -> dict[str, str]:
    """The headers of a HEAD request, a redirect not followed."""
    parts = urllib.parse.urlsplit(site_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request("HEAD", url)
        response = connection.getresponse()
        response.read()
        return {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()


def test_host_headers_file_sends_what_the_server_sends(built_site, site_url):
    """_headers gives every URL the server's security headers as Cloudflare Pages and
    Netlify combine its rules: each file, each folder, and URLs with no file (404s, a
    folder's redirect); within Cloudflare's limits."""
    text = (built_site.site / "_headers").read_text(encoding="utf-8")
    rules = parse_host_headers(text)
    urls = [
        "/" + p.relative_to(built_site.site).as_posix()
        for p in sorted(built_site.site.rglob("*"))
        if p.is_file()
        and p.name != "_headers"
        and not (p.suffix in (".gz", ".br") and p.with_suffix("").exists())
    ]
    urls += ["/", f"/rules/{IN_FORCE}/5/", *NO_FILE]
    differ = {}
    for url in urls:
        headers = head(site_url, url)
        served = {name: headers.get(name.lower()) for name in SECURITY_HEADERS}
        if url == "/sw.js":
            served["Cache-Control"] = headers.get("cache-control")
        for host in (on_cloudflare, on_netlify):
            from_file = host(rules, url)
            if served != {name: from_file.get(name.lower()) for name in served}:
                differ[(url, host.__name__)] = (served, from_file)
    assert {} == differ
    assert (
        security.WORKER_POLICY
        == on_cloudflare(rules, worker_path(built_site.site))["content-security-policy"]
    )
    assert len(rules) <= CLOUDFLARE_MAX_RULES
    assert [] == [line[:80] for line in text.splitlines() if len(line) > CLOUDFLARE_MAX_LINE]


@pytest.mark.browser
def test_worker_policy_comes_from_the_worker_response(chromium, built_site, site_url):
    """The page policy lacks 'wasm-unsafe-eval' yet the engine runs (the worker's own
    response allows it); served without it, the engine fails at once, saying why."""
    context = chromium.new_context()
    try:
        page = context.new_page()
        response = page.goto(f"{site_url}{CALCULATOR}")
        assert "wasm-unsafe-eval" not in response.headers["content-security-policy"]
        engine_when_ready(page)  # the engine runs
    finally:
        context.close()

    csp = {worker_path(built_site.site): security.PAGE_POLICY}
    server, url = start_server(built_site.site, csp=csp)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{url}{CALCULATOR}")
        failed = page.locator("[data-engine-failed]")
        failed.wait_for(state="visible", timeout=20_000)
        assert "'wasm-unsafe-eval'" in failed.inner_text()
    finally:
        context.close()
        stop_server(server)


class Crawl:
    """What a browser context fetched from elsewhere and what its console reported."""

    def __init__(self, context, site_url: str) -> None:
        self.origin = site_url.rstrip("/")
        self.problems: list[str] = []
        context.on("request", self._request)
        context.on("console", self._console)
        context.on("weberror", lambda e: self.problems.append(f"page error: {e.error}"))

    def _request(self, request) -> None:
        if not request.url.startswith((self.origin, "data:", "blob:")):
            self.problems.append(f"request to another origin: {request.url}")

    def _console(self, message) -> None:
        text = message.text
        if message.type != "error" and "Content Security Policy" not in text:
            return
        where = message.location.get("url", "")
        if where == f"{self.origin}/favicon.ico":
            return  # the permalink pages name no icon, so Chromium asks for /favicon.ico
        self.problems.append(f"{message.type}: {message.text} ({where})")


@pytest.mark.browser
def test_crawl_every_page_without_a_csp_violation(chromium, built_site, site_url):
    """Every page of the site in one Chromium context: no console error (CSP violations
    are console errors) and not one request to another origin."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    crawl = Crawl(context, site_url)
    page = context.new_page()
    try:
        for path in html_pages(built_site.site):
            page.goto(site_url + path.removesuffix("index.html"), wait_until="load")
            if 'http-equiv="refresh"' in (built_site.site / path).read_text(encoding="utf-8"):
                # a permalink: let its redirect start (its target is crawled on its own)
                page.wait_for_url(lambda url: "/cite/" not in url, wait_until="commit")
    finally:
        context.close()
    assert [] == crawl.problems
