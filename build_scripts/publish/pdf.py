"""Each edition's printable page (/rules/<edition>/print/) as a PDF, by headless Chromium,
and its technique chart as a poster.

``build_scripts.build_site`` serves the built site with the production headers, then
:func:`write_pdfs` opens every ``rules/<edition>/print/`` page and prints it with the
site's own print stylesheet (no navigation, no buttons) to ``data/<edition>.pdf``: A4,
page numbers in the footer. It comes before the host files, so the service worker keeps
the PDFs too.

:func:`write_posters` prints each chart on one page with a QR code to the chart online,
at the site's one public address: MkDocs's ``site_url``, which ``LVL_SITE_URL`` sets
(mkdocs.yml), as the built pages name it. Without one (the default is ``make serve``'s
own ``http://127.0.0.1:8000/``), a poster has neither QR code nor address, and the build
says so: a QR code to a loopback or build machine's address would be dead on the wall.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from build_scripts.pages.poster import SIZES, poster_html, poster_path, printable_px
from build_scripts.pages.urls import public_address
from lvl_rules import load_edition

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# Chromium fills the classes pageNumber and totalPages; the template needs its own style.
FOOTER = (
    '<div style="width:100%;margin:0 12mm;font:8px sans-serif;color:#444;display:flex;'
    'justify-content:space-between"><span>{title}</span>'
    '<span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span>'
    "</div>"
)


def print_pages(site_dir: Path) -> list[str]:
    """The editions whose printable page is in a built site, in order."""
    return [page.parent.parent.name for page in sorted(site_dir.glob("rules/*/print/index.html"))]


def write_pdfs(site_dir: Path, base_url: str, browser: Browser) -> list[Path]:
    """Print every edition's printable page, fetched from ``base_url`` (the site served),
    to ``<site_dir>/data/<edition>.pdf``."""
    editions = print_pages(site_dir)
    if not editions:
        raise FileNotFoundError(f"no rules/<edition>/print/ page in {site_dir}")
    out_dir = site_dir / "data"
    out_dir.mkdir(parents=True, exist_ok=True)
    # No service worker: a PDF comes from the files just built, never from a cache.
    context = browser.new_context(service_workers="block")
    written = []
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        for edition in editions:
            page.goto(f"{base_url}rules/{edition}/print/", wait_until="load")
            page.evaluate("() => document.fonts.ready")
            target = out_dir / f"{edition}.pdf"
            page.pdf(
                path=str(target),
                format="A4",
                margin={"top": "16mm", "bottom": "18mm", "left": "14mm", "right": "14mm"},
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER.format(title=escape(page.inner_text("h1"))),
                outline=True,
                tagged=True,
            )
            written.append(target)
    finally:
        context.close()
    return written


CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)"')


def site_address(site_dir: Path) -> str:
    """The site's address as the build wrote it (the home page's canonical link): MkDocs's
    ``site_url``, which ``LVL_SITE_URL`` sets (mkdocs.yml)."""
    html = (site_dir / "index.html").read_text("utf-8")
    found = CANONICAL.search(html)
    if found is None:
        raise ValueError(f"{site_dir / 'index.html'} has no canonical link")
    return found.group(1)


def chart_address(public: str, edition_id: str) -> str:
    """The chart's public address: ``https://…/rules/2/techniques/``."""
    return urljoin(
        public if public.endswith("/") else public + "/", f"rules/{edition_id}/techniques/"
    )


def write_posters(site_dir: Path, browser: Browser) -> list[Path]:
    """Each edition's technique chart as a one-page poster, A4 landscape and A3, with a QR
    code to the chart's public address (``data/<edition>-poster-<size>.pdf``); a build
    with no public address prints them without, and says so."""
    address = site_address(site_dir)
    public = public_address(address)
    if public is None:
        print(
            f"LVL Rules posters: no QR code and no address on them: the site's address, "
            f"{address}, is not public (set LVL_SITE_URL to the address the site is "
            "published at)",
            flush=True,
        )
    return print_posters(site_dir, browser, public, site_dir / "data")


def print_posters(
    site_dir: Path, browser: Browser, public: str | None, out_dir: Path
) -> list[Path]:
    """Print the posters of every edition in ``site_dir`` into ``out_dir``, with a QR code
    to the chart at ``public`` (None: without)."""
    written = []
    out_dir.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        for edition_id in print_pages(site_dir):
            edition = load_edition(edition_id)
            url = chart_address(public, edition_id) if public else None
            for size, paper, landscape in SIZES:
                width, height = printable_px(size)
                page.set_viewport_size({"width": width, "height": height})
                page.set_content(poster_html(edition, url, size), wait_until="load")
                tall = page.evaluate("() => document.documentElement.scrollHeight")
                target = out_dir / Path(poster_path(edition_id, size)).name
                page.pdf(
                    path=str(target),
                    format=paper,
                    landscape=landscape,
                    print_background=True,
                    scale=min(1.0, 0.98 * height / tall),  # one page, whatever the data
                    tagged=True,
                )
                written.append(target)
    finally:
        context.close()
    return written
