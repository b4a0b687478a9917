"""The built site: strict build, links and anchors, every clause, permalinks, data files."""

from __future__ import annotations

import hashlib
import json
import re
from html.parser import HTMLParser
from typing import ClassVar

import lvl_rules
from build_scripts.bundle import wheel
from build_scripts.bundle.manifest import MANIFEST_ELEMENT_ID, manifest_element
from build_scripts.pages.urls import clause_page, page_url
from build_scripts.tools.check_links import check_site
from lvl_rules import export_edition, load_all


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key == "id" and value:
                self.ids.append(value)


def ids_on(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return parser.ids


def test_strict_build_has_no_warnings(built_site):
    """`mkdocs build --strict`, with link and anchor validation on, warns about nothing."""
    assert [] == [line for line in built_site.output.splitlines() if "WARNING" in line]


def test_no_broken_internal_links_or_anchors(built_site):
    """Every internal href, src and redirect reaches a file, and every #fragment an id."""
    assert [] == check_site(built_site.site)


def test_every_clause_is_on_its_page_exactly_once(built_site):
    """Each clause of each edition is on its section page once, as an element with its ID."""
    for edition in load_all():
        for clause in edition.clauses.values():
            html = built_site.page(page_url(clause_page(edition.id, clause)))
            assert 1 == ids_on(html).count(clause.id), (edition.id, clause.id)
            pattern = rf'<h\d[^>]* id="{re.escape(clause.id)}"'
            assert re.search(pattern, html), (edition.id, clause.id)


def test_every_clause_is_on_the_printable_page_once(built_site):
    """The printable page of an edition holds every clause of it, once each."""
    for edition in load_all():
        ids = ids_on(built_site.page(f"rules/{edition.id}/print/"))
        assert [1] * len(edition.clauses) == [ids.count(c) for c in edition.clauses]


def test_every_permalink_lands_on_its_clause(built_site):
    """/cite/<edition>/<clause>/ redirects (and links) to the page holding that clause's id."""
    for edition in load_all():
        for clause in edition.clauses.values():
            html = built_site.page(f"cite/{edition.id}/{clause.id}/")
            refresh = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', html)
            assert refresh, (edition.id, clause.id)
            target, _, fragment = refresh.group(1).partition("#")
            assert clause.id == fragment
            landing = built_site.page(f"cite/{edition.id}/{clause.id}/{target}")
            assert clause.id in ids_on(landing)
            assert (
                f'href="{refresh.group(1)}"' in html
            )  # a plain link for browsers that do not redirect


def test_data_files_are_the_export(built_site):
    """/data/<edition>.json is exactly `lvl-rules export` of that edition."""
    for edition in load_all():
        published = json.loads(built_site.page(f"data/{edition.id}.json"))
        assert export_edition(edition) == published


class _Requests(HTMLParser):
    """What a page makes the browser fetch by itself (links a reader clicks are not it)."""

    FETCHED: ClassVar[dict[str, str]] = {
        "script": "src",
        "img": "src",
        "source": "src",
        "iframe": "src",
        "link": "href",
    }

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        wanted = self.FETCHED.get(tag)
        if wanted and values.get(wanted) and values.get("rel") not in ("canonical", "alternate"):
            self.urls.append(values[wanted] or "")


def test_pages_fetch_nothing_from_another_origin(built_site):
    """No page loads a script, style, font or image from another origin (no CDN, no fonts)."""
    offenders = []
    for path in built_site.site.rglob("*.html"):
        parser = _Requests()
        parser.feed(path.read_text(encoding="utf-8"))
        offenders += [
            f"{path.relative_to(built_site.site)}: {url}"
            for url in parser.urls
            if re.match(r"^(?:[a-z]+:)?//", url) and not url.startswith("data:")
        ]
    assert [] == offenders


def test_manifest_element_cannot_end_early():
    """Nothing in the manifest can close its <script> element or open a comment there:
    every "<" is escaped, and the JSON still reads back the same."""
    manifest = {"path": "</script><script>alert(1)</script>", "note": "<!-- x"}
    element = manifest_element(manifest)
    inside = element.removeprefix(
        f'<script type="application/json" id="{MANIFEST_ELEMENT_ID}">'
    ).removesuffix("</script>")
    assert "<" not in inside
    assert json.loads(inside) == manifest


def test_engine_pages_carry_the_manifest_of_this_build(built_site):
    """The pages that start the engine hold engine/manifest.json itself, before the
    client's script; no other page does."""
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    element_id = MANIFEST_ELEMENT_ID
    element = re.compile(
        rf'<script type="application/json" id="{element_id}">(.*?)</script>\s*'
        r'<script type="module" async src="[^"]*engine-client\.js">',
        re.S,
    )
    holders = {}
    for page in built_site.site.rglob("*.html"):
        text = page.read_text("utf-8")
        if element_id in text:
            holders[page.relative_to(built_site.site).as_posix()] = element.search(text)
    # the lookup answers without it; the match sheet asks the engine for its record
    assert set(holders) == {"calculator/index.html", "calculator/sheet/index.html"}
    for found in holders.values():
        assert found is not None
        assert json.loads(found.group(1)) == manifest


def test_lock_entry_is_what_pyodide_lockfile_add_wheels_writes(built_site):
    """The wheel's lock entry has the fields and values `pyodide lockfile add-wheels`
    (pyodide-build 0.39.2, pyodide-lock 0.2.1) wrote for this wheel, bar its path."""
    manifest = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    entry = manifest["pyodide"]["lockfile"]["packages"]["lvl-rules"]
    published = built_site.site / "engine" / entry["file_name"]
    # Written by `pyodide lockfile add-wheels --input pyodide-lock.json wheel` on Python
    # 3.12 (offline); only file_name (relative to where the wheel is) and sha256 vary.
    written_by_add_wheels = {
        "depends": [],
        "imports": ["lvl_rules"],
        "install_dir": "site",
        "name": "lvl-rules",
        "package_type": "package",
        "tool": {},
        "unvendored_tests": False,
        "version": lvl_rules.__version__,
    }
    assert written_by_add_wheels == {
        k: v for k, v in entry.items() if k not in ("file_name", "sha256")
    }
    assert hashlib.sha256(published.read_bytes()).hexdigest() == entry["sha256"]
    assert entry["file_name"] == manifest["wheel"]["path"]


def test_each_step_runs_once_with_one_wheel(built_site):
    """The build ran MkDocs' hook and the host files once each, and its engine carries
    the browser's copy of dist/'s wheel, which asking again reuses (no second build)."""
    assert 1 == built_site.output.count("LVL Rules timings:")
    assert 1 == built_site.output.count("LVL Rules host files:")
    whole, current = wheel.current_wheel(), wheel.browser_wheel()
    made_at = (whole.stat().st_mtime_ns, current.stat().st_mtime_ns)
    assert (whole, current) == (wheel.current_wheel(), wheel.browser_wheel())
    assert made_at == (whole.stat().st_mtime_ns, current.stat().st_mtime_ns)
    engine = json.loads((built_site.site / "engine" / "manifest.json").read_text("utf-8"))
    published = built_site.site / "engine" / engine["wheel"]["path"]
    assert (current.name, current.read_bytes()) == (published.name, published.read_bytes())
