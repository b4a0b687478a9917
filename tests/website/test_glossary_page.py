"""The glossary page: every term has its anchor, every link to a term lands on it, the
first use of each term on a rule page links to it (linked at build time:
build_scripts/pages/glossary_page.py), and a meaning of ours is marked as our reading."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import expect
from timeline_names import EDITIONS, IN_FORCE

from build_scripts.pages.glossary_page import link_first_uses
from lvl_rules.faces.site import load_glossary, site_words

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
THEME_READY = "() => document.documentElement.classList.contains('js')"
GLOSSARY = "rules/glossary/"
BASE = "http://site.invalid/"
LINK = re.compile(r'<a class="lvl-term" href="([^"]+)"[^>]*>([^<]*)</a>')
ARTICLE = re.compile(r'<article class="md-content__inner.*?</article>', re.S)
TAG = re.compile(r"<[^>]+>")


def _article(html: str) -> str:
    found = ARTICLE.search(html)
    assert found
    return found[0]


def test_every_term_has_its_anchor_and_ours_are_marked(built_site):
    """Each term is listed under its id; a term without a clause says "Our reading", a
    term with one links its clause."""
    page = _article(built_site.page(GLOSSARY))
    item = re.compile(r'<li><strong id="term-([^"]+)">.*?</li>', re.S)
    items = {found[1]: found[0] for found in item.finditer(page)}
    assert [t.id for t in load_glossary()] == list(items)
    for term in load_glossary():
        marked = "<em>Our reading:</em>" in items[term.id]
        assert marked == (term.clause is None), term.id
        if term.clause is not None:
            assert f"#{term.clause}" in items[term.id]


def test_every_link_to_a_term_lands_and_a_page_links_each_term_once(built_site):
    """Every glossary link on every page names a term's anchor; no page links a term twice;
    the glossary is in the navigation."""
    anchors = {f"term-{t.id}" for t in load_glossary()}
    wrong, twice = [], []
    linked = 0
    for path in sorted(built_site.site.rglob("index.html")):
        url = path.relative_to(built_site.site).parent.as_posix() + "/"
        html = path.read_text(encoding="utf-8")
        targets = [urlsplit(urljoin(BASE + url, href)) for href, _ in LINK.findall(html)]
        linked += len(targets)
        wrong += [
            (url, t) for t in targets if t.path != f"/{GLOSSARY}" or t.fragment not in anchors
        ]
        fragments = [t.fragment for t in targets]
        twice += [(url, f) for f in set(fragments) if fragments.count(f) > 1]
    assert ([], []) == (wrong, twice)
    assert linked > 0
    nav = built_site.page(f"rules/{IN_FORCE}/7/")
    assert 'href="../../glossary/"' in nav
    assert site_words.SITE_PAGES["glossary"] in nav


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_first_use_on_a_rule_page_is_the_linked_one(built_site, edition_id):
    """On sections 2, 7 and 9, the first use of each term in the text (outside headings
    and other links) is the one linked to it."""
    checked = []
    for section in ("2", "7", "9"):
        html = _article(built_site.page(f"rules/{edition_id}/{section}/"))
        for term in load_glossary():
            forms = "|".join(map(re.escape, term.forms))
            first = _first_use(html, re.compile(rf"(?<!\w)(?:{forms})(?!\w)", re.I))
            if first is not None:
                checked.append((section, term.id, first))
    assert [] == [(s, t, f) for s, t, f in checked if f != t]
    assert {"stalling", "undergarment", "combate", "parou", "lute"} <= {t for _, t, _ in checked}


def _first_use(html: str, words: re.Pattern[str]) -> str | None:
    """The term the first use of ``words`` in the page's text is linked to ("" when it
    is not linked), or None when the text does not use them. Headings, buttons and other
    links are not the text."""
    skipped = 0
    term = ""
    for part in re.split(r"(<[^>]*>)", html):
        if part.startswith("<"):
            found = re.match(r'<a class="lvl-term" href="[^"]*#term-([^"]+)"', part)
            if found:
                term = found[1]
            elif part == "</a>" and term:
                term = ""
            elif name := re.match(r"<(/?)(a|h[1-6]|button|caption)\b", part):
                skipped += -1 if name[1] else 1
        elif not skipped and words.search(part):
            return term
    return None


@pytest.mark.browser
def test_a_first_use_opens_its_term_on_a_phone(chromium, site_url):
    """At 390x844, tapping a term's first use on a rule page opens the glossary on it."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}rules/{IN_FORCE}/7/")
        page.wait_for_function(THEME_READY)
        first = page.locator("a.lvl-term", has_text=re.compile("undergarment", re.I)).first
        first.scroll_into_view_if_needed()
        first.tap()
        page.wait_for_url(f"**/{GLOSSARY}#term-undergarment")
        term = page.locator("#term-undergarment")
        expect(term).to_be_visible()
        expect(page.locator("li:has(#term-undergarment)")).to_contain_text("Our reading:")
        page.wait_for_function(
            "() => { const b = document.getElementById('term-undergarment')"
            ".getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }"
        )
    finally:
        context.close()


def test_only_a_terms_first_use_in_the_text_is_linked():
    """Headings, links and buttons are passed over; the first use after them is linked,
    once; pages of no edition are left as they are."""
    html = (
        "<h2>Stalling</h2><p>See <a href='#x'>stalling</a>.</p><button>Stalling</button>"
        "<p>Stalling is called. Stalling again; the drawstring.</p>"
    )
    linked = link_first_uses(html, f"rules/{IN_FORCE}/7.md")
    uses = re.findall(r'<a class="lvl-term" href="([^"]+)"[^>]*>([^<]*)</a>', linked)
    assert [
        ("../../glossary/#term-stalling", "Stalling"),
        ("../../glossary/#term-drawstring", "drawstring"),
    ] == uses
    assert linked.startswith("<h2>Stalling</h2><p>See <a href='#x'>stalling</a>.</p>")
    assert html == link_first_uses(html, "lookup.md")
