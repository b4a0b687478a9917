"""The lookup and calculator pages: forms and buttons generated from the rule data.

The choices a person can make (editions, LVLs and belts, experience, positions and
variants, fouls, techniques) come from lvl_rules at build time, so the form is there
at once and no rule is typed into JavaScript. Answers come from the engine worker.
"""

from __future__ import annotations

import json
from html import escape

from lvl_rules.model import Edition
from lvl_rules.model.divisions import MAX_AGE, MIN_AGE, UNIFORM_NAMES

from .site_templates import TEMPLATES
from .urls import href

LOOKUP = "lookup.md"
CALCULATOR = "calculator.md"
FOUL_GROUP_NAMES = {
    "stalling": "Lack of combativeness",
    "serious": "Serious fouls",
    "severe": "Severe fouls (disqualify from the match)",
    "disciplinary": "Disciplinary fouls (disqualify from the competition)",
}


def _options(pairs: list[tuple[str, str]], *, blank: str | None = None) -> str:
    out = [f'<option value="">{escape(blank)}</option>'] if blank is not None else []
    out += [f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in pairs]
    return "".join(out)


def _field(kind: str, ident: str, label: str, control: str) -> str:
    return f'<div class="lvl-field"><label for="{ident}">{label}</label>{control}</div>'


def _scope(edition: Edition, shown: str) -> str:
    """Attributes of a block that belongs to one edition. Only the edition shown first is
    visible, so the page does not change shape when its script starts."""
    return f' data-for-edition="{edition.id}"' + ("" if edition.id == shown else " hidden")


def _off(edition: Edition, shown: str) -> str:
    """Controls of an edition not shown are disabled, as the page script leaves them."""
    return "" if edition.id == shown else " disabled"


def division_fields(prefix: str, editions: tuple[Edition, ...]) -> str:
    """Edition, age, LVL or belt (+ experience) and uniform: the division form fields."""
    latest = editions[-1].id
    choices = [
        (e.id, f"{e.title} (in force)" if e.id == latest else e.title) for e in reversed(editions)
    ]
    parts = [
        _field("edition", f"{prefix}-edition", "Edition",
               f'<select id="{prefix}-edition" name="edition">{_options(choices)}</select>'),
        _field("age", f"{prefix}-age", "Age",
               f'<input id="{prefix}-age" name="age" type="number" inputmode="numeric" '
               f'min="{MIN_AGE}" max="{MAX_AGE}" step="1" autocomplete="off">'),
    ]  # fmt: skip
    for edition in reversed(editions):
        axis = edition.eligibility.axis
        label = "LVL" if axis == "lvl" else "Belt"
        ident = f"{prefix}-{axis}-{edition.id}"
        ranks = [(r.id, r.name) for r in edition.ranks.values()]
        blank = f"— choose (needed from age {edition.eligibility.rank_required_from}) —"
        scope, off = _scope(edition, latest), _off(edition, latest)
        parts.append(
            f'<div class="lvl-field"{scope}><label for="{ident}">{label}</label>'
            f'<select id="{ident}" name="{axis}"{off}>{_options(ranks, blank=blank)}</select></div>'
        )
        if edition.experiences:
            boxes = "".join(
                f'<label class="lvl-check"><input type="checkbox" name="experience" '
                f'value="{x.id}"{off}> {escape(x.name)}</label>'
                for x in edition.experiences.values()
            )
            parts.append(
                f'<fieldset class="lvl-field"{scope}>'
                f"<legend>Prior experience (white belts 16 and over)</legend>{boxes}</fieldset>"
            )
    radios = "".join(
        f'<label class="lvl-check"><input type="radio" name="uniform" value="{u}"'
        f"{' checked' if u == 'gi' else ''}> {name}</label>"
        for u, name in UNIFORM_NAMES.items()
    )
    parts.append(f'<fieldset class="lvl-field"><legend>Uniform</legend>{radios}</fieldset>')
    return "\n".join(parts)


def status_block(page: str, edition_id: str) -> str:
    """The engine's progress, and what to do if it cannot start (engine_status.html.j2)."""
    chart = href(page, f"rules/{edition_id}/techniques/")
    html = TEMPLATES.get_template("engine_status.html.j2").render(chart=chart)
    return "\n".join(line for line in html.splitlines() if line)


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
        + _options([(f.id, f.name) for f in edition.fouls.values() if f.group == group])
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
        scope=_scope(edition, shown),
        positions=positions,
        reasons=_options(
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
        ladder_fouls=_options([(f.id, f.name) for f in edition.fouls.values() if f.on_ladder]),
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
        techniques=_options([(t.id, t.name) for t in edition.techniques.values()]),
        technique_button=_event_button("Technique applied", _event(type="technique")),
        rulings=_options(rulings),
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


def lookup_page(editions: tuple[Edition, ...]) -> str:
    """/lookup/: which techniques are legal for a division, and who may use a technique."""
    latest = editions[-1]
    return TEMPLATES.get_template("lookup.md.j2").render(
        status=status_block(LOOKUP, latest.id),
        root=href(LOOKUP, ""),
        division=division_fields("lookup", editions),
        techniques=_options([(t.id, t.name) for t in latest.techniques.values()]),
    )


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
        athlete_options=lambda blank: _options(
            [("A", "Athlete A"), ("B", "Athlete B")], blank=blank
        ),
    )
