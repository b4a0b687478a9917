"""An edition's technique chart as a one-page poster to pin on a gym wall: every
technique a row (never split across pages), legal and not legal by colour, mark and
words, and a QR code to the chart online (made at build time with segno) where the site
has a public address.

The poster is a self-contained HTML document (its style inline, its QR code an inline
SVG) that :mod:`build_scripts.publish.pdf` prints to PDF; it is not published as a page.
"""

from __future__ import annotations

import io
from html import escape

import segno

from lvl_rules.faces.site import Edition, poster_legend, poster_scan, poster_title

from .chart import chart_table

# Poster sizes: (name in the file name, Chromium's paper format, landscape).
SIZES = (("a4", "A4", True), ("a3", "A3", True))


def poster_path(edition_id: str, size: str) -> str:
    """Where an edition's chart poster is published, under the site: ``data/2-poster-a4.pdf``."""
    return f"data/{edition_id}-poster-{size}.pdf"


# The paper's printable area in CSS pixels (landscape, less the 8 mm margins), by size:
# what the poster is laid out in, and shrunk to fit if it is taller (one page, always).
PX_PER_MM = 96 / 25.4
PAPER_MM = {"a4": (297, 210), "a3": (420, 297)}
MARGIN_MM = 8


def printable_px(size: str) -> tuple[int, int]:
    """The printable width and height of a poster size, in CSS pixels."""
    width, height = PAPER_MM[size]
    return (
        int((width - 2 * MARGIN_MM) * PX_PER_MM),
        int((height - 2 * MARGIN_MM) * PX_PER_MM),
    )


STYLE = """
@page { margin: 8mm; }  /* MARGIN_MM */
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; font: 8.4pt/1.25 system-ui, "DejaVu Sans", sans-serif; color: #111; }
body.a3 { font-size: 12pt; }
body.a3 th, body.a3 td { padding: 1.7mm 1.8mm; }
header { display: flex; justify-content: space-between; align-items: center; gap: 6mm;
  margin: 0 0 2.5mm; }
h1 { margin: 0; font-size: 1.9em; }
.legend { margin: 1mm 0 0; font-size: 0.95em; }
.qr { display: flex; align-items: center; gap: 3mm; font-size: 0.85em; max-width: 95mm; }
.qr strong { overflow-wrap: anywhere; }
.qr svg { width: 24mm; height: 24mm; flex: none; }
body.a3 .qr svg { width: 32mm; height: 32mm; }
.lvl-chart-wrap { overflow: visible; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
caption { display: none; }
th, td { border: 0.3mm solid #fff; padding: 0.9mm 1.2mm; vertical-align: middle; }
thead th { background: #263238; color: #fff; text-align: left; font-size: 0.92em; }
thead th:first-child { width: 24%; }
tbody th { text-align: left; background: #eceff1; }
tr { break-inside: avoid; page-break-inside: avoid; }
.lvl-technique { font-weight: 700; }
.lvl-technique-kind { display: none; }
.lvl-reading { display: block; font-weight: 400; font-size: 0.85em; }
td.lvl-yes { background: #c8e6c9; color: #0d3d12; font-weight: 700; }
td.lvl-some { background: #fff3c4; color: #4a3b00; font-weight: 700; }
td.lvl-no { background: #ffd7d2; color: #6d0f0f; }
td.lvl-never { background: #f4a39a; color: #4d0a0a; font-weight: 700; }
footer { margin: 2mm 0 0; font-size: 0.8em; color: #333; }
"""


def qr_svg(url: str) -> str:
    """The QR code of a URL as an inline SVG element."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, border=2, omitsize=True, scale=1)
    return out.getvalue().decode("ascii")


def poster_html(edition: Edition, chart_url: str | None, size: str) -> str:
    """The poster of an edition's chart, for one paper size (``a4`` or ``a3``), with a QR
    code to ``chart_url`` (None: a site with no public address, no QR code)."""
    scan = (
        f'<div class="qr">{qr_svg(chart_url)}<span>{escape(poster_scan())}<br>'
        f"<strong>{escape(chart_url)}</strong></span></div>"
        if chart_url
        else ""
    )
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(poster_title(edition))}'
        f"</title><style>{STYLE}</style></head>"
        f'<body class="{size}"><header><div><h1>{escape(poster_title(edition))}</h1>'
        f'<p class="legend">{poster_legend(edition)}</p></div>{scan}</header>'
        f"{chart_table(edition)}"
        f"<footer>{escape(edition.name)}, {escape(edition.title)}.</footer>"
        "</body></html>"
    )
