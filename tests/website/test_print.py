"""The printable rulebook: each edition prints to a PDF with every numbered clause, and
the print stylesheet leaves the site's navigation and buttons off the page."""

from __future__ import annotations

import unicodedata

import pytest
from pypdf import PdfReader
from timeline_names import IN_FORCE

from lvl_rules import load_all
from lvl_rules.words import markdown as render

pytestmark = pytest.mark.browser

# Words found only in the site's navigation, header, footer and clause buttons.
SITE_CHROME = (
    "Skip to content",
    "My division",
    "Score calculator",
    "Permalink",
    "Copy citation",
    "Previous",
    "Made with",
)


@pytest.fixture(scope="module")
def pdf_text(built_site) -> dict[str, str]:
    """The text of each edition's PDF, as the fresh build published it, spaces collapsed."""
    text = {}
    for path in sorted((built_site.site / "data").glob("*.pdf")):
        if "-poster-" in path.stem:
            continue  # the chart posters: tests/website/test_posters.py
        words = "\n".join(page.extract_text() for page in PdfReader(path).pages)
        text[path.stem] = " ".join(unicodedata.normalize("NFKC", words).split())
    return text


def test_a_pdf_per_edition(pdf_text):
    """One PDF for each edition, named after it."""
    assert sorted(e.id for e in load_all()) == sorted(pdf_text)


@pytest.mark.parametrize("edition", load_all(), ids=lambda e: f"edition-{e.id}")
def test_every_numbered_clause_heading_is_printed(pdf_text, edition):
    """Every clause number ("5.4", "2.3.7", ...) is printed with its heading."""
    text = pdf_text[edition.id]
    headings = [
        " ".join(render.heading(edition, clause).split())
        for clause in edition.clauses.values()
        if clause.numbered
    ]
    assert all(h.split(" ", 1)[0] == c for h, c in zip(headings, _numbers(edition), strict=True))
    assert [] == [h for h in headings if h not in text]


def _numbers(edition) -> list[str]:
    return [c.id for c in edition.clauses.values() if c.numbered]


@pytest.mark.parametrize("edition", load_all(), ids=lambda e: f"edition-{e.id}")
def test_the_pdf_leaves_out_the_site_navigation(pdf_text, edition):
    """No navigation, header, footer or button words reach the printed page."""
    assert [] == [words for words in SITE_CHROME if words in pdf_text[edition.id]]


def test_print_stylesheet_hides_navigation(chromium, site_url):
    """In print media the header, both sidebars, the footer and the buttons are not shown."""
    context = chromium.new_context()
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(f"{site_url}rules/{IN_FORCE}/print/")
    shown = page.evaluate(
        """() => [...document.querySelectorAll(
            '.md-header, .md-sidebar, .md-footer, .md-search, .lvl-copy, .lvl-permalink')]
            .filter((e) => e.checkVisibility()).map((e) => e.className)"""
    )
    headings = page.locator("h2.lvl-clause").count()
    context.close()
    assert [] == shown
    assert headings > 0
