"""The calculator's scoreboard as the browser tests read it (shared by them): the stable
data- hooks of the page, the same numbers from the engine, and the events of the URL."""

from __future__ import annotations

import base64
import gzip
import json
from urllib.parse import parse_qs, urlsplit

from lvl_rules import division, score_match


def board(page) -> dict:
    """The scoreboard and result as the page shows them (the stable data- hooks)."""
    out = {}
    for name in ("A", "B"):
        panel = page.locator(f'.lvl-athlete[data-athlete="{name}"]')
        out[name] = tuple(
            int(panel.get_attribute(f"data-{f}")) for f in ("points", "advantages", "penalties")
        )
    result = page.locator("#match-result")
    out["winner"] = result.get_attribute("data-winner") or None
    out["method"] = result.get_attribute("data-method") or None
    return out


def shown_board(page) -> dict:
    """The scoreboard's numbers as shown, a dash where no score may be drawn."""
    return {
        name: tuple(
            page.locator(f'.lvl-athlete[data-athlete="{name}"]').get_attribute(f"data-{field}")
            for field in ("points", "advantages", "penalties")
        )
        for name in "AB"
    }


# Every change recorded has had its turn and the engine has answered, and the log shows
# `n` events: what a test waits for after a tap.
SETTLED = """(n) => document.querySelectorAll('#calc-log li[data-event]').length === n
  && document.querySelector('#calc-board').dataset.settled === 'true'"""


def wait_for_events(page, count: int, **options) -> None:
    """Wait until the log shows ``count`` events, scored (or refused) by the engine."""
    page.wait_for_function(SETTLED, arg=count, **options)


def shown_log(page) -> list[str]:
    """The text of each line of the log, once opened and drawn: a block of lines off the
    screen is not laid out (match.css), and reads as empty until the browser has drawn it."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('#calc-log li[data-event]')]
                   .every((line) => line.innerText.trim() !== '')"""
    )
    return page.locator("#calc-log li").all_inner_texts()


def engine_board(fields: dict, events: list) -> dict:
    """The same, as lvl_rules scores ``events`` for the division of ``fields``."""
    report = score_match(division(**fields), events)
    out = {n: (t.points, t.advantages, t.penalties) for n, t in report.athletes.items()}
    return {**out, "winner": report.result.winner, "method": report.result.method}


def link_text(page) -> str:
    """The events the page's URL holds, as text: in the query, or for a long match in the
    fragment, gzip-compressed."""
    url = urlsplit(page.url)
    query, fragment = parse_qs(url.query), parse_qs(url.fragment)
    if "events" in query:
        return query["events"][0]
    if "events-gzip" not in fragment:
        return "[]"
    packed = fragment["events-gzip"][0]
    return gzip.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))).decode()


def link_events(page) -> list:
    """The events the page's URL holds."""
    return json.loads(link_text(page))


def forty_events() -> list[dict]:
    """A 40-event match that ends on points at time, neither athlete disqualified."""
    kinds = [
        {"type": "score", "athlete": "A", "position": "takedown"},
        {"type": "advantage", "athlete": "B"},
        {"type": "score", "athlete": "B", "position": "guard-pass"},
        {"type": "penalty", "athlete": "B", "foul": "stalling"},
        {"type": "score", "athlete": "A", "position": "sweep"},
        {"type": "advantage", "athlete": "A"},
        {"type": "score", "athlete": "B", "position": "mount"},
    ]
    events = [{**kinds[i % 7], "time": 5 + i * 7} for i in range(38)]
    for i in (3, 24):
        events[i]["athlete"] = "A"  # so that neither is disqualified before time
    return [*events, {"type": "time-expired", "time": 300}, {"type": "end", "time": 302}]
