""" "My division": the engine's structured facts for the questions people bring, written
from the sources, and the properties every answer keeps.

- the parent of a 13-year-old white belt in Gi (Edition 2): one restricted technique is
  legal (submissions that stretch the legs apart, group 2 from 13); jumping guard is a
  serious foul under fifteen (7.2.2); the youth-protection scale (8.2);
- a 30-year-old blue belt with wrestling experience in No-Gi: heel hooks are for brown and
  black belts in No-Gi (group 6); closed-guard compression is legal from adult blue
  (our reading); his experience moves only white belts up (1.1);
- the parent of a 9-year-old in Gi: what she may not do yet, soonest first, and the
  severe fouls that would disqualify her; the form asks nothing beside age and uniform;
- what changed for everyone in Edition 2 (the scoring), and what changed for a person
  whose Edition 1 LVL is not known (what holds whatever it was, what depends on it);
- every "not legal" answer names a step that makes the technique legal, and that step
  does (checked with the eligibility engine); below the age the LVL or belt is needed,
  it changes nothing, nor does prior experience below the age it can move anyone up (so
  the page need not ask for them).
"""

from __future__ import annotations

import pytest
from athletes import UNIFORMS, rank_field, ranks_at
from timeline_names import AMENDMENT, EDITIONS, FULL, TITLE

from lvl_rules import RulesError, division, load_edition
from lvl_rules.engines.eligibility import decide
from lvl_rules.engines.my_division import asked_fields, for_everyone, overview
from lvl_rules.faces.my_division import answer, asked_at, overview_json
from lvl_rules.loading.glossary import load_glossary
from lvl_rules.model import COLLECTIONS, MAX_AGE, MIN_AGE
from lvl_rules.model.rulebook import SENTENCES
from lvl_rules.words.my_division import UNLISTED_NOTE, field_problem, ladder_line, page_words

PARENT = {"edition": AMENDMENT, "age": "13", "belt": "white", "uniform": "gi"}
WRESTLER = {"edition": AMENDMENT, "age": "30", "belt": "blue", "uniform": "nogi",
            "experience": ["wrestling"]}  # fmt: skip


def facts(fields: dict) -> dict:
    placed = answer(fields)["placement"]
    assert "answer" in placed, placed
    return placed["answer"]


def not_legal(found: dict) -> dict[str, str]:
    return {item["id"]: item["unlock"] for item in found["not_legal"]}


def fouls(found: dict) -> dict[str, str]:
    return {item["id"]: item["status"] for item in found["fouls"]}


def test_parent_of_a_13_year_old_white_belt():
    """13, white belt, Gi: only leg-stretching submissions; choking and the like from 16;
    jumping guard is a foul; the youth scale; heel hooks never before 18."""
    found = facts(PARENT)
    assert ["leg-stretching-submission"] == found["legal"]
    blocked = not_legal(found)
    assert "age=16" == blocked["omoplata"]
    assert "age=16" == blocked["front-guillotine"]
    assert "age=18;rank=brown,black;uniform=nogi" == blocked["heel-hook"]
    assert "never" == blocked["scissor-takedown"]
    assert "applies" == fouls(found)["jump-guard"]
    assert "applies" == fouls(found)["illegal-hold"]
    assert "under-15" == found["ladder"]


def test_a_30_year_old_blue_belt_wrestler_in_no_gi():
    """Heel hooks: brown and black belts in No-Gi; closed-guard compression: legal; the
    wrestling experience changes nothing for a blue belt; jumping guard is no foul."""
    result = answer(WRESTLER)
    found = result["placement"]["answer"]
    assert "rank=brown,black" == not_legal(found)["heel-hook"]
    assert "closed-guard-compression" in found["legal"]
    assert [{"field": "experience", "code": "experience-rank"}] == result["placement"]["remarks"]
    assert "not-here" == fouls(found)["jump-guard"]
    assert "standard" == found["ladder"]


def test_what_changed_for_the_wrestler_without_his_lvl():
    """Without his Edition 1 LVL: nothing differs whatever it was; heel hooks and the
    jumping-guard foul differ with some LVLs only (LVL 3-4 in No-Gi could heel hook, LVL 1
    could not jump guard); the scoring changed for everyone."""
    compared = answer(WRESTLER)["compare"]
    assert [{"edition": FULL, "field": "lvl"}] == compared["unknown"]
    assert [] == compared["differences"]
    assert {"kind": "technique", "id": "heel-hook"} in compared["depends"]
    assert {"kind": "foul", "id": "jump-guard"} in compared["depends"]
    assert "positions/mount" in {f"{c['collection']}/{c['id']}" for c in compared["everyone"]}


def test_without_both_ranks_there_is_nothing_to_compare():
    """Neither the LVL nor the belt: the comparison names the field it needs first."""
    compared = answer({"edition": FULL, "age": "30", "uniform": "gi"})["compare"]
    assert {"edition", "error"} == set(compared)
    assert "rank-required" == compared["error"]["problem"]


def test_the_parent_of_a_9_year_old_in_gi():
    """9, Gi: no restricted technique yet; leg-stretching submissions from 13, chokes and
    the guillotine from 16, the rest from 18 by belt, the prohibited never, in that order;
    a technique not allowed for her is among the severe fouls; nothing to ask beside age
    and uniform; and what changed for everyone in Edition 2."""
    result = answer({"edition": AMENDMENT, "age": "9", "uniform": "gi"})
    found = result["placement"]["answer"]
    assert [] == found["legal"]
    whens = [item["unlock"] for item in found["not_legal"]]
    assert "age=13" == whens[0]
    assert "age=16" == not_legal(found)["front-guillotine"]
    ages = [int(w.split(";")[0].removeprefix("age=")) for w in whens if w.startswith("age=")]
    assert ages == sorted(ages)
    prohibited = [item["prohibited"] for item in found["not_legal"]]
    assert prohibited == sorted(prohibited)  # the prohibited last
    assert "illegal-hold" in found["severe"]
    assert "knee-reaping-foot-across" in found["severe"]
    assert "stalling" not in found["severe"]  # not a severe foul
    assert "severe" not in found["severe"]  # the catch-all is not listed
    assert [] == asked_at(load_edition(AMENDMENT), "9") == asked_at(load_edition(FULL), "9")
    assert [] == result["compare"]["differences"]
    assert 6 == len(result["compare"]["everyone"])


def test_reaping_foot_across_is_no_severe_foul_where_reaping_is_legal():
    """Adult brown belt in No-Gi: knee reaping is legal, so crossing the foot is not among
    the severe fouls that disqualify him; in Gi it is."""
    nogi = facts({"edition": AMENDMENT, "age": "40", "belt": "brown", "uniform": "nogi"})
    gi = facts({"edition": AMENDMENT, "age": "40", "belt": "brown", "uniform": "gi"})
    assert "knee-reaping-foot-across" not in nogi["severe"]
    assert "knee-reaping-foot-across" in gi["severe"]


def test_edition_2_changed_the_scoring_for_everyone():
    """The update's scoring changes concern every athlete: reverse knee on belly, mounts,
    back control, takedowns from the knees, the escaped locked submission, the advantage
    for a mount attempt; the jumping-guard change depends on the division and is not
    among them."""
    found = {
        (c.collection, c.id): c.cite
        for c in for_everyone(load_edition(FULL), load_edition(AMENDMENT))
    }
    assert {
        ("positions", "takedown"): "5.1",
        ("positions", "knee-on-belly"): "5.3",
        ("positions", "mount"): "5.4",
        ("positions", "back-control"): "5.5",
        ("escapes", "locked"): "5.7",
        ("advantages", "near-mount"): "6",
    } == found


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_fields_asked_by_age(edition_id):
    """Beside age and uniform, the form asks for the LVL or belt from the age the edition
    requires one, prior experience from the age it can move someone up, nothing outside
    the rules' ages."""
    edition = load_edition(edition_id)
    axis = rank_field(edition_id)
    rules = edition.eligibility
    for age in (MIN_AGE - 1, MIN_AGE, 15, 16, 17, 18, MAX_AGE, MAX_AGE + 1):
        wanted = []
        if MIN_AGE <= age <= MAX_AGE:
            if age >= rules.rank_required_from:
                wanted.append(axis)
            if edition.experiences and age >= rules.promotion.min_age:
                wanted.append("experience")
        assert tuple(wanted) == asked_fields(edition, age), age


def test_below_the_age_of_fair_play_experience_changes_nothing():
    """Under the age from which prior experience can move an athlete up (Edition 2: 16),
    ticking any kind changes nothing in the answer: the page need not ask."""
    edition = load_edition(AMENDMENT)
    promotion = edition.eligibility.promotion
    for age in range(MIN_AGE, promotion.min_age):
        for uniform in UNIFORMS:
            for rank in ranks_at("2", age):
                alone = overview_json(division(edition, age=age, uniform=uniform, belt=rank))
                for kind in edition.experiences:
                    given = division(
                        edition, age=age, uniform=uniform, belt=rank, experience=[kind]
                    )
                    assert alone == overview_json(given), (age, rank, uniform, kind)


def test_the_penalty_scale_in_a_line():
    """The youth scale on one line, the steps that do the same taken together."""
    scale = next(ladder for ladder in load_edition(AMENDMENT).ladders if ladder.id == "under-15")
    assert (
        "1st marked only · 2nd an advantage to the opponent · 3rd–5th 2 points to the "
        "opponent · 6th disqualification"
    ) == ladder_line(scale.steps)


def test_what_changed_for_the_wrestler_at_lvl_3():
    """At LVL 3 in Edition 1 he could heel hook in No-Gi; at blue belt in Edition 2 he may
    not: the comparison says so, citing §1 of both editions."""
    changes = answer({**WRESTLER, "lvl": "3"})["compare"]["differences"]
    heel = next(c for c in changes if c["id"] == "heel-hook")
    assert {"kind": "technique", "id": "heel-hook", "before": True, "after": False,
            "cites": ["1", "1"], "notes": []} == heel  # fmt: skip


def test_our_readings_are_marked_in_what_changed():
    """An adult white belt at LVL 1 keeps the jumping-guard foul; at LVL 2 it is new for
    him in Edition 2, and that is our reading, not the update's words."""
    base = {"edition": AMENDMENT, "age": "25", "belt": "white", "uniform": "gi"}
    assert [] == [c for c in answer({**base, "lvl": "1"})["compare"]["differences"]
                  if c["id"] == "jump-guard"]  # fmt: skip
    changes = answer({**base, "lvl": "2"})["compare"]["differences"]
    jump = next(c for c in changes if c["id"] == "jump-guard")
    assert (False, True, ["jump-guard-white-belts"]) == (jump["before"], jump["after"],
                                                         jump["notes"])  # fmt: skip
    blue = answer({**base, "belt": "blue", "lvl": "1"})["compare"]["differences"]
    squeeze = next(c for c in blue if c["id"] == "closed-guard-compression")
    assert ["closed-guard-compression-blue"] == squeeze["notes"]


def test_knee_reaping_is_legal_and_no_foul_for_brown_belts_in_no_gi():
    """Group 6 may reap: the severe reaping foul (and its reset) is not theirs."""
    found = facts({"edition": AMENDMENT, "age": "40", "belt": "brown", "uniform": "nogi"})
    assert "knee-reaping" in found["legal"]
    assert "legal-here" == fouls(found)["knee-reaping-foot-across"]


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_every_unlock_makes_the_technique_legal(edition_id):
    """For every athlete (a spread of ages, every rank, both uniforms), every technique
    that is not legal names the step after which it is (the eligibility engine agrees),
    or "never" for the always-prohibited ones only."""
    edition = load_edition(edition_id)
    axis = rank_field(edition_id)
    for age in (*range(4, 21), 30, 120):
        for rank in ranks_at(edition_id, age):
            for uniform in UNIFORMS:
                athlete = division(edition, age=age, uniform=uniform, **{axis: rank})
                for item in overview(athlete).not_legal:
                    move = item.verdict.technique
                    assert item.unlock.never == move.prohibited, (athlete, move.id)
                    if move.prohibited:
                        continue
                    older = max(age, item.unlock.min_age or age)
                    kit = item.unlock.uniforms[0] if item.unlock.uniforms else uniform
                    if item.unlock.ranks:
                        wanted = [item.unlock.ranks[0]]
                    elif rank in ranks_at(edition_id, older) and older >= 16:
                        wanted = [rank]
                    else:  # no rank asked for: then any rank at that age will do
                        wanted = [r for r in ranks_at(edition_id, older) if r is not None]
                    for given in wanted:
                        later = division(edition, age=older, uniform=kit, **{axis: given})
                        assert decide(later, move.id).legal, (athlete, move.id, item.unlock)


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_below_the_rank_age_the_rank_changes_nothing(edition_id):
    """Under the age from which an edition needs an LVL or belt, every rank gives the
    same answer as none (legal or not and when, fouls, scale): the page may say the field
    changes nothing."""
    edition = load_edition(edition_id)
    axis = rank_field(edition_id)
    for age in range(4, edition.eligibility.rank_required_from):
        for uniform in UNIFORMS:
            alone = overview_json(division(edition, age=age, uniform=uniform))
            for rank in ranks_at(edition_id, age):
                given = division(edition, age=age, uniform=uniform, **{axis: rank})
                assert alone == overview_json(given), (age, rank, uniform)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"age": "3"}, "age", "The rules start at age 4: enter an age from 4 to 120."),
        ({"age": "130"}, "age", "The rules go up to age 120: enter an age from 4 to 120."),
        ({"age": ""}, "age", "Enter the athlete's age in years, from 4 to 120."),
        ({"age": "30", "belt": "grey"}, "belt",
         "Kids' belts are for athletes under 16: choose white, blue, purple, brown or black."),
        ({"age": "12", "belt": "blue"}, "belt",
         "Blue belt is for athletes aged 16 and over: choose white, grey, yellow, orange or "
         "green, or leave the belt empty."),
        ({"age": "30"}, "belt",
         f"From age 16, {TITLE[AMENDMENT]} goes by belt: choose white, blue, purple, brown or "
         "black."),
        ({"age": "30", "belt": "white", "uniform": "kimono"}, "uniform", "Choose Gi or No-Gi."),
    ],
)  # fmt: skip
def test_errors_are_plain_words_on_the_field(fields, field, words):
    """Each error names the field and says what to do, in plain words (no engine text)."""
    result = answer({"edition": AMENDMENT, "uniform": "gi", **fields})
    error = result["placement"]["error"]
    assert (field, words) == (error["field"], error["message"])


def test_an_lvl_at_10_is_a_remark_not_an_error():
    """Edition 1 at 10: the LVL changes nothing (age decides), and the page says so on the
    LVL field; the answer is still given."""
    result = answer({"edition": FULL, "age": "10", "lvl": "3", "uniform": "gi"})
    assert "answer" in result["placement"]
    assert [{"field": "lvl", "code": "rank-unused"}] == result["placement"]["remarks"]
    said = page_words((load_edition(FULL), load_edition(AMENDMENT)), [])
    assert "changes nothing" in said["editions"]["1"]["remarks"]["rank-unused"]


def test_the_lvl_is_asked_for_without_inventing_it_from_a_belt():
    """Edition 1 from 16 needs the LVL: the message says it is the federation's placement."""
    try:
        division("1", age=30, uniform="gi")
    except RulesError as error:
        said = field_problem(error.problem, error.details)
    assert "LVL 1, 2, 3 or 4" in said
    assert "cannot be worked out from a belt" in said


def test_no_engine_wording_reaches_a_person():
    """Missing values never read 'None' in any message (the old 'not None')."""
    for value in (None, ""):
        with pytest.raises(RulesError) as caught:
            division("2", age=value, uniform="gi")
        assert "None" not in str(caught.value)
        assert "None" not in field_problem(caught.value.problem, caught.value.details)


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_readings_name_records_that_exist(edition_id):
    """Every record (or sentence of ours, or glossary term) a note names as following our
    reading exists in its edition (the loader checks it too: tests/broken/note_reading_*),
    and the note on what the chart does not restrict is there to be cited."""
    edition = load_edition(edition_id)
    terms = {term.id for term in load_glossary()}
    for note in edition.notes.values():
        for reading in note.readings:
            if reading.collection == "sentences":
                assert reading.key in SENTENCES, (note.id, reading.key)
                continue
            if reading.collection == "terms":
                assert reading.key in terms, (note.id, reading.key)
                continue
            assert reading.collection in (*COLLECTIONS, "eligibility"), note.id
            if reading.key is not None:
                records = getattr(edition, reading.collection)
                keys = records if isinstance(records, dict) else {r.id for r in records}
                assert reading.key in keys, (note.id, reading.key)
    assert "1" == edition.notes[UNLISTED_NOTE].clause


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_no_gi_athlete_is_told_no_gi_only_foul(edition):
    """A 15-year-old in No-Gi: no foul that needs a gi (an unusable gi, a foot in the
    lapel) among the fouls or the disqualifying ones; those of both uniforms stay (the
    undergarment); in Gi they are listed as the uniform's, marked as our reading."""
    nogi = facts({"edition": edition, "age": "15", "uniform": "nogi"})
    gi_only = {"unusable-gi", "foot-in-belt-or-lapel", "inside-grip", "removing-own-gi",
               "untied-belt-choke"}  # fmt: skip
    shown = {*fouls(nogi), *nogi["severe"]}
    assert set() == gi_only & shown
    assert {"no-undergarment", "suplex-onto-head"} <= set(nogi["severe"])
    assert "uniform" == fouls(nogi)["nogi-clothing-grip"]
    gi = facts({"edition": edition, "age": "15", "uniform": "gi"})
    assert "unusable-gi" in gi["severe"]
    marked = {item["id"]: item.get("readings") for item in gi["fouls"]}
    assert {foul: ["gi-only-fouls"] for foul in gi_only} == {f: marked[f] for f in gi_only}
    assert {"uniform"} == {item["status"] for item in gi["fouls"] if item["id"] in gi_only}
    assert "nogi-clothing-grip" not in marked
