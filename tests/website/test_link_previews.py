"""Link previews: every page of the site says what it is (its <meta name="description">
and the Open Graph and Twitter tags messengers read), in words made from the rules by
lvl_rules/words/; a shared citation's permalink page too. No address of the build
machine in them: a build without a public address names none."""

from __future__ import annotations

import html
import re

from build_scripts.pages.urls import clause_page, page_url
from lvl_rules import load_all
from lvl_rules.words.site import DESCRIPTIONS, clause_lead, section_description

TAG = re.compile(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"')


def tags(page: str) -> dict[str, str]:
    """A page's <meta> name or property -> content (unescaped)."""
    return {name: html.unescape(content) for name, content in TAG.findall(page)}


def test_every_page_has_a_description_and_a_preview(built_site):
    """Every page the theme renders has a description, an Open Graph title and
    description and a Twitter card; no og:url, since the tests' build has no public
    address."""
    lacking = {}
    for path in sorted(built_site.site.rglob("index.html")):
        relative = path.relative_to(built_site.site).parent.as_posix()
        if relative.startswith("cite/"):
            continue  # permalinks: the next test
        found = tags(path.read_text(encoding="utf-8"))
        missing = [
            name
            for name in ("description", "og:title", "og:description", "twitter:card")
            if not found.get(name)
        ]
        if missing or found["description"] != found["og:description"] or "og:url" in found:
            lacking[relative] = missing or found
    assert {} == lacking


def test_a_rule_pages_description_is_its_section_in_a_line(built_site):
    """A rule page's description is its section's clause in a line (the package's words);
    the pages about every edition say what they are."""
    for edition in load_all():
        for clause in edition.clauses.values():
            if clause.numbered and clause.depth == 1:
                page = built_site.page(page_url(clause_page(edition.id, clause)))
                assert section_description(edition, clause) == tags(page)["description"]
    assert DESCRIPTIONS["changes"] == tags(built_site.page("rules/changes/"))["description"]
    assert DESCRIPTIONS["notes"] == tags(built_site.page("rules/notes/"))["description"]


def test_a_shared_citation_has_its_own_preview(built_site):
    """A permalink (what "Share citation" shares) previews as the citation and the clause
    in a line, not as a blank redirect."""
    edition = load_all()[-1]
    clause = edition.clauses["5.4"]
    found = tags(built_site.page(f"cite/{edition.id}/5.4/"))
    assert f"LVL Rules, {edition.title}, §5.4" == found["og:title"]
    assert clause_lead(edition, clause) == found["description"] == found["og:description"]
    assert found["description"].startswith("5.4 Mount")
    assert len(found["description"]) <= 200
