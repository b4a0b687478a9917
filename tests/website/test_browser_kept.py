"""What the calculator keeps, attacked (issue: nothing lost, round 2): a number the page
would send longer than the engine takes; two matches in match mode in one browser; a
record of this browser's written by another build or damaged; the clock of one match
never another's."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from scoreboard import SETTLED, board, engine_board, link_events
from timeline_names import IN_FORCE

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000
BLUE = {"edition": IN_FORCE, "age": 30, "belt": "blue", "uniform": "gi"}
DIVISION = f"edition={IN_FORCE}&age=30&belt=blue&uniform=gi"
GUARD_PASS = {"type": "score", "athlete": "A", "position": "guard-pass"}


def ready(page):
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    return page


def match_id(page) -> str:
    return parse_qs(urlsplit(page.url).query)["match"][0]


@pytest.mark.parametrize("number", ["1e20", "1.5e15", "-2e16"])
def test_a_number_written_longer_than_the_engine_takes_is_marked(visit, site_url, number):
    """1e20 is written 100000000000000000000 when the page sends it: the page marks that
    event with the limit and scores the rest (it was sent, and the engine refused the whole
    request: nothing was scored)."""
    text = (
        f'[{json.dumps(GUARD_PASS)},{{"type":"advantage","athlete":"A","reason":{number}}},'
        '{"type":"advantage","athlete":"B"}]'
    )
    page = visit().page
    page.goto(f"{site_url}calculator/?{DIVISION}&events={quote(text)}")
    ready(page).wait_for_function(SETTLED, arg=3)
    marked = page.locator('#calc-log li[data-scored="false"]')
    assert ["1"] == marked.evaluate_all("l => l.map(i => i.dataset.event)")
    assert re.search(r"has 1[67] digits|has 21 digits", marked.inner_text())
    assert {"A": (3, 0, 0), "B": (0, 1, 0)} == {k: board(page)[k] for k in "AB"}


def test_two_matches_in_one_browser_each_keep_their_audience(chromium, site_url):
    """Two matches in match mode in one browser: an audience screen opened from one follows
    that one, whatever the other posts; one opened bare offers the choice of the two."""
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    one = context.new_page()
    one.goto(f"{site_url}calculator/?{DIVISION}&name_a=Ana&name_b=Bia&mode=match")
    ready(one)
    two = context.new_page()
    two.goto(f"{site_url}calculator/?{DIVISION}&name_a=Cy&name_b=Di&mode=match")
    ready(two)
    audience = context.new_page()
    audience.goto(one.locator("#calc-board-link").evaluate("(a) => a.href"))
    bare = context.new_page()
    bare.goto(f"{site_url}calculator/board/")
    one.locator('.lvl-half[data-half="A"]').get_by_role(
        "button", name=re.compile("^Mount, 4 points,")
    ).click()
    one.wait_for_function(SETTLED, arg=1)
    two.locator('.lvl-half[data-half="B"]').get_by_role("button", name="Advantage,").click()
    two.wait_for_function(SETTLED, arg=1)
    audience.wait_for_function(
        "() => document.querySelector('.lvl-athlete[data-athlete=A]').dataset.points === '4'"
    )
    assert ["Ana", "Bia"] == audience.locator(".lvl-athlete [data-name]").all_inner_texts()
    assert audience.locator("[data-choose]").is_hidden()
    bare.wait_for_selector("[data-choose]:not([hidden])")
    choices = bare.locator("#board-choose option").all_inner_texts()
    assert {"Ana – Bia", "Cy – Di"} == set(choices)
    bare.locator("#board-choose").select_option(label="Cy – Di")
    assert ["Cy", "Di"] == bare.locator(".lvl-athlete [data-name]").all_inner_texts()
    context.close()


DAMAGED = {
    "another build's clock": {
        "format": 1, "saved": 1, "events": [GUARD_PASS],
        "clock": {"length": "five minutes", "spent": "x", "since": "yesterday",
                  "counts": [{"id": "uniform-adjustment", "athlete": "A", "spent": "?"}]},
    },
    "a damaged board": {
        "format": 1, "saved": 1, "events": [GUARD_PASS], "rules": "any",
        "answer": {"athletes": "A wins", "result": None, "log": [{"event": "x"}]},
        "history": [{"at": -3}], "future": "x",
    },
    "another format": {"format": 7, "events": {"all": "wrong"}},
    "not JSON": "{",
}  # fmt: skip


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_record_of_another_build_or_damaged_never_stops_the_page(visit, site_url, name):
    """Whatever this browser kept for a match (another build's clock, counts it does not
    know, a board of another shape, undo steps that make no sense): the page loads, the
    clock reads as a time, the link is scored by the engine, and a tap records; again
    after a reload."""
    record = DAMAGED[name]
    page = visit().page
    page.goto(f"{site_url}calculator/?{DIVISION}")  # the origin, to write its storage
    key = "lvl-rules.match.kept0000damaged"
    text = record if isinstance(record, str) else json.dumps(record)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, text])
    events = quote(json.dumps([GUARD_PASS]))
    for _ in range(2):
        page.goto(
            f"{site_url}calculator/?{DIVISION}&match=kept0000damaged&mode=match&events={events}"
        )
        ready(page).wait_for_function(SETTLED, arg=1)
        assert re.fullmatch(r"\d+:\d\d", page.locator("#calc-time").inner_text())
        assert engine_board(BLUE, [GUARD_PASS]) == board(page)
    page.locator('.lvl-half[data-half="B"]').get_by_role("button", name="Advantage,").click()
    page.wait_for_function(SETTLED, arg=2)
    assert 2 == len(link_events(page))


def test_each_match_has_its_own_clock(visit, site_url):
    """The clock belongs to the match: a new match starts at its full length, stopped; the
    first match's address opens with its own time again."""
    page = visit().page
    page.context.clock.install(time=1_700_000_000)
    page.goto(f"{site_url}calculator/?{DIVISION}&length=120&mode=match")
    ready(page)
    page.context.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    page.locator("#calc-clock").click()
    page.context.clock.run_for(30_000)
    page.locator("#calc-clock").click()  # stopped at 1:30
    assert "1:30" == page.locator("#calc-time").inner_text()
    first = page.url
    first_id = match_id(page)
    page.context.clock.resume()  # the theme's navigation runs on timers
    page.get_by_role("button", name="Leave match mode").click()
    page.locator("#calc-reset").click()  # New match
    page.wait_for_function("(id) => !location.search.includes(id)", arg=first_id)
    # (while the theme swaps the page, there is no clock for a moment)
    page.wait_for_function("() => document.querySelector('#calc-time')?.textContent === '2:00'")
    assert "stopped" == page.locator("#calc-board").get_attribute("data-clock")
    page.goto(first)
    page.wait_for_function("() => document.querySelector('#calc-time')?.textContent === '1:30'")
