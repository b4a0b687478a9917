"""Every reading of ours is marked on every surface that shows it: for each editorial note,
each place it names and each surface of that place (build_scripts/pages/reading_surfaces.py),
the built page holds the mark, "Our reading:" and a link to the note, at the element that
shows the place; /rules/notes/ lists them all.
"""

from __future__ import annotations

import re

import pytest

from build_scripts.pages.poster import poster_html
from build_scripts.pages.reading_surfaces import note_surfaces
from build_scripts.pages.urls import page_url
from lvl_rules import load_edition
from lvl_rules.faces.api import editions
from lvl_rules.words.readings import OUR_READING

EDITIONS = [e["id"] for e in editions()["editions"]]
HEADING = re.compile(r"<h[1-6][ >]")


def _region(html: str, anchor: str) -> str:
    """The HTML that shows the element with this id: a table row to its end, a heading to
    the next heading (its tools, text and lists)."""
    start = html.index(f'id="{anchor}"')
    tag = html.rfind("<", 0, start)
    if html.startswith("<tr", tag):
        return html[tag : html.index("</tr>", start)]
    after = HEADING.search(html, start)
    return html[tag : after.start() if after else len(html)]


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_reading_is_marked_on_every_surface(built_site, edition_id):
    """Each note x each surface its places declare: the mark and the note's link are there."""
    edition = load_edition(edition_id)
    checked = 0
    for note in edition.notes.values():
        link = f'#e{edition.id}-{note.id}"'
        for surface in note_surfaces(edition, note.id):
            where = (note.id, surface.name)
            if surface.page is None:
                if surface.name.startswith("the chart poster") or "legend" in surface.name:
                    assert note.title in poster_html(edition, None, "a4"), where
                continue  # the match log and the text export: tests/test_readings.py
            html = built_site.page(page_url(surface.page))
            shown = _region(html, surface.anchor) if surface.anchor else html
            assert OUR_READING in shown, where
            if surface.page.startswith(("lookup", "calculator")):
                # Drawn by the page's script from the words the build wrote into it.
                assert f'"{note.id}"' in html or "calculator" in surface.page, where
            else:
                assert link in shown, where
            checked += 1
    assert checked > 0


def test_the_notes_page_lists_every_surface_of_every_reading(built_site):
    """/rules/notes/: under each note with places, the surfaces it is shown on."""
    html = built_site.page("rules/notes/")
    for edition_id in EDITIONS:
        edition = load_edition(edition_id)
        for note in edition.notes.values():
            section = _region(html, f"e{edition.id}-{note.id}")
            for surface in note_surfaces(edition, note.id):
                assert surface.name.replace("&", "&amp;") in section, (note.id, surface.name)
