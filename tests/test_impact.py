"""``lvl-rules impact``: what an edition changes against the one it amends, for every
division, checked against the engine's answers for each division it names (and those it
does not), and against the amendment's own changes."""

from __future__ import annotations

import json
from itertools import product

import pytest
from athletes import UNIFORMS, rank_field, ranks_at
from timeline_names import FULL, PAIRS

from lvl_rules import RulesError, check_all, division, load_edition
from lvl_rules.faces.cli import main
from lvl_rules.faces.impact import impact

AGES = (4, 9, 12, 13, 15, 16, 17, 18, 30, 120)  # each side of the chart's age limits
SCORING = ("positions", "escapes", "awards", "advantages")


def _legal(edition_id: str, age: int, uniform: str, ranks: dict[str, str | None]) -> dict:
    axis = load_edition(edition_id).eligibility.axis
    athlete = division(edition_id, age=age, uniform=uniform, **{axis: ranks.get(axis)})
    return {answer.technique.id: answer.legal for answer in check_all(athlete)}


def _named(found: dict) -> dict[tuple[int, str, tuple[tuple[str, str | None], ...]], dict]:
    """Each division a sampled age falls in: its technique differences."""
    named = {}
    for row in found["divisions"]:
        axes = list(row["ranks"])
        for uniform, chosen in product(row["uniforms"], product(*row["ranks"].values())):
            for start, end in row["ages"]:
                for age in (a for a in AGES if start <= a <= end):
                    techniques = {
                        d["id"]: (d["before"], d["after"])
                        for d in row["differences"] if d["kind"] == "technique"
                    }  # fmt: skip
                    named[(age, uniform, tuple(zip(axes, chosen, strict=True)))] = techniques
    return named


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_every_division_named_changes_as_the_engine_says(old: str, new: str) -> None:
    """For each sampled division impact names, each technique it lists goes from legal to
    illegal (or back) in the engine, and no other technique of both editions changes."""
    named = _named(impact(load_edition(new)))
    assert named
    axes = [rank_field(old), rank_field(new)]
    for age, uniform in product(AGES, UNIFORMS):
        for chosen in product(ranks_at(old, age), ranks_at(new, age)):
            if axes[0] == axes[1] and chosen[0] != chosen[1]:
                continue  # one axis: one rank
            ranks = dict(zip(axes, chosen, strict=True))
            before = _legal(old, age, uniform, ranks)
            after = _legal(new, age, uniform, ranks)
            found = {t: (before[t], after[t]) for t in before if t in after}
            changed = {t: both for t, both in found.items() if both[0] != both[1]}
            expected = named.get((age, uniform, tuple(ranks.items())), {})
            assert expected == changed, (age, uniform, ranks)


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_scoring_changes_are_the_amendments(old: str, new: str) -> None:
    """What changes for everyone: each change the amendment makes to the scoring tables."""
    found = impact(load_edition(new))
    expected = [(c.collection, c.key) for c in load_edition(new).changes if c.collection in SCORING]
    assert (old, expected) == (
        found["amends"],
        [(c["collection"], c["id"]) for c in found["for_everyone"] if c["collection"] in SCORING],
    )


def test_a_full_rulebook_amends_nothing() -> None:
    """The full rulebook has nothing to be compared with: a RulesError saying so."""
    with pytest.raises(RulesError, match="amends no edition"):
        impact(load_edition(FULL))


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_the_command_says_it_in_text_and_json(
    old: str, new: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``lvl-rules impact --edition N [--json]``: the same answer, as JSON and in words."""
    assert 0 == main(["impact", "--edition", new, "--json"])
    found = json.loads(capsys.readouterr().out)
    assert impact(load_edition(new)) == found
    assert 0 == main(["impact", "--edition", new])
    text = capsys.readouterr().out
    assert load_edition(new).title in text
    assert load_edition(old).title in text
    first = found["divisions"][0]["differences"][0]
    name = (load_edition(new).techniques | load_edition(new).fouls)[first["id"]].name
    assert name in text


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_what_impact_names_is_what_the_amendment_changes(old: str, new: str) -> None:
    """Against the data: each technique impact names is listed by a group the amendment
    adds, removes or changes, on one side only (it moves between groups); each foul it
    names is one the amendment changes, or one unless a technique that moves is legal."""
    before, after = load_edition(old), load_edition(new)
    found = impact(after)
    named = {(d["kind"], d["id"]) for row in found["divisions"] for d in row["differences"]}
    lists = {side: {g.id: set(g.adds) for g in edition.groups}
             for side, edition in (("old", before), ("new", after))}  # fmt: skip
    moved = set()
    for change in after.changes:
        if change.collection == "groups":
            moved |= lists["old"].get(change.key, set()) ^ lists["new"].get(change.key, set())
    fouls = {c.key for c in after.changes if c.collection == "fouls"}
    fouls |= {f.id for f in after.fouls.values() if f.unless_legal in moved}
    assert named
    assert [] == sorted(i for kind, i in named if kind == "technique" and i not in moved)
    assert [] == sorted(i for kind, i in named if kind == "foul" and i not in fouls)
