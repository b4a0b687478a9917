"""The build's check of the path form → fields → table → answer (build_scripts/pages/
form_check.py): it passes on the forms the build writes, and stops the build, naming the
division, when a form cannot ask for a division that My division's rules table answers
(issue 37: a form with one rank field per edition refused every adult of a third one)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from timeline_names import IN_FORCE

from build_scripts.pages.form_check import check_form
from build_scripts.pages.forms import division_fields
from build_scripts.pages.lookup_page import not_asked_first, rules_table
from lvl_rules import load_all, load_edition

pytestmark = [pytest.mark.host]

EDITIONS = load_all()
ANSWERS = rules_table(EDITIONS)
AXIS = load_edition(IN_FORCE).eligibility.axis  # the rank field of the edition in force


def the_form(prefix: str) -> str:
    return division_fields(prefix, EDITIONS, not_asked=not_asked_first(ANSWERS))


def test_the_forms_the_build_writes_pass() -> None:
    """My division's form and the calculator's can ask for every division the table
    answers, and find the engine's answer."""
    for prefix in ("lookup", "calc"):
        check_form(prefix, the_form(prefix), EDITIONS, ANSWERS)


def _rank_field_of_another_edition(html: str) -> str:
    """The rank field of the edition in force serves only the other editions: the form
    of issue 37, with a rank field per edition, for an edition it was not written for."""
    others = " ".join(e.id for e in EDITIONS if e.id != IN_FORCE)
    block = re.compile(
        rf'data-for-editions="[^"]*"( hidden)?( data-asked-by-age)?><label for="\w+-{AXIS}"'
    )
    assert block.search(html)
    return block.sub(lambda m: f'data-for-editions="{others}" hidden><label for="x-{AXIS}"', html)


def _a_rank_left_out(html: str) -> str:
    rank = list(load_edition(IN_FORCE).ranks)[-1]
    return re.sub(rf'<option value="{rank}"[^>]*>[^<]*</option>', "", html)


def _ages_cut_short(html: str) -> str:
    return re.sub(r'(name="age"[^>]*max=")\d+"', r'\g<1>30"', html)


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_rank_field_of_another_edition, f"(no {AXIS} field)"),
        (_a_rank_left_out, f"{AXIS} {list(load_edition(IN_FORCE).ranks)[-1]}, Gi (no {AXIS} "),
        (_ages_cut_short, "(no age field that takes it)"),
    ],
    ids=["rank-field-of-another-edition", "a-rank-left-out", "ages-cut-short"],
)
def test_a_form_that_cannot_ask_for_a_division_stops_the_build(
    spoil: Callable[[str], str], said: str
) -> None:
    """The build stops, naming a division the form cannot ask for and what it lacks."""
    with pytest.raises(SystemExit) as stopped:
        check_form("My division", spoil(the_form("lookup")), EDITIONS, ANSWERS)
    message = str(stopped.value)
    assert "My division's form cannot ask for" in message
    assert any(f"{e.title}: age " in message for e in EDITIONS)  # the division named
    assert said in message
