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
FIELDS = ("action", "edition", "age", "lvl", "belt", "experience", "uniform", "events", "technique")


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
