"""The JSON API the browser's engine worker calls: one JSON string in, one out, never raising."""

from __future__ import annotations

import json

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lvl_rules.faces.api import ACTIONS, handle  # noqa: E402

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
    request = {"action": "eligibility", "edition": "1", "age": 30, "lvl": 2, "uniform": "gi"}
    answer = json.loads(handle(json.dumps(request)))
    assert answer == {"ok": True, "result": ACTIONS["eligibility"](request)}


MATCH = {"action": "score", "edition": "2", "age": 30, "belt": "blue", "uniform": "gi"}
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
    """The API keeps the last match, yet every answer is the one a fresh scoring gives:
    after more events, a correction, another division and a bad event."""
    from lvl_rules import RulesError, division, score_match

    athlete = {"edition": "2", "age": 30, "belt": "blue", "uniform": "gi"}
    corrected = [*EVENTS[:1], {"type": "score", "athlete": "B", "position": "mount"}, *EVENTS[2:]]
    steps = [
        (athlete, EVENTS[:2]),
        (athlete, EVENTS),
        (athlete, corrected),
        ({**athlete, "belt": "white"}, corrected),
        (athlete, [*EVENTS, {"type": "advantage", "athlete": "A"}]),
        (athlete, EVENTS[:3]),
    ]
    for fields, events in steps:
        answer = json.loads(handle(json.dumps({"action": "score", **fields, "events": events})))
        try:
            expected = {"ok": True, "result": score_match(division(**fields), events).to_json()}
        except RulesError as error:
            expected = {
                "ok": False, "error": str(error), "field": error.field, "problem": error.problem,
            }  # fmt: skip
        assert expected == answer


def test_one_more_event_scores_only_that_event(monkeypatch):
    """Scoring grows linearly: a page sends the whole match after every call; after a
    10,000-event match, one more event is the only one the engine scores again, and the
    answer's log holds only that event's lines (log_from)."""
    from lvl_rules.engines.scoring import Scorer
    from lvl_rules.faces import api
    from lvl_rules.faces.library import LastMatch

    monkeypatch.setattr(api, "LAST_MATCH", LastMatch())  # no match kept from another test
    scored: list[int] = []
    extend = Scorer.extend
    monkeypatch.setattr(
        Scorer, "extend", lambda self, raw: scored.append(len(raw)) or extend(self, raw)
    )
    kinds = [
        {"type": "score", "athlete": "A", "position": "mount"},
        {"type": "advantage", "athlete": "B"},
        {"type": "submission-escaped", "athlete": "A", "locked": True},
    ]
    events = [kinds[i % 3] for i in range(10_000)]
    handle(json.dumps({**MATCH, "events": events}))
    more = [*events, {"type": "advantage", "athlete": "A"}]
    answer = json.loads(handle(json.dumps({**MATCH, "events": more, "log_from": 10_000})))
    assert [10_000, 1] == scored[-2:]
    assert {10_000} == {line["event"] for line in answer["result"]["log"]}


WITHDRAWN = {"type": "award", "athlete": "A", "award": "disqualified-in-error"}
ADULT_LVL_2_NOGI = {"action": "score", "edition": "1", "age": 30, "lvl": 2, "uniform": "nogi"}


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
    refused = json.loads(handle(json.dumps({**ADULT_LVL_2_NOGI, "events": [judged, WITHDRAWN]})))
    request = {**ADULT_LVL_2_NOGI, "events": [called, WITHDRAWN, {"type": "end"}]}
    answer = json.loads(handle(json.dumps(request)))
    assert (False, "hold-not-legal") == (refused["ok"], refused["problem"])
    athletes = answer["result"]["athletes"]
    assert (2, False, "A", "points") == (
        athletes["A"]["points"], athletes["A"]["disqualified"],
        answer["result"]["result"]["winner"], answer["result"]["result"]["method"],
    )  # fmt: skip
