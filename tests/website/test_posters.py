"""The chart posters: each edition's technique chart on one page, A4 and A3 landscape,
every technique on it, with the chart's address (and its QR code), linked from the chart."""

from __future__ import annotations

import re
import unicodedata

import pytest
from pypdf import PdfReader

from build_scripts.pages.poster import SIZES, poster_html, qr_svg
from build_scripts.publish.pdf import chart_url, poster_path
from lvl_rules import load_all

pytestmark = pytest.mark.browser

POSTERS = [(edition, size) for edition in load_all() for size, _, _ in SIZES]


def _text(path) -> str:
    words = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    return " ".join(unicodedata.normalize("NFKC", words).split())


@pytest.mark.parametrize(
    ("edition", "size"), POSTERS, ids=[f"edition-{e.id}-{s}" for e, s in POSTERS]
)
def test_each_poster_is_one_page_with_every_technique(built_site, edition, size):
    """One page, landscape, naming every technique of the edition and the chart's address."""
    path = built_site.site / poster_path(edition.id, size)
    reader = PdfReader(path)
    assert 1 == len(reader.pages)
    box = reader.pages[0].mediabox
    assert box.width > box.height  # landscape
    text = _text(path)
    assert [] == [t.name for t in edition.techniques.values() if t.name not in text]
    url = chart_url(built_site.site, edition.id)
    assert url.endswith(f"/rules/{edition.id}/techniques/")
    assert url in text.replace(" ", "")


def test_the_qr_code_is_the_charts_address():
    """The poster carries the QR code segno makes for the chart's address."""
    edition = load_all()[-1]
    url = "https://example.org/rules/2/techniques/"
    html = poster_html(edition, url, "a4")
    assert qr_svg(url) in html
    assert re.search(r"<svg[^>]*viewBox", html)


@pytest.mark.parametrize("edition", load_all(), ids=lambda e: f"edition-{e.id}")
def test_the_chart_page_links_its_posters(built_site, edition):
    """The chart page links both posters of its edition."""
    html = built_site.page(f"rules/{edition.id}/techniques/")
    for size, _, _ in SIZES:
        assert f'href="../../../{poster_path(edition.id, size)}"' in html
