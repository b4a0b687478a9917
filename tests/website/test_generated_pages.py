"""Generated pages against the engine and the amendment: chart, changes page, golden files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from timeline_names import EDITIONS, FULL, IN_FORCE, PAIRS

from build_scripts.pages import site_pages
from build_scripts.pages.urls import clause_page, md_link
from lvl_rules import check, load_all, load_edition
from lvl_rules.engines.chart import sample
from lvl_rules.words import markdown as render
from lvl_rules.words.site import OUR_NUMBER, answer_words

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GOLDEN_PAGES = (
    "rules/index.md",
    f"rules/{IN_FORCE}/index.md",
    f"rules/{IN_FORCE}/1.md",
    f"rules/{IN_FORCE}/5.md",
    f"rules/{IN_FORCE}/7.md",
    f"rules/{IN_FORCE}/8.md",
    f"rules/{FULL}/1.md",
    f"rules/{FULL}/techniques.md",
    f"rules/{IN_FORCE}/techniques.md",
    f"rules/{IN_FORCE}/scoring.md",
    "rules/changes.md",
    "rules/notes.md",
)
CELL = re.compile(
    r'<td class="[^"]*" (?:colspan="\d+" )?data-label="[^"]*" data-band="([^"]+)" '
    r'data-gi="(true|false)" data-nogi="(true|false)">'
)


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return site_pages.generate(load_all(), page_policy=None)


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_chart_cells_equal_engine_answers(built_site, edition_id):
    """Every cell of the published chart is what the eligibility engine answers."""
    edition = load_edition(edition_id)
    html = built_site.page(f"rules/{edition_id}/techniques/")
    for technique in edition.techniques.values():
        row = re.search(rf'<tr id="technique-{technique.id}".*?</tr>', html, re.S)
        assert row, technique.id
        cells = CELL.findall(row.group(0))
        if technique.prohibited:
            assert [("all", "false", "false")] == cells
            continue
        expected = []
        for band in edition.bands:
            gi = check(sample(edition, band, "gi"), technique.id).legal
            nogi = check(sample(edition, band, "nogi"), technique.id).legal
            expected.append((band.id, str(gi).lower(), str(nogi).lower()))
            assert answer_words(gi, nogi) in row.group(0)
        assert expected == cells


def test_changes_page_lists_every_clause_that_differs(generated):
    """A clause whose wording differs between editions has an entry on the changes page,
    unless the update changed none of its words and the difference is our reading, which a
    note names it for (the list of sections in "How to read this rulebook" shows section
    1's title, whose words "by age and belt" are ours)."""
    old, new = load_edition(FULL), load_edition(IN_FORCE)
    page = generated["rules/changes.md"]
    differing = set()
    for clause_id in {*old.clauses, *new.clauses}:
        before, after = old.clauses.get(clause_id), new.clauses.get(clause_id)
        text = [
            None if c is None else (render.heading(e, c), render.body(e, c))
            for e, c in ((old, before), (new, after))
        ]
        ours = (
            before is not None
            and after is not None
            and (before.title, before.text) == (after.title, after.text)
            and bool(new.readings("clauses", clause_id))
        )
        if text[0] != text[1] and not ours:
            differing.add(clause_id)
    listed = set(re.findall(r"\{ #e2-([^ ]+) \}", page))
    assert differing == listed


def test_changes_page_shows_the_chart_move_to_13(generated):
    """The chart changes name leg-stretching submissions moving from 16 to 13."""
    row = next(
        line
        for line in generated["rules/changes.md"].splitlines()
        if line.startswith("| Submissions that stretch the legs apart")
    )
    assert "Age 16 and over" in row
    assert "ages 13 to 15" in row
    assert "**Changed**" in row


def test_notes_page_lists_every_reading(generated):
    """/rules/notes/ has every editorial note of every edition, under its public anchor,
    and nothing else under an anchor of that form."""
    expected = {f"e{e.id}-{note}" for e in load_all() for note in e.notes}
    listed = set(re.findall(r"^### .* \{ #(e\d+-[^ ]+) \}$", generated["rules/notes.md"], re.M))
    assert expected == listed


def test_our_clause_numbers_are_marked_beside_their_citation(generated):
    """A clause whose number is ours carries the mark in its citation tools; no clause the
    federation numbered does (the notes beside them: tests/cases/*/readings.toml)."""
    marked, ours = [], []
    for edition in load_all():
        for clause in edition.clauses.values():
            page = generated[clause_page(edition.id, clause)]
            tools = page.split(f"{{ #{clause.id} .lvl-clause }}", 1)[1].split("</p>", 1)[0]
            marked += [(edition.id, clause.id)] if OUR_NUMBER in tools else []
            ours += [(edition.id, clause.id)] if clause.our_number else []
    assert [("2", "1.1"), ("2", "5.7")] == ours == marked


def test_each_clause_links_to_itself_in_the_other_edition(generated):
    """Every clause of Edition 2 links, in its tools, to the same clause of Edition 1, and
    every clause of Edition 1 to the same of Edition 2, saying whether it changed; where
    the other edition has no such clause, the tools say so."""
    editions = {e.id: e for e in load_all()}
    wrong = []
    for here, there in (*PAIRS, *((new, old) for old, new in PAIRS)):
        edition, other = editions[here], editions[there]
        newer = editions[max((here, there), key=EDITIONS.index)]
        for clause in edition.clauses.values():
            page = clause_page(edition.id, clause)
            tools = generated[page].split(f"{{ #{clause.id} .lvl-clause }}", 1)[1]
            tools = tools.split("</p>", 1)[0]
            same = other.clauses.get(clause.id)
            if same is None:
                expected = f"Not in {other.title}"
            else:
                target = md_link(page, clause_page(there, same), clause.id)
                state = "changed" if newer.changed("clauses", clause.id) else "unchanged"
                where = f"{other.title}: §{clause.id}" if clause.numbered else f"In {other.title}"
                expected = f"[{where}]({target}) ({state})"
            if expected not in tools:
                wrong.append((here, clause.id, tools[-160:]))
    assert [] == wrong


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_golden_pages(generated, page):
    """Selected generated pages equal their committed golden copies (UPDATE_GOLDEN=1 rewrites)."""
    golden = GOLDEN / page.replace("/", "__")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(generated[page], encoding="utf-8")
    assert golden.read_text(encoding="utf-8") == generated[page]
