"""/calculator/: record a match, see the score, the log with its clauses, the result.

The actions a person can record (positions and variants, fouls, techniques) come from
lvl_rules at build time; the scores come from the engine worker.
"""

from __future__ import annotations

import json
from html import escape

from lvl_rules.model import Edition
from lvl_rules.words.site import FOUL_GROUP_NAMES

from .forms import division_fields, edition_attributes, options, status_block
from .templating import TEMPLATES
from .urls import href

CALCULATOR = "calculator.md"


def _event_button(label: str, event: str, *, title: str = "") -> str:
    tip = f' title="{escape(title)}"' if title else ""
    return (
        f'<button type="button" class="lvl-act" data-event="{escape(event)}"{tip}>'
        f"{escape(label)}</button>"
    )


def calculator_controls(edition: Edition, shown: str) -> str:
    """Every action of one edition, as buttons and pickers (a <template> unless ``shown``)."""
    positions = []
    for p in edition.positions.values():
        buttons = [_event_button(f"{p.name} ({p.points})", _event(type="score", position=p.id))]
        buttons += [
            _event_button(
                f"{p.name}: {v.name}",
                _event(type="score", position=p.id, variant=key),
                title=v.explain,
            )
            for key, v in p.variants.items()
            if not v.standard
        ]
        positions.append("".join(buttons))
    severe = "".join(
        f'<optgroup label="{FOUL_GROUP_NAMES[group]}">'
        + options([(f.id, f.name) for f in edition.fouls.values() if f.group == group])
        + "</optgroup>"
        for group in ("severe", "disciplinary")
    )
    rulings = [(p.id, p.name) for p in edition.positions.values()] + [
        ("advantage", "Advantage"),
        ("none", "Nothing"),
        ("penalty", "Penalty"),
    ]
    escapes = edition.escapes
    html = TEMPLATES.get_template("controls.html.j2").render(
        e=edition.id,
        scope=edition_attributes(edition, shown),
        positions=positions,
        reasons=options(
            [(r.id, r.name) for r in edition.advantages.values()], blank="— not given —"
        ),
        advantage_buttons="\n".join(
            (
                _event_button("Advantage", _event(type="advantage")),
                _event_button(
                    escapes["open"].name, _event(type="submission-escaped", locked=False)
                ),
                _event_button(
                    escapes["locked"].name, _event(type="submission-escaped", locked=True)
                ),
            )
        ),
        ladder_fouls=options([(f.id, f.name) for f in edition.fouls.values() if f.on_ladder]),
        penalty_buttons="\n".join(
            (
                _event_button("Penalty", _event(type="penalty")),
                _event_button(
                    "Both athletes stalling",
                    _event(type="penalty", athlete="both", foul="stalling"),
                ),
            )
        ),
        severe_fouls=severe,
        severe_button=_event_button("Severe foul", _event(type="severe-foul")),
        techniques=options([(t.id, t.name) for t in edition.techniques.values()]),
        technique_button=_event_button("Technique applied", _event(type="technique")),
        rulings=options(rulings),
        panel_button=_event_button("Record the middle ruling", _event(type="panel")),
    )
    if edition.id == shown:
        return html
    # Another edition's controls stay inert until that edition is chosen: a <template> is
    # parsed but never laid out, which keeps the page light (the script clones it).
    return f'<template data-controls-for="{edition.id}">{html}</template>'


def _event(**fields: object) -> str:
    """The JSON of an event template (the page adds the athlete and the pickers)."""
    return json.dumps(fields, separators=(",", ":"))


def calculator_page(editions: tuple[Edition, ...]) -> str:
    """/calculator/: record a match, see the score, the log with its clauses, the result."""
    latest = editions[-1]
    athletes = "".join(
        f'<section class="lvl-athlete" data-athlete="{a}" data-points="0" data-advantages="0" '
        f'data-penalties="0" aria-labelledby="calc-name-{a}">'
        f'<h2 id="calc-name-{a}">Athlete {a}</h2>'
        '<dl><div><dt>Points</dt><dd data-field="points">0</dd></div>'
        '<div><dt>Advantages</dt><dd data-field="advantages">0</dd></div>'
        '<div><dt>Penalties</dt><dd data-field="penalties">0</dd></div></dl>'
        '<p data-field="status"></p></section>'
        for a in ("A", "B")
    )
    endings = "\n".join(
        _event_button(label, event)
        for label, event in (
            ("Wins by submission", _event(type="submission")),
            ("Cannot continue (stoppage)", _event(type="stoppage")),
            ("Lost consciousness", _event(type="loss-of-consciousness")),
        )
    )
    return TEMPLATES.get_template("calculator.md.j2").render(
        status=status_block(CALCULATOR, latest.id),
        root=href(CALCULATOR, ""),
        division=division_fields("calc", editions),
        athletes=athletes,
        controls="\n".join(calculator_controls(e, latest.id) for e in reversed(editions)),
        ending_buttons=endings,
        end_button=_event_button("End of the match (time)", _event(type="end")),
        athlete_options=lambda blank: options(
            [("A", "Athlete A"), ("B", "Athlete B")], blank=blank
        ),
    )
