"""Each division page's picture and poster (build_scripts/pages/division_pages.py): the
page at a division's address, as Chromium draws it without its script and with a style of
its own, taken as ``preview.png`` (its link preview, ``og:image``: 600x315, a few kB) and
printed as ``poster-a4.pdf`` (that division's answer on one A4 page, the one My division
links to, with a QR code to the division's address where the site has a public one).
Run by ``build_scripts.build_site`` with the other PDFs, from the site served.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from build_scripts.pages.division_pages import FOLDER, POSTER, PREVIEW, PREVIEW_SIZE
from build_scripts.pages.poster import PX_PER_MM, qr_svg
from build_scripts.pages.urls import public_address

from .pdf import site_address

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# The picture: the division, what it may do, the first changes to come.
CARD_STYLE = """
html { background: #fff; }
body { margin: 0; width: 600px; height: 315px; overflow: hidden; color: #111;
  font: 15px/1.3 system-ui, "DejaVu Sans", sans-serif; }
main { box-sizing: border-box; height: 315px; padding: 14px 20px;
  border-top: 10px solid #263238; }
h1 { font-size: 19px; line-height: 1.2; margin: 0 0 10px; }
h2, p, ul.penalties, ul.not-yet li:nth-child(n+3) { display: none; }
ul { list-style: none; margin: 0; padding: 0; }
li { margin: 0 0 9px; padding: 0 8px; border-left: 6px solid; overflow: hidden;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; }
ul.may li { border-color: #2e7d32; }
ul.may li:first-child { font-weight: 700; -webkit-line-clamp: 3; }
ul.not-yet li { border-color: #c62828; }
.lvl-reading, .lvl-reading a { font-weight: 400; color: #444; text-decoration: none; }
"""
# The poster: the whole glance on one A4 page, large.
POSTER_STYLE = """
@page { margin: 12mm; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #111; font: 13pt/1.35 system-ui, "DejaVu Sans", sans-serif; }
h1 { font-size: 22pt; margin: 0 0 4mm; }
h2 { font-size: 14pt; margin: 5mm 0 2mm; }
ul { list-style: none; margin: 0; padding: 0; }
li { margin: 0 0 2mm; padding: 1.5mm 3mm; border-left: 2mm solid #90a4ae; }
ul.may li { border-color: #2e7d32; background: #e8f5e9; }
ul.not-yet li { border-color: #c62828; background: #ffebee; }
p { display: none; }
.qr { display: flex; gap: 4mm; align-items: center; margin: 6mm 0 0; font-size: 10pt; }
.qr svg { width: 28mm; height: 28mm; }
"""


# The A4 poster's printable area in CSS pixels (portrait, less the 12 mm margins).
POSTER_PX = (int((210 - 24) * PX_PER_MM), int((297 - 24) * PX_PER_MM))


def division_folders(site_dir: Path) -> list[Path]:
    """The folder of every division page in a built site."""
    return sorted(page.parent for page in (site_dir / FOLDER).glob("*/index.html"))


def write_previews(site_dir: Path, base_url: str, browser: Browser) -> list[Path]:
    """Take every division page's picture and print its poster, from ``base_url`` (the
    site served); the poster's QR code leads to the division's public address, if any."""
    started = time.perf_counter()
    public = public_address(site_address(site_dir))
    written: list[Path] = []
    width, height = PREVIEW_SIZE
    context = browser.new_context(
        bypass_csp=True, service_workers="block", viewport={"width": width, "height": height}
    )
    try:
        page = context.new_page()
        # The page as a link preview reads it: its script (which moves on) never runs.
        page.route("**/*.js", lambda route: route.abort())
        for folder in division_folders(site_dir):
            path = folder.relative_to(site_dir).as_posix() + "/"
            page.goto(urljoin(base_url, path))
            page.add_style_tag(content=CARD_STYLE)
            page.screenshot(path=str(folder / PREVIEW))
            page.goto(urljoin(base_url, path))
            page.add_style_tag(content=POSTER_STYLE)
            if public:
                address = urljoin(public, path)
                page.evaluate(
                    """([svg, address]) => {
                         const box = document.createElement("div");
                         box.className = "qr";
                         box.innerHTML = svg;
                         box.append(address);
                         document.querySelector("main").append(box);
                       }""",
                    [qr_svg(address), address],
                )
            page.set_viewport_size({"width": POSTER_PX[0], "height": POSTER_PX[1]})
            page.emulate_media(media="print")
            tall = page.evaluate("() => document.documentElement.scrollHeight")
            page.pdf(
                path=str(folder / POSTER), format="A4", print_background=True, tagged=True,
                scale=min(1.0, 0.98 * POSTER_PX[1] / tall),  # one page, whatever the answer
            )  # fmt: skip
            page.emulate_media(media="screen")
            page.set_viewport_size({"width": width, "height": height})
            written += [folder / PREVIEW, folder / POSTER]
    finally:
        context.close()
    print(
        f"LVL Rules answers' pictures and posters: {len(written) // 2} each, "
        f"{sum(p.stat().st_size for p in written if p.name == PREVIEW)} bytes of pictures, "
        f"{sum(p.stat().st_size for p in written if p.name == POSTER)} bytes of posters, "
        f"{time.perf_counter() - started:.2f}s",
        flush=True,
    )
    return written
