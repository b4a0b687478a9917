"""The score calculator in Chromium: buttons, URL state, undo, bad input."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from lvl_rules import division, score_match

pytestmark = pytest.mark.browser

ENGINE_SECONDS = 60_000


def open_calculator(visit, site_url, query: str = "", events: list | None = None):
    page = visit().page
    if events is not None:
        query += "&events=" + quote(json.dumps(events))
    page.goto(f"{site_url}calculator/?{query}")
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_SECONDS)
    return page


def board(page) -> dict:
    """The scoreboard and result as the page shows them (the stable data- hooks)."""
    out = {}
    for name in ("A", "B"):
        panel = page.locator(f'[data-athlete="{name}"]')
        out[name] = tuple(
            int(panel.get_attribute(f"data-{f}")) for f in ("points", "advantages", "penalties")
        )
    result = page.locator("#match-result")
    out["winner"] = result.get_attribute("data-winner") or None
    out["method"] = result.get_attribute("data-method") or None
    return out


def engine_board(fields: dict, events: list) -> dict:
    report = score_match(division(**fields), events)
    out = {n: (t.points, t.advantages, t.penalties) for n, t in report.athletes.items()}
    return {**out, "winner": report.result.winner, "method": report.result.method}


def press(page, label: str, athlete: str = "A", times: int = 1) -> None:
    page.get_by_role("radio", name=f"Athlete {athlete}", exact=True).check()
    for _ in range(times):
        count = page.locator("#calc-log li").count()
        page.locator(".lvl-controls:visible, .lvl-recorder").get_by_role(
            "button", name=label, exact=True
        ).first.click()
        page.wait_for_function(
            "(n) => document.querySelectorAll('#calc-log li').length > n"
            " || !document.querySelector('#calc-error').hidden",
            arg=count,
        )


def test_seven_point_sequence_by_buttons(visit, site_url):
    """Guard pass then mount: 7 points, each log line citing its clause."""
    page = open_calculator(visit, site_url, "edition=2&age=30&belt=purple&uniform=gi")
    press(page, "Guard pass (3)")
    press(page, "Mount (4)")
    assert (7, 0, 0) == board(page)["A"]
    cites = [a.inner_text() for a in page.locator("#calc-log li a").all()]
    assert ["§5.2", "§5.4"] == cites


def test_ladder_to_disqualification_by_buttons(visit, site_url):
    """Four stalling penalties: marked, advantage, two points, disqualification."""
    page = open_calculator(visit, site_url, "edition=1&age=25&lvl=2&uniform=nogi")
    page.locator("#calc-form, .lvl-controls:visible").get_by_label(
        "Foul", exact=True
    ).select_option("stalling")
    press(page, "Penalty", athlete="B", times=3)
    assert {"A": (2, 1, 0), "B": (0, 0, 3), "winner": None, "method": None} == board(page)
    press(page, "Penalty", athlete="B")
    assert ("A", "disqualification") == (board(page)["winner"], board(page)["method"])
    assert "Disqualified from the match" in page.locator('[data-athlete="B"]').inner_text()
    # The match is over: no more actions.
    assert page.get_by_role("button", name="Mount (4)", exact=True).is_disabled()


UNDER_15 = {"edition": "2", "age": 12, "belt": "green", "uniform": "gi"}


def test_under_15_ladder_from_the_url(visit, site_url):
    """Youth protection: the 4th and 5th penalties give two points; the 6th disqualifies."""
    five = [{"type": "penalty", "athlete": "B", "foul": "stalling"}] * 5
    page = open_calculator(visit, site_url, "edition=2&age=12&belt=green&uniform=gi", five)
    assert engine_board(UNDER_15, five) == board(page)
    assert {"A": (6, 1, 0), "B": (0, 0, 5), "winner": None, "method": None} == board(page)
    press(page, "Penalty", athlete="B")
    assert ("A", "disqualification") == (board(page)["winner"], board(page)["method"])


def test_illegal_technique_is_a_severe_foul(visit, site_url):
    """A heel hook in Edition 1 Gi disqualifies: the engine checks the division."""
    page = open_calculator(visit, site_url, "edition=1&age=30&lvl=3&uniform=gi")
    page.locator("#calc-form, .lvl-controls:visible").get_by_label(
        "Technique applied", exact=True
    ).select_option("heel-hook")
    press(page, "Technique applied")
    assert ("B", "disqualification") == (board(page)["winner"], board(page)["method"])
    assert "§7.2.3" in page.locator("#calc-log").inner_text()


def test_referee_decision_from_the_url(visit, site_url):
    """Level on everything: the referee's decision names the winner (3.6)."""
    events = [
        {"type": "advantage", "athlete": "A"},
        {"type": "advantage", "athlete": "B"},
        {"type": "end", "referee_decision": "B"},
    ]
    page = open_calculator(visit, site_url, "edition=1&age=30&lvl=1&uniform=gi", events)
    assert ("B", "referee-decision") == (board(page)["winner"], board(page)["method"])
    assert "§3.6" in page.locator("#match-result").inner_text()


def test_undo_and_the_link_reproduce_the_match(visit, site_url):
    """Undo takes back the last event; the URL always holds the events recorded."""
    page = open_calculator(visit, site_url, "edition=2&age=30&belt=blue&uniform=gi")
    press(page, "Sweep (2)", athlete="B")
    press(page, "Knee on belly: reverse", athlete="B")
    assert (4, 0, 0) == board(page)["B"]
    assert page.locator("#calc-share").inner_text() == "this match (2 events)"
    page.get_by_role("button", name="Undo last event").click()
    page.wait_for_function("() => document.querySelectorAll('#calc-log li').length === 1")
    assert (2, 0, 0) == board(page)["B"]
    assert page.locator("#calc-share").inner_text() == "this match (1 event)"
    again = visit().page
    again.goto(page.url)
    again.wait_for_selector("#calc-log li", timeout=ENGINE_SECONDS)
    assert board(page) == board(again)


SUBMISSION = {"type": "submission", "athlete": "A"}
GUARD_PASS = {"type": "score", "athlete": "A", "position": "guard-pass"}


@pytest.mark.parametrize(
    ("events", "kept", "words"),
    [
        ([SUBMISSION, {"type": "advantage", "athlete": "B"}], 1, "already ended"),
        ([GUARD_PASS, {"type": "score", "athlete": "C", "position": "mount"}], 1, "allowed: A, B"),
        ([{"type": "penalty", "athlete": "A", "foul": "nope"}], 0, "allowed: stalling"),
    ],
)  # fmt: skip
def test_bad_events_in_the_link(visit, site_url, events, kept, words):
    """A link with a bad event: a clear message, the good events before it are kept."""
    page = open_calculator(visit, site_url, "edition=2&age=30&belt=blue&uniform=gi", events)
    error = page.locator("#calc-error")
    error.wait_for(state="visible")
    assert words in error.inner_text()
    assert kept == page.locator("#calc-log li[data-event]").evaluate_all(
        "items => new Set(items.map(i => i.dataset.event)).size"
    )


def test_unreadable_events_and_a_bad_age_keep_the_page_working(visit, site_url):
    """Events that are not JSON and an impossible age: messages, then it works again."""
    page = visit().page
    page.goto(f"{site_url}calculator/?edition=2&age=300&belt=blue&uniform=gi&events=%5Bnot-json")
    error = page.locator("#calc-error")
    error.wait_for(state="visible", timeout=ENGINE_SECONDS)
    page.locator("#calc-form, .lvl-controls:visible").get_by_label("Age", exact=True).fill("30")
    page.locator("#calc-form, .lvl-controls:visible").get_by_label(
        "Age", exact=True
    ).dispatch_event("change")
    page.wait_for_function("() => document.querySelector('#calc-error').hidden")
    press(page, "Takedown (2)")
    assert (2, 0, 0) == board(page)["A"]


def test_an_event_refused_by_the_engine_is_not_lost_or_added(visit, site_url):
    """A button press the rules refuse shows why and leaves the log as it was."""
    page = open_calculator(visit, site_url, "edition=2&age=30&belt=white&uniform=gi")
    press(page, "Takedown (2)")
    page.locator("#calc-form, .lvl-controls:visible").get_by_label(
        "Foul", exact=True
    ).select_option("jump-guard")
    press(page, "Penalty", athlete="B")  # adult white belt: jumping guard is a foul here
    assert (0, 0, 1) == board(page)["B"]
    assert 2 <= page.locator("#calc-log li").count()
