"""The home page names the edition in force and has a way in for officials (the score
calculator, its match mode, the audience screen); the menu says "For developers" where it
means the data and the API."""

from __future__ import annotations

import re

import jinja2
import pytest

from build_scripts.pages.home import home_markdown
from build_scripts.pages.navigation import nav
from lvl_rules import load_all
from lvl_rules.words.site import SITE_PAGES, in_force


def test_the_home_page_names_the_edition_in_force(built_site):
    """The line under the title says which edition is in force and links to it; the chart
    and scoring cards open that edition's pages."""
    latest = load_all()[-1]
    html = built_site.page("")
    line = re.search(r'<p class="lvl-in-force">(.*?)</p>', html, re.S)
    assert line, "no edition line under the title"
    assert f'<a href="rules/{latest.id}/">{in_force(latest)}</a>' in line.group(1)
    assert f'href="rules/{latest.id}/techniques/"' in html
    assert f'href="rules/{latest.id}/scoring/"' in html


def test_the_home_page_has_a_way_in_for_officials(built_site):
    """The calculator, its match mode and the audience screen, each a button."""
    html = built_site.page("")
    officials = html.split('id="for-referees-and-officials"', 1)[1]
    for target in (
        'href="calculator/"',
        'href="calculator/?mode=match"',
        'href="calculator/board/"',
    ):
        assert re.search(rf'<a class="md-button[^"]*" {re.escape(target)}>', officials), target


def test_the_home_page_fails_on_a_name_it_is_not_given():
    """A misspelt name in docs/index.md stops the build instead of printing nothing."""
    with pytest.raises(jinja2.UndefinedError):
        home_markdown("{{ in_forse.title }}", load_all())


def test_the_menu_says_for_developers():
    """The data and API page is "For developers" in the menu; nothing there is "Data"."""
    names = [next(iter(entry)) for entry in nav(load_all())]
    assert SITE_PAGES["data"] == "For developers"
    assert {"For developers": "data/index.md"} in nav(load_all())
    assert "Data" not in names
