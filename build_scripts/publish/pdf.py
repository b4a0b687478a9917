"""Each edition's printable page (/rules/<edition>/print/) as a PDF, by headless Chromium.

``build_scripts.build_site`` serves the built site with the production headers, then
:func:`write_pdfs` opens every ``rules/<edition>/print/`` page and prints it with the
site's own print stylesheet (no navigation, no buttons) to ``data/<edition>.pdf``: A4,
page numbers in the footer. It comes before the host files, so the service worker keeps
the PDFs too.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

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
