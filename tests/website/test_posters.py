"""The chart posters: each edition's technique chart on one page, A4 and A3 landscape,
every technique on it, with a QR code to the chart at the site's public address (none at
all without one: never a loopback or build machine's address), linked from the chart's
top, the editions page and My division."""

from __future__ import annotations

import re
import socket
import unicodedata

import pytest
from pypdf import PdfReader
from timeline_names import IN_FORCE

from build_scripts.pages.poster import SIZES, poster_html, poster_path, qr_svg
from build_scripts.pages.urls import public_address
from build_scripts.publish.pdf import chart_address, print_posters, site_address
from lvl_rules import load_all
from lvl_rules.words.site import poster_scan

pytestmark = pytest.mark.browser

POSTERS = [(edition, size) for edition in load_all() for size, _, _ in SIZES]


def _text(path) -> str:
    words = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    return " ".join(unicodedata.normalize("NFKC", words).split())


LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
PUBLIC = "https://rules.example.org/lvl/"


@pytest.mark.parametrize(
    ("edition", "size"), POSTERS, ids=[f"edition-{e.id}-{s}" for e, s in POSTERS]
)
def test_each_poster_is_one_page_with_every_technique(built_site, edition, size):
    """One page, landscape, naming every technique of the edition."""
    path = built_site.site / poster_path(edition.id, size)
    reader = PdfReader(path)
    assert 1 == len(reader.pages)
    box = reader.pages[0].mediabox
    assert box.width > box.height  # landscape
    text = _text(path)
    assert [] == [t.name for t in edition.techniques.values() if t.name not in text]


def test_a_build_without_a_public_address_prints_no_qr_code_and_says_so(built_site):
    """The tests' build has no LVL_SITE_URL: its address is make serve's loopback one.
    Its posters carry no address and no QR code, and the build log says why."""
    assert public_address(site_address(built_site.site)) is None
    for edition, size in POSTERS:
        text = _text(built_site.site / poster_path(edition.id, size)).replace(" ", "")
        assert [] == [name for name in LOOPBACK if name in text]
        assert poster_scan().replace(" ", "") not in text
        assert "http" not in text
    assert "LVL Rules posters: no QR code and no address on them" in built_site.output
    assert "set LVL_SITE_URL" in built_site.output


def test_a_public_address_gives_the_posters_their_qr_code(built_site, chromium, tmp_path):
    """With a public address, each poster prints the chart's address there beside its QR
    code, which is the one segno makes for that address."""
    written = print_posters(built_site.site, chromium, PUBLIC, tmp_path)
    assert len(POSTERS) == len(written)
    for edition, size in POSTERS:
        url = chart_address(PUBLIC, edition.id)
        assert f"https://rules.example.org/lvl/rules/{edition.id}/techniques/" == url
        text = _text(tmp_path / poster_path(edition.id, size).split("/")[-1]).replace(" ", "")
        assert poster_scan().replace(" ", "") in text
        assert url in text
        assert qr_svg(url) in poster_html(edition, url, size)


def test_without_an_address_the_poster_has_no_qr_code():
    """No address, no QR code and nothing to scan."""
    html = poster_html(load_all()[-1], None, "a4")
    assert "<svg" not in html
    assert poster_scan() not in html


def test_the_qr_code_is_the_charts_address():
    """The poster carries the QR code segno makes for the chart's address."""
    edition = load_all()[-1]
    url = f"https://example.org/rules/{IN_FORCE}/techniques/"
    html = poster_html(edition, url, "a4")
    assert qr_svg(url) in html
    assert re.search(r"<svg[^>]*viewBox", html)


@pytest.mark.parametrize(
    "address",
    [
        "http://127.0.0.1:8000/",
        "http://localhost:8000/",
        "http://[::1]:8000/",
        "http://10.0.0.5/",
        "http://192.168.1.20:8000/",
        "http://169.254.1.1/",
        "http://0.0.0.0:8000/",
        "http://rules/",
        "http://rules.local/",
        "http://club.lan/",
        "http://lvl.localhost/",
        f"http://{socket.gethostname()}:8000/",
        f"http://{socket.getfqdn()}/",
        "file:///srv/site/",
        "",
    ],
)
def test_no_loopback_local_or_build_machine_address_is_public(address):
    """The addresses a poster must never print: this machine's, a loopback, a private or
    link-local network's, a name no phone outside can look up."""
    assert public_address(address) is None


@pytest.mark.parametrize(
    "address", ["https://rules.example.org/", "https://example.org/lvl/", "http://93.184.215.14/"]
)
def test_a_public_address_is_kept(address):
    assert address == public_address(address)


@pytest.mark.parametrize("edition", load_all(), ids=lambda e: f"edition-{e.id}")
def test_the_chart_and_the_editions_page_link_its_posters(built_site, edition):
    """The chart page links both posters of its edition at its top, before the chart;
    the editions page links them too."""
    chart = built_site.page(f"rules/{edition.id}/techniques/")
    editions = built_site.page("rules/")
    for size, _, _ in SIZES:
        link = f'href="../../../{poster_path(edition.id, size)}"'
        assert link in chart
        assert chart.index(link) < chart.index('class="lvl-chart"')
        assert f'href="../{poster_path(edition.id, size)}"' in editions
