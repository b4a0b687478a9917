"""The JSON API the browser's engine worker calls: one JSON string in, one out, never raising."""

from __future__ import annotations

import json
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from timeline_names import AMENDMENT, EDITIONS, FULL  # noqa: E402

from lvl_rules import load_edition  # noqa: E402
from lvl_rules.faces.api import ACTIONS, handle  # noqa: E402
from lvl_rules.model import UNIFORMS  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = (
    "action", "edition", "age", "lvl", "belt", "experience", "uniform", "events", "technique",
    "log_from",
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=6), st.sampled_from([*ACTIONS, None])
)
def test_any_request_gets_a_json_answer(fields, action):
    """Whatever the request holds, handle answers JSON with ok true, or ok false and why."""
    if action is not None:
        fields["action"] = action
    answer = json.loads(handle(json.dumps(fields)))
    assert {"ok"} <= set(answer)
    if not answer["ok"]:
        assert isinstance(answer["error"], str)
        assert answer["error"]


@pytest.mark.parametrize("request_text", ["", "[1]", '{"action": []}', '{"action": {}}', "nul"])
def test_malformed_requests(request_text):
    """Not JSON, not an object, or an action that is not a name: a clear refusal."""
    answer = json.loads(handle(request_text))
    assert (False, "request" if "action" not in request_text else "action") == (
        answer["ok"],
        answer["field"],
    )


def test_an_answer_is_the_same_as_the_function():
    """handle() answers with what the API function returns."""
    request = {"action": "eligibility", "edition": FULL, "age": 30, "lvl": 2, "uniform": "gi"}
    answer = json.loads(handle(json.dumps(request)))
    assert answer == {"ok": True, "result": ACTIONS["eligibility"](request)}


MATCH = {"action": "score", "edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
EVENTS = [
    {"type": "score", "athlete": "A", "position": "guard-pass"},
    {"type": "score", "athlete": "A", "position": "mount"},
    {"type": "time-expired"},
    {"type": "advantage", "athlete": "B"},
    {"type": "end"},
]


def test_log_from_leaves_out_the_lines_a_page_has():
    """log_from: the same answer, with only the log lines of the events from that one on."""
    whole = json.loads(handle(json.dumps({**MATCH, "events": EVENTS})))["result"]
    later = json.loads(handle(json.dumps({**MATCH, "events": EVENTS, "log_from": 3})))["result"]
    assert [line for line in whole["log"] if line["event"] >= 3] == later["log"]
    assert 3 == later.pop("log_from")
    assert {**whole, "log": later["log"]} == later


@pytest.mark.parametrize("value", [-1, 1.5, "2", True, None, [0]])
def test_log_from_must_be_an_event_index(value):
    """A log_from that is not a whole number from 0: refused, naming the field."""
    answer = json.loads(handle(json.dumps({**MATCH, "events": EVENTS, "log_from": value})))
    assert (False, "log_from") == (answer["ok"], answer["field"])


def test_each_answer_is_a_fresh_scoring():
    """The API keeps each caller's match, yet every answer is the one a fresh scoring
    gives: after more events, a correction, another division and a bad event; and its
    log_from says which lines are new since that caller's previous answer."""
    from lvl_rules import RulesError, division, score_match

    athlete = {"edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
    corrected = [*EVENTS[:1], {"type": "score", "athlete": "B", "position": "mount"}, *EVENTS[2:]]
    steps = [
        (athlete, EVENTS[:2], 0),
        (athlete, EVENTS, 2),
        (athlete, corrected, 1),
        ({**athlete, "belt": "white"}, corrected, 0),
        (athlete, [*EVENTS, {"type": "advantage", "athlete": "A"}], 0),
        (athlete, EVENTS[:3], 0),  # after a refusal, the next answer starts afresh
        (athlete, EVENTS[:4], 3),
    ]
    for fields, events, unchanged in steps:
        request = {"action": "score", **fields, "events": events, "match": "fresh-test"}
        answer = json.loads(handle(json.dumps(request)))
        try:
            report = score_match(division(**fields), events).to_json(log_from=unchanged)
            expected = {"ok": True, "result": {**report, "log_from": unchanged}}
        except RulesError as error:
            expected = {
                "ok": False, "error": str(error), "field": error.field, "problem": error.problem,
            }  # fmt: skip
        assert expected == answer


def test_a_match_key_is_text_without_log_from():
    """match must be a non-empty text, and the engine (not the caller) says log_from."""
    for key, extra in [(3, {}), ("", {}), ("k", {"log_from": 0})]:
        request = {**MATCH, "events": EVENTS, "match": key, **extra}
        answer = json.loads(handle(json.dumps(request)))
        assert (False, "match", "match-key") == (answer["ok"], answer["field"], answer["problem"])


SET_ASIDE = [
    {"type": "score", "athlete": "A", "position": "mount"},
    {"type": "score", "athlete": "C", "position": "mount"},  # no such athlete
    None,  # not an event
    {"type": "end"},
    {"type": "advantage", "athlete": "B"},  # after the end
    {"type": "award", "athlete": "A", "award": "disqualified-in-error"},  # nothing to withdraw
]


def test_set_aside_scores_around_refused_events():
    """set_aside: each refused event gets one log line saying why (the engine's own
    refusal, with its field, code and clause), and the rest is scored as if it were not
    there."""
    from lvl_rules import division, score_match

    athlete = division("2", age=30, belt="blue", uniform="gi")
    answer = json.loads(handle(json.dumps({**MATCH, "events": SET_ASIDE, "set_aside": True})))
    assert answer["ok"]
    log = answer["result"]["log"]
    refused = {line["event"]: line for line in log if "refused" in line}
    expected = {
        1: ("events[1].athlete", "event-value", None),
        2: ("events[2]", "event-not-object", None),
        4: ("events[4]", "after-the-end", None),
        5: ("events[5]", "nothing-to-withdraw", "2.1"),
    }
    assert expected == {
        index: (line["refused"]["field"], line["refused"]["problem"], line["cite"])
        for index, line in refused.items()
    }
    assert all(line["effect"].startswith(f"Not scored: events[{i}]") for i, line in refused.items())
    alone = score_match(athlete, [SET_ASIDE[0], SET_ASIDE[3]]).to_json()
    assert alone["athletes"] == answer["result"]["athletes"]
    assert alone["result"] == answer["result"]["result"]
    moved = {0: 0, 1: 3}  # the events scored, at their places in the whole match
    assert [{**line, "event": moved[line["event"]]} for line in alone["log"]] == [
        line for line in log if "refused" not in line
    ]


def test_set_aside_must_be_true_or_false():
    """set_aside is a flag: anything else is refused, naming the field."""
    answer = json.loads(handle(json.dumps({**MATCH, "events": EVENTS, "set_aside": 1})))
    assert (False, "set_aside") == (answer["ok"], answer["field"])


@pytest.mark.host
def test_matches_of_several_threads_never_mix():
    """Callers scoring their own matches from several threads at once each get their own
    match's answer (the kept matches are shared, under a lock)."""
    import threading

    from lvl_rules import division, score_match

    athlete = division("2", age=30, belt="blue", uniform="gi")
    kinds = [
        {"type": "score", "athlete": "A", "position": "mount"},
        {"type": "advantage", "athlete": "B"},
    ]
    matches = {f"t{n}": [kinds[(i * n) % 2] for i in range(40 + n)] for n in range(8)}
    expected = {
        key: [score_match(athlete, events[:n]).to_json()["athletes"] for n in range(30, 41)]
        for key, events in matches.items()
    }
    wrong: list[str] = []

    def record(key: str) -> None:
        for step, length in enumerate(range(30, 41)):
            request = {**MATCH, "events": matches[key][:length], "match": key}
            answer = json.loads(handle(json.dumps(request)))
            if not answer["ok"] or answer["result"]["athletes"] != expected[key][step]:
                wrong.append(key)

    threads = [threading.Thread(target=record, args=(key,)) for key in matches]
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as under load
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    assert [] == wrong


def test_one_more_event_scores_only_that_event(monkeypatch):
    """Scoring grows linearly: a page sends the whole match after every call; after a
    10,000-event match, one more event is the only one the engine scores again, and the
    answer's log holds only that event's lines (log_from)."""
    from lvl_rules.engines.scoring import Scorer

    scored: list[int] = []
    extend = Scorer.extend
    monkeypatch.setattr(
        Scorer,
        "extend",
        lambda self, raw, **kw: scored.append(len(raw)) or extend(self, raw, **kw),
    )
    kinds = [
        {"type": "score", "athlete": "A", "position": "mount"},
        {"type": "advantage", "athlete": "B"},
        {"type": "submission-escaped", "athlete": "A", "locked": True},
    ]
    events = [kinds[i % 3] for i in range(10_000)]
    handle(json.dumps({**MATCH, "events": events, "match": "long"}))
    more = [*events, {"type": "advantage", "athlete": "A"}]
    answer = json.loads(handle(json.dumps({**MATCH, "events": more, "match": "long"})))
    assert [10_000, 1] == scored[-2:]
    assert 10_000 == answer["result"]["log_from"]
    assert {10_000} == {line["event"] for line in answer["result"]["log"]}


def test_names_are_what_the_sentences_call_the_athletes():
    """names: the log and the result say the athletes' names; the IDs stay in the data
    (each line's athlete, the winner); the same match under other names is said anew."""
    events = [
        {"type": "score", "athlete": "A", "position": "mount"},
        {"type": "penalty", "athlete": "B", "foul": "stalling"},
        {"type": "stoppage", "athlete": "B"},
    ]
    request = {**MATCH, "events": events, "match": "named", "names": {"A": "Ana", "B": "Bia"}}
    answer = json.loads(handle(json.dumps(request)))["result"]
    assert "Mount: 4 points to Ana." == answer["log"][0]["effect"]
    assert "Stalling called against Bia." == answer["log"][1]["effect"]
    assert "Bia cannot safely continue: Ana wins by stoppage." == answer["result"]["summary"]
    assert ("A", "A") == (answer["log"][0]["athlete"], answer["result"]["winner"])
    again = json.loads(handle(json.dumps({**request, "names": {"A": "Red", "B": "Blue"}})))
    assert 0 == again["result"]["log_from"]
    assert "Mount: 4 points to Red." == again["result"]["log"][0]["effect"]


@pytest.mark.parametrize("names", [["Ana"], {"C": "x"}, {"A": ""}, {"A": 3}, "Ana"])
def test_names_must_name_a_and_b(names):
    """names other than texts for A and B: refused, naming the field."""
    answer = json.loads(handle(json.dumps({**MATCH, "events": EVENTS, "names": names})))
    assert (False, "names", "names") == (answer["ok"], answer["field"], answer["problem"])


WITHDRAWN = {"type": "award", "athlete": "A", "award": "disqualified-in-error"}
ADULT_LVL_2_NOGI = {"action": "score", "edition": FULL, "age": 30, "lvl": 2, "uniform": "nogi"}


@pytest.mark.parametrize(
    ("disqualified", "problem", "words"),
    [
        ({"type": "severe-foul", "athlete": "A", "foul": "slippery-substance"},
         "not-for-a-hold", ["'slippery-substance'", "not for using a hold", "§2.1"]),
        ({"type": "severe-foul", "athlete": "A", "foul": "no-undergarment"},
         "not-for-a-hold", ["'no-undergarment'", "not for using a hold", "§2.1"]),
        ({"type": "technique", "athlete": "A", "technique": "heel-hook"},
         "hold-not-legal", ["'heel-hook'", "(§1)", "stands (§2.1)", "correct events[0]"]),
    ],
    ids=["substance", "undergarment", "hold-judged-illegal"],
)  # fmt: skip
def test_withdrawal_of_a_disqualification_not_for_a_legal_hold_is_refused(
    disqualified, problem, words
):
    """2.1 withdraws only a disqualification for using a hold that was legal: after a
    substance, a missing undergarment or a hold the chart does not allow (a heel hook for
    an adult LVL 2 in No-Gi), the API refuses, naming the event, the problem and 2.1."""
    request = {**ADULT_LVL_2_NOGI, "events": [disqualified, WITHDRAWN]}
    answer = json.loads(handle(json.dumps(request)))
    shown = [word for word in words if word in answer.get("error", "")]
    assert (False, "events[1]", problem, words) == (
        answer["ok"], answer.get("field"), answer.get("problem"), shown,
    )  # fmt: skip


def test_withdrawal_follows_a_corrected_disqualification():
    """The API scores again from the first changed event: the heel hook's refusal, then the
    same match with that event corrected to the referee's call of a prohibited hold, whose
    withdrawal gives A two points and lets the match go on."""
    judged = {"type": "technique", "athlete": "A", "technique": "heel-hook"}
    called = {"type": "severe-foul", "athlete": "A", "foul": "illegal-hold"}
    first = {**ADULT_LVL_2_NOGI, "events": [judged, WITHDRAWN], "match": "corrected"}
    refused = json.loads(handle(json.dumps(first)))
    request = {**ADULT_LVL_2_NOGI, "events": [called, WITHDRAWN, {"type": "end"}]}
    request["match"] = "corrected"
    answer = json.loads(handle(json.dumps(request)))
    assert (False, "hold-not-legal") == (refused["ok"], refused["problem"])
    athletes = answer["result"]["athletes"]
    assert (2, False, "A", "points") == (
        athletes["A"]["points"], athletes["A"]["disqualified"],
        answer["result"]["result"]["winner"], answer["result"]["result"]["method"],
    )  # fmt: skip


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_score_with_legality_names_the_other_uniforms_fouls_and_counts(edition):
    """What a page leaves out of its pickers: in No-Gi the fouls and counts that need a gi
    (notes gi-only-fouls and gi-only-counts, marked as readings of their only_for), in Gi
    the No-Gi clothing grip; every other foul and count is offered in both uniforms."""
    rules = load_edition(edition)
    away = {}
    for uniform in UNIFORMS:
        request = {**MATCH, "edition": edition, "age": 15, "uniform": uniform, "legality": True}
        request.pop("belt")
        answer = json.loads(handle(json.dumps({**request, "events": []})))["result"]
        away[uniform] = answer["other_uniform"]
    assert {"fifty-fifty-grip", "uniform-gi-top-and-belt"} == set(away["nogi"]["counts"])
    assert {"unusable-gi", "inside-grip", "foot-in-belt-or-lapel"} <= set(away["nogi"]["fouls"])
    assert {"fouls": ["nogi-clothing-grip"], "counts": [], "readings": []} == away["gi"]
    title = rules.notes["gi-only-counts"].title
    assert [{"id": "gi-only-counts", "title": title}] == away["nogi"]["readings"]
    for count in away["nogi"]["counts"]:
        assert ("gi-only-counts",) == rules.reading_ids("counts", count, "only_for")
    assert not set(away["nogi"]["fouls"]) & set(away["gi"]["fouls"])
    offered = set(rules.counts) - set(away["nogi"]["counts"])
    assert {"uniform-identification-belt", "uniform-drawstring", "stalling"} <= offered
