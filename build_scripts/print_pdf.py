"""Each edition's printable page (/rules/<edition>/print/) as a PDF, by headless Chromium.

    .venv/bin/python -m build_scripts.print_pdf [SITE_DIR]      # default: site

Serves the built site with build_scripts/serve.py (the production headers), opens every
``rules/<edition>/print/`` page in Debian's Chromium through Playwright, and prints it
with the site's own print stylesheet (no navigation, no buttons) to
``data/<edition>.pdf``: A4, page numbers in the footer. Run after ``mkdocs build``; the
PDFs are not part of the strict build unless the hook calls :func:`write_pdfs`.
"""

from __future__ import annotations

import argparse
import sys
import time
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from build_scripts.chromium import CHROMIUM, LAUNCH_ARGS  # noqa: E402
from build_scripts.serve import start_server, stop_server  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# Chromium fills the classes pageNumber and totalPages; the template needs its own style.
FOOTER = (
    '<div style="width:100%;margin:0 12mm;font:8px sans-serif;color:#444;display:flex;'
    'justify-content:space-between"><span>{title}</span>'
    '<span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span>'
    "</div>"
)


def print_pages(site_dir: Path) -> dict[str, Path]:
    """Every edition's printable page in a built site: {edition id: index.html}."""
    found = sorted(Path(site_dir).glob("rules/*/print/index.html"))
    return {page.parent.parent.name: page for page in found}


def write_pdfs(
    site_dir: Path, *, out_dir: Path | None = None, browser: Browser | None = None
) -> list[Path]:
    """Print every edition's printable page to ``<out_dir or site_dir/data>/<id>.pdf``.

    ``browser``: a Playwright Chromium already running (tests share theirs); without
    it, Debian's Chromium is started and closed here.
    """
    site_dir = Path(site_dir)
    out_dir = Path(out_dir) if out_dir is not None else site_dir / "data"
    pages = print_pages(site_dir)
    if not pages:
        raise FileNotFoundError(f"no rules/<edition>/print/ page in {site_dir}: build first")
    out_dir.mkdir(parents=True, exist_ok=True)
    if browser is None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            own = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS
            )
            try:
                return write_pdfs(site_dir, out_dir=out_dir, browser=own)
            finally:
                own.close()
    written = []
    server, base = start_server(site_dir)
    # No service worker: a PDF comes from the files just built, never from a cache.
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        for edition in pages:
            page.goto(f"{base}rules/{edition}/print/", wait_until="load")
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
        stop_server(server)
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the PDFs of a built site and say how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path, nargs="?", default=ROOT / "site")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        written = write_pdfs(args.site_dir)
    except FileNotFoundError as error:
        print(f"print_pdf: {error}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    for path in written:
        print(f"{path} ({path.stat().st_size / 1024:.0f} KB)")
    print(f"{len(written)} PDFs in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
