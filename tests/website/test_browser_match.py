"""The calculator's match mode in Chromium, on a phone held sideways (844x390) and a
tablet (1024x768): a whole match with each athlete's buttons, counting the taps of each
call; the match clock and the 20-second counts on a clock the test controls; the
audience screen following the match in another tab."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from match_screen import COVERED
from scoreboard import SETTLED, board, engine_board, link_events, shown_log
from timeline_names import IN_FORCE

from lvl_rules import load_edition
from lvl_rules.model import UNIFORMS, in_uniform
from lvl_rules.words.readings import OUR_READING

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000
BLUE = {"edition": IN_FORCE, "age": 30, "belt": "blue", "uniform": "gi"}
MATCH = f"calculator/?edition={IN_FORCE}&age=30&belt=blue&uniform=gi&mode=match"
HELD = ["phone-landscape", "tablet"]


class Table:
    """A table official's taps: each call is a few taps, then the match holds `events`."""

    def __init__(self, page) -> None:
        self.page = page
        self.taps: dict[str, int] = {}

    def call(self, name: str, *buttons, events: int) -> None:
        for button in buttons:
            button.click()
            self.taps[name] = self.taps.get(name, 0) + 1
        self.page.wait_for_function(SETTLED, arg=events)


@pytest.mark.parametrize("screen", HELD, indirect=True)
def test_a_whole_match_with_each_athletes_buttons(screen):
    """Both pull guard, takedown, guard pass, mount, two stalling calls, a locked
    submission escaped, the end; undone, an illegal foot lock from the shortlist: one tap
    for each position, penalty and advantage, two for a picker. Every button is on the
    screen, uncovered, with nothing to scroll."""
    page = screen.page()
    page.goto(screen.site_url + MATCH)
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    a = page.locator('.lvl-half[data-half="A"]')
    b = page.locator('.lvl-half[data-half="B"]')
    shared = page.locator(".lvl-shared")
    buttons = page.locator(
        ".lvl-controls:not([hidden]) :is(.lvl-half, .lvl-shared) button, .lvl-tools button:visible,"
        " #calc-clock"
    )
    places = buttons.evaluate_all(f"(all) => all.map({COVERED})")
    assert [] == [i for i, place in enumerate(places) if not place["inside"] or place["covered"]]
    assert 0 == page.evaluate("() => scrollY")

    table = Table(page)
    both_guard = shared.get_by_role("button", name="Both pulled guard", exact=True)
    table.call("both pulled guard: count", both_guard, events=0)
    assert "Both pulled guard" in page.locator("#calc-counts").inner_text()
    places = buttons.evaluate_all(f"(all) => all.map({COVERED})")  # the count pushes none off
    assert [] == [i for i, place in enumerate(places) if not place["inside"] or place["covered"]]
    table.call("advantage", a.get_by_role("button", name="Advantage,"), events=1)
    page.locator("#calc-counts").get_by_role("button").click()  # the count stops: A is on top
    table.call("takedown", b.get_by_role("button", name="Takedown, 2 points,"), events=2)
    table.call("guard pass", a.get_by_role("button", name="Guard pass, 3 points,"), events=3)
    table.call("mount", a.get_by_role("button", name=re.compile("^Mount, 4 points,")), events=4)
    table.call("stalling", b.get_by_role("button", name="Stalling,"), events=5)
    table.call("stalling again", b.get_by_role("button", name="Stalling,"), events=6)
    locked = a.get_by_role("button", name="Locked submission, escaped,")
    table.call("locked submission escaped", locked, events=7)
    record = page.locator("dialog[open]").get_by_role("button", name="Record", exact=True)
    table.call("end", shared.get_by_role("button", name="End of the match…", exact=True),
               record, events=8)  # fmt: skip
    recorded = link_events(page)
    assert engine_board(BLUE, recorded) == board(page) == {
        "A": (9, 2, 0), "B": (2, 0, 2), "winner": "A", "method": "points",
    }  # fmt: skip
    table.call("undo", page.get_by_role("button", name="Undo", exact=True), events=7)
    table.call("illegal foot lock", b.get_by_role("button", name="Technique applied…,"),
               page.locator('dialog[open] [data-legal-group="false"]')
               .get_by_role("button", name="Toe hold", exact=True), events=8)  # fmt: skip
    recorded = link_events(page)
    assert {"type": "technique", "technique": "toe-hold", "athlete": "B"} == recorded[-1]
    assert engine_board(BLUE, recorded) == board(page)
    assert ("A", "disqualification") == (board(page)["winner"], board(page)["method"])
    assert {
        "both pulled guard: count": 1, "advantage": 1, "takedown": 1, "guard pass": 1,
        "mount": 1, "stalling": 1, "stalling again": 1, "locked submission escaped": 1,
        "end": 2, "undo": 1, "illegal foot lock": 2,
    } == table.taps  # fmt: skip
    page.get_by_role("button", name="Log", exact=True).click()
    log = page.locator("#calc-log")
    assert log.is_visible()
    assert 8 == log.locator("li[data-event]").count()
    texts = shown_log(page)
    assert [] == [text for text in texts if "§" not in text]


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_a_data_saving_phone_is_asked_before_the_engine_downloads(screen):
    """A match-mode link on a data-saving phone: the site chrome and the engine's progress
    are out of the way, but its question before the download is not (nothing could be
    recorded until it is answered); once answered, the engine starts and a tap records."""
    page = screen.page()
    cdp = screen.context.new_cdp_session(page)
    cdp.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    page.goto(screen.site_url + MATCH)
    go = page.locator("[data-status-go]")
    go.wait_for(state="visible")
    assert page.locator(".md-header").is_hidden()
    go.click()
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    assert page.locator(".lvl-status").is_hidden()
    a = page.locator('.lvl-half[data-half="A"]')
    Table(page).call(
        "mount", a.get_by_role("button", name=re.compile("^Mount, 4 points,")), events=1
    )
    assert (4, 0, 0) == board(page)["A"]


@pytest.mark.parametrize("screen", HELD, indirect=True)
def test_a_correction_on_the_match_screen(screen):
    """A mid-log correction in match mode: open the log, tap event 2, give it to the other
    athlete (three taps, each button on the screen): the engine re-scores the match, the
    result and the URL follow."""
    events = [
        {"type": "score", "athlete": "A", "position": "takedown"},
        {"type": "score", "athlete": "B", "position": "mount"},
        {"type": "advantage", "athlete": "A"},
        {"type": "end"},
    ]
    page = screen.page()
    page.goto(screen.site_url + MATCH + "&events=" + quote(json.dumps(events)))
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    page.wait_for_function("() => document.querySelector('#match-result').dataset.winner === 'B'")
    taps = [
        page.get_by_role("button", name="Log", exact=True),
        page.get_by_role("button", name="Correct event 2", exact=True),
        page.locator("dialog[open]").get_by_role("button", name="Give it to Blue", exact=True),
    ]
    for button in taps:
        place = button.evaluate(COVERED)
        assert (True, False) == (place["inside"], place["covered"])
        button.click()
    page.wait_for_function("() => document.querySelector('#match-result').dataset.winner === 'A'")
    corrected = [events[0], {**events[1], "athlete": "A"}, *events[2:]]
    assert corrected == link_events(page)
    assert engine_board(BLUE, corrected) == board(page)


@pytest.mark.parametrize("screen", HELD, indirect=True)
def test_clock_counts_and_audience_screen(screen):
    """The clock runs, pauses and records time expiry (6); two 20-second counts prompt the
    call the rules make (7.2.1 both athletes, 7.2.2 the uniform, counted while the match
    is stopped); an advantage after time, then the end; the audience screen follows."""
    screen.context.clock.install(time=1_700_000_000)  # seconds
    audience = screen.page()
    audience.goto(screen.site_url + "calculator/board/")
    page = screen.page()
    page.goto(screen.site_url + MATCH + "&length=60&name_a=Ana&colour_b=yellow")
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    # From here time moves only when the test says so (a second ahead of the page's now).
    screen.context.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    time = page.locator("#calc-time")
    assert "1:00" == time.inner_text()
    audience.wait_for_function(
        "() => !document.querySelector('.lvl-audience').hasAttribute('data-waiting')"
    )
    assert ["Ana", "Yellow"] == audience.locator(".lvl-athlete [data-name]").all_inner_texts()
    assert "yellow" == audience.locator('.lvl-athlete[data-athlete="B"]').get_attribute(
        "data-colour"
    )

    clock = page.locator("#calc-clock")
    clock.click()  # Combate
    page.locator(".lvl-shared").get_by_role("button", name="Both pulled guard", exact=True).click()
    screen.context.clock.run_for(20_000)
    assert "0:40" == time.inner_text()
    assert "0:40" == audience.locator("#board-time").inner_text()
    prompt = page.locator("#calc-prompts .lvl-prompt")
    assert "20 seconds: stalling penalty to both" in prompt.inner_text()
    prompt.get_by_role("button", name="Record it", exact=True).click()
    page.wait_for_function(SETTLED, arg=1)
    # Each call carries the match time it was made at (whole seconds on the clock).
    assert {"type": "penalty", "athlete": "both", "foul": "stalling", "time": 20} == link_events(
        page
    )[0]

    clock.click()  # Parou: the clock stops, the uniform count runs
    page.locator('.lvl-half[data-half="B"]').get_by_role("button", name="Count 20 s…,").click()
    page.locator("dialog[open]").get_by_role(
        "button", name="Adjusting the gi top and belt", exact=True
    ).click()
    screen.context.clock.run_for(20_000)
    assert "0:40" == time.inner_text()
    prompt = page.locator("#calc-prompts .lvl-prompt")
    assert "20 seconds: slow uniform adjustment penalty to Yellow" in prompt.inner_text()
    prompt.get_by_role("button", name="Record it", exact=True).click()
    page.wait_for_function(SETTLED, arg=2)

    clock.click()  # Combate
    screen.context.clock.run_for(40_000)
    page.wait_for_function(SETTLED, arg=3)
    assert "0:00" == time.inner_text()
    assert {"type": "time-expired", "time": 60} == link_events(page)[2]
    assert "§6" in page.locator('#calc-log li[data-event="2"]').inner_text()
    a = page.locator('.lvl-half[data-half="A"]')
    assert a.get_by_role(
        "button", name=re.compile("^Mount, 4 points,")
    ).is_disabled()  # no position after time
    a.get_by_role("button", name="Advantage,").click()
    page.wait_for_function(SETTLED, arg=4)
    page.get_by_role("button", name="End of the match…", exact=True).click()
    page.locator("dialog[open]").get_by_role("button", name="Record", exact=True).click()
    page.wait_for_function("() => document.querySelector('#match-result').dataset.ended === 'true'")
    recorded = link_events(page)
    assert [e["type"] for e in recorded] == [
        "penalty", "penalty", "time-expired", "advantage", "end",
    ]  # fmt: skip
    assert engine_board(BLUE, recorded) == board(page)
    audience.wait_for_function("() => document.querySelector('.lvl-audience').dataset.winner")
    shown = {
        name: audience.locator(f'.lvl-athlete[data-athlete="{name}"]').get_attribute("data-points")
        for name in "AB"
    }
    assert {name: str(board(page)[name][0]) for name in "AB"} == shown
    assert (
        page.locator("#match-result")
        .inner_text()
        .startswith(audience.locator("#board-result").inner_text())
    )


@pytest.mark.parametrize("uniform", UNIFORMS)
@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_a_match_offers_only_its_uniforms_fouls_and_counts(screen, uniform):
    """Notes gi-only-counts and gi-only-fouls: in No-Gi the count menu offers no count
    for a 50/50 lapel or belt grip or for adjusting the gi top and belt, and no penalty
    picker a foul that needs a gi; in Gi, no No-Gi clothing grip. What both uniforms share
    is offered in both. The engine's answer decides; the page only leaves the rest out,
    and the count menu says which counts it does not offer, marked as our reading."""
    rules = load_edition(IN_FORCE)
    counts = [c for c in rules.counts.values() if not c.both]
    away_counts = {c.name for c in counts if not in_uniform(c.only_for, uniform)}
    away_fouls = {f.name for f in rules.fouls.values() if not in_uniform(f.only_for, uniform)}
    assert away_fouls
    if uniform == "nogi":
        assert "50/50 guard, lapel or belt grip" in away_counts
    page = screen.page()
    page.goto(screen.site_url + MATCH.replace("uniform=gi", f"uniform={uniform}"))
    fouls = page.locator('.lvl-controls:not([hidden]) dialog button[data-slot="foul"]')
    page.wait_for_function(
        """(away) => [...document.querySelectorAll(
             '.lvl-controls:not([hidden]) dialog button[data-slot="foul"]')]
           .every((b) => b.hidden === away.includes(b.textContent.trim()))""",
        arg=sorted(away_fouls),
        timeout=ENGINE_MS,
    )
    offered = {
        name
        for name, hidden in fouls.evaluate_all(
            "(all) => all.map((b) => [b.textContent.trim(), b.hidden])"
        )
        if not hidden
    }
    assert offered
    assert not offered & away_fouls

    page.locator('.lvl-half[data-half="A"]').get_by_role("button", name="Count 20 s…,").click()
    menu = page.locator("dialog[open]")
    shown = set(menu.locator("button[data-count]:visible").all_inner_texts())
    assert {c.name for c in counts} - away_counts == shown
    assert set(menu.get_by_role("button").all_inner_texts()) == shown | {"Cancel"}
    note = menu.locator("[data-counts-away]")
    if not away_counts:
        assert note.is_hidden()
        return
    said = note.inner_text()
    assert said.startswith("Not offered in this uniform: ")
    assert all(name in said for name in away_counts)
    assert OUR_READING in said
    mark = note.get_by_role("link", name="Counts that need a gi are kept in Gi only")
    assert mark.get_attribute("href").endswith(f"rules/notes/#e{IN_FORCE}-gi-only-counts")
