"""A table official's match in Chromium (issue: a match without a slip, a sheet that
settles disputes): no division, no score; names everywhere; the clock and undo kept
across a closed tab and a reload; a wrong call taken back in two taps; nothing under a
finger moves when a count starts; calls made before the engine is ready, scored in
order; the audience screen readable from 3 m; the match sheet on one A4 page, its
fingerprint the command line's."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from scoreboard import (
    SETTLED,
    board,
    engine_board,
    forty_events,
    link_events,
    shown_board,
    shown_log,
)
from timeline_names import IN_FORCE

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000
BLUE = {"edition": IN_FORCE, "age": 30, "belt": "blue", "uniform": "gi"}
DIVISION = f"edition={IN_FORCE}&age=30&belt=blue&uniform=gi"
NAMED = f"calculator/?{DIVISION}&name_a=Ana&name_b=Bia&mode=match"
GRID = ".lvl-controls:not([hidden]) :is(.lvl-half, .lvl-shared) button"
PLACES = """(all) => all.map((b) => {
  const r = b.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
})"""


def ready(page):
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    return page


def half(page, athlete: str):
    return page.locator(f'.lvl-half[data-half="{athlete}"]')


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_no_division_no_score(screen):
    """Without an age, match mode does not open and says which field is missing; a link's
    events wait, shown and marked, with no score that could pass for a result."""
    events = [{"type": "score", "athlete": "A", "position": "mount"}]
    page = screen.page()
    page.goto(f"{screen.site_url}calculator/?edition={IN_FORCE}&belt=blue&uniform=gi&mode=match"
              f"&events={quote(json.dumps(events))}")  # fmt: skip
    page.wait_for_selector('#calc-board[data-status="division"]', timeout=ENGINE_MS)
    refused = page.locator("#calc-mode-refused")
    refused.wait_for(state="visible")
    assert "Age" in refused.inner_text()
    assert "page" == page.locator("#calc-board").get_attribute("data-mode")
    page.get_by_role("button", name="Match mode", exact=True).click()
    assert "page" == page.locator("#calc-board").get_attribute("data-mode")
    assert "true" == page.locator("#calc-age").get_attribute("aria-invalid")
    dash = ("–", "–", "–")
    assert {"A": dash, "B": dash} == shown_board(page)
    assert 1 == page.locator('#calc-log li[data-event][data-scored="false"]').count()
    assert "No events yet" not in page.locator("#match-result").inner_text()
    assert half(page, "A").get_by_role("button", name=re.compile("^Mount, 4 points,")).is_disabled()
    assert "{" not in page.locator("#calc-last").inner_text()  # no raw JSON as a result
    page.locator("#calc-age").fill("30")
    page.locator("#calc-age").dispatch_event("change")
    page.wait_for_function(SETTLED, arg=1)
    assert engine_board(BLUE, events) == board(page)


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_names_everywhere(screen):
    """The athletes' names in the log, the last call, the result, the end-of-match choices
    and the audience screen; the IDs stay in the link."""
    audience = screen.page()
    page = screen.page()
    page.goto(screen.site_url + NAMED)
    ready(page)
    audience.goto(page.locator("#calc-board-link").evaluate("(a) => a.href"))
    half(page, "A").get_by_role("button", name="Takedown, 2 points,").click()
    page.wait_for_function(SETTLED, arg=1)
    half(page, "B").get_by_role("button", name="Stalling,").click()
    page.wait_for_function(SETTLED, arg=2)
    assert "Stalling called against Bia." in page.locator("#calc-last").inner_text()
    page.get_by_role("button", name="End of the match…", exact=True).click()
    choices = page.locator("dialog[open] select option").all_inner_texts()
    assert {"Ana", "Bia"} <= set(choices)
    page.locator("dialog[open]").get_by_role("button", name="Record", exact=True).click()
    page.wait_for_function(SETTLED, arg=3)
    assert "Ana wins" in page.locator("#match-result").inner_text()
    page.get_by_role("button", name="Log", exact=True).click()
    log = "\n".join(shown_log(page))
    assert "Takedown: 2 points to Ana." in log
    assert " A." not in log
    assert " B." not in log
    audience.wait_for_function("() => document.querySelector('.lvl-audience').dataset.winner")
    assert ["Ana", "Bia"] == audience.locator(".lvl-athlete [data-name]").all_inner_texts()
    assert "Ana wins" in audience.locator("#board-result").inner_text()
    assert "A" == link_events(page)[0]["athlete"]


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_the_clock_and_undo_outlive_a_closed_tab(screen):
    """The clock runs on while the tab is closed: opened again from its address it shows
    the time it would have, running; undo and redo work after it too."""
    screen.context.clock.install(time=1_700_000_000)
    page = screen.page()
    page.goto(screen.site_url + NAMED + "&length=300")
    ready(page)
    screen.context.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    page.locator("#calc-clock").click()  # Combate
    screen.context.clock.run_for(30_000)
    half(page, "A").get_by_role("button", name="Advantage,").click()
    page.wait_for_function(SETTLED, arg=1)
    half(page, "A").get_by_role("button", name=re.compile("^Mount, 4 points,")).click()
    page.wait_for_function(SETTLED, arg=2)
    assert "4:30" == page.locator("#calc-time").inner_text()
    address = page.url
    assert "match=" in address
    screen.page()  # another tab stays open (the context's clock runs on it)
    # With its unload handlers run, close() returns before the tab is gone: wait for it, or
    # the clock below may still reach the closing tab.
    with page.expect_event("close"):
        page.close(run_before_unload=True)
    screen.context.clock.run_for(10_000)  # the tab is closed for 10 s
    again = screen.page()
    again.goto(address)
    again.wait_for_function("() => document.querySelector('#calc-time').textContent === '4:20'")
    assert "running" == again.locator("#calc-board").get_attribute("data-clock")
    ready(again).wait_for_function(SETTLED, arg=2)
    assert {"type": "advantage", "athlete": "A", "time": 30} == link_events(again)[0]
    undo = again.get_by_role("button", name="Undo", exact=True)
    assert undo.is_enabled()
    undo.click()
    again.wait_for_function(SETTLED, arg=1)
    again.reload()
    ready(again).wait_for_function(SETTLED, arg=1)
    again.get_by_role("button", name="Redo", exact=True).click()
    again.wait_for_function(SETTLED, arg=2)
    assert (4, 1, 0) == board(again)["A"]


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_a_wrong_call_is_taken_back_in_two_taps(screen):
    """A takedown given to the wrong athlete: the last call, then the other athlete (two
    taps on the main screen); the last call, undone: one."""
    page = screen.page()
    page.goto(screen.site_url + NAMED)
    ready(page)
    half(page, "A").get_by_role("button", name="Takedown, 2 points,").click()
    page.wait_for_function(SETTLED, arg=1)
    taps = [
        page.locator("#calc-last"),
        page.locator("dialog[open]").get_by_role("button", name="Give it to Bia", exact=True),
    ]
    for tap in taps:
        tap.click()
    page.wait_for_function(
        "() => document.querySelector('.lvl-athlete[data-athlete=B]').dataset.points === '2'"
    )
    assert [{"type": "score", "position": "takedown", "athlete": "B"}] == link_events(page)
    half(page, "B").get_by_role("button", name="Advantage,").click()
    page.wait_for_function(SETTLED, arg=2)
    page.get_by_role("button", name="Undo", exact=True).click()  # one tap
    page.wait_for_function(SETTLED, arg=1)
    assert 2 == len(taps)


@pytest.mark.parametrize("screen", ["phone-landscape", "phone"], indirect=True)
def test_nothing_moves_under_a_finger_when_a_count_starts(screen):
    """A count for an athlete, one for both, and the call a count prompts when it runs
    out: no button of the grid moves."""
    screen.context.clock.install(time=1_700_000_000)
    page = screen.page()
    page.goto(screen.site_url + NAMED)
    ready(page)
    screen.context.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    buttons = page.locator(GRID)
    page.locator("#calc-clock").click()
    # Open the count's picker first: reaching its button may scroll the athlete's buttons
    # (the test's own tap does, as a finger would); from here nothing may move.
    half(page, "A").get_by_role("button", name="Count 20 s…,").click()
    before = buttons.evaluate_all(PLACES)
    page.locator("dialog[open] button[data-count]").first.click()
    page.locator(".lvl-shared").get_by_role("button", name="Both pulled guard", exact=True).click()
    page.wait_for_selector('[data-counts="A"] .lvl-count')
    assert before == buttons.evaluate_all(PLACES)
    screen.context.clock.run_for(21_000)
    page.wait_for_selector("#calc-prompts .lvl-prompt")
    assert before == buttons.evaluate_all(PLACES)
    assert page.locator("#calc-prompts .lvl-prompt").first.is_visible()


@pytest.mark.parametrize("screen", ["phone-landscape"], indirect=True)
def test_calls_before_the_engine_is_ready_are_scored_in_order(screen):
    """Three calls while the engine is held back: shown as waiting, no score drawn; once
    it answers, scored in the order they were made."""
    page = screen.page()
    held = []
    page.route("**/engine-worker.js", lambda route: held.append(route))
    page.goto(screen.site_url + NAMED)
    # Starting (match mode hides its progress); held back for less than the engine's 20 s.
    page.wait_for_selector("[data-engine-status]:not([hidden])", state="attached")
    calls = [
        ("A", "Takedown, 2 points, Ana"),
        ("B", "Mount, 4 points, Bia"),
        ("A", "Advantage, Ana"),
    ]
    for athlete, name in calls:
        half(page, athlete).get_by_role("button", name=name, exact=True).click()
    page.wait_for_function(
        "() => document.querySelectorAll('#calc-log li[data-waiting]').length === 3"
    )
    assert page.locator("#calc-waiting").is_visible()
    assert "3 calls are waiting" in page.locator("#calc-waiting").inner_text()
    assert ("–", "–", "–") == shown_board(page)["A"]
    held[0].continue_()
    ready(page).wait_for_function(SETTLED, arg=3)
    recorded = link_events(page)
    assert ["takedown", "mount", "advantage"] == [e.get("position", e["type"]) for e in recorded]
    assert ["A", "B", "A"] == [e["athlete"] for e in recorded]
    assert engine_board(BLUE, recorded) == board(page)


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_the_audience_screen_reads_from_three_metres(screen):
    """At 1366x768: every word at least 40 px, names bold, advantages and penalties in
    colours of their own, A on the left as on the match screen, names in the result."""
    page = screen.page()
    page.goto(screen.site_url + NAMED)
    ready(page)
    audience = screen.page()
    audience.goto(page.locator("#calc-board-link").evaluate("(a) => a.href"))
    page.locator(".lvl-shared").get_by_role("button", name="End of the match…", exact=True).click()
    page.locator("dialog[open] select").first.select_option("B")
    page.locator("dialog[open]").get_by_role("button", name="Record", exact=True).click()
    audience.wait_for_function("() => document.querySelector('.lvl-audience').dataset.winner")
    sizes = audience.evaluate("""() => [...document.querySelectorAll('.lvl-audience *')]
      .filter((e) => e.offsetParent !== null
        && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .map((e) => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])""")
    assert [] == [(text, size) for text, size in sizes if size < 40]
    colours = audience.evaluate("""() => ['advantages', 'penalties'].map((f) =>
      getComputedStyle(document.querySelector(`.lvl-audience .lvl-${f}`)).backgroundColor)""")
    assert colours[0] != colours[1]
    weight = audience.evaluate(
        "() => getComputedStyle(document.querySelector('[data-name]')).fontWeight"
    )
    assert int(weight) >= 700
    left = audience.evaluate("""() => ['A', 'B'].map((a) =>
      document.querySelector(`.lvl-athlete[data-athlete="${a}"]`).getBoundingClientRect().x)""")
    assert left[0] < left[1]
    assert "Bia" in audience.locator("#board-result").inner_text()


def cli_fingerprint(tmp_path, events) -> str:
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events), encoding="utf-8")
    argv = [sys.executable, "-m", "lvl_rules", "sheet", "--edition", IN_FORCE, "--age", "30",
            "--belt", "blue", "--uniform", "gi", "--name-a", "Ana", "--json",
            str(path)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)["fingerprint"]["sha256"]


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_the_match_sheet_settles_a_protest(screen, tmp_path):
    """A 40-event match's sheet: reached from the match's end, every event with its time
    and clause, the fingerprint the command line gives, a QR code of the replay link, on
    one A4 page; any change of one event gives another fingerprint."""
    from pypdf import PdfReader

    events = forty_events()
    page = screen.page()
    page.goto(
        f"{screen.site_url}calculator/?{DIVISION}&name_a=Ana&events={quote(json.dumps(events))}"
    )
    ready(page).wait_for_function(SETTLED, arg=40)
    page.locator("#calc-sheet").click()
    page.wait_for_selector(".lvl-sheet-proof:not([hidden])", timeout=ENGINE_MS)
    shown = page.locator('[data-sheet="fingerprint"]').inner_text()
    assert cli_fingerprint(tmp_path, events) == shown
    rows = page.locator('[data-sheet="events"] tr')
    assert 40 == rows.count()
    assert ["0:05", "Takedown: 2 points to Ana.", "§5.1"] == [
        rows.nth(0).locator("td").nth(i).inner_text().strip() for i in (1, 2, 3)
    ]
    assert page.locator(".lvl-sheet-qr svg path").count() == 1
    replay = urlsplit(page.locator('[data-sheet="replay"]').get_attribute("href"))
    assert "events-gzip" in parse_qs(replay.fragment)
    page.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    assert 1 == len(pdf.pages)
    assert shown[:32] in pdf.pages[0].extract_text().replace("\n", "")
    changed = [*events[:10], {**events[10], "time": events[10]["time"] + 1}, *events[11:]]
    other = screen.page()
    other.goto(f"{screen.site_url}calculator/sheet/?{DIVISION}&events={quote(json.dumps(changed))}")
    other.wait_for_selector(".lvl-sheet-proof:not([hidden])", timeout=ENGINE_MS)
    assert other.locator('[data-sheet="fingerprint"]').inner_text() not in (shown, "")
