"""The division form and the engine's status box, shared by the pages that run the
engine (/lookup/, /calculator/). The choices a person can make (editions, LVLs and belts,
experience) come from lvl_rules at build time, so the form is there at once and no rule
is typed into JavaScript.
"""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from lvl_rules import rank_axes
from lvl_rules.faces.site import (
    FORM_WORDS,
    MAX_AGE,
    MIN_AGE,
    UNIFORM_NAMES,
    Edition,
    edition_choice,
    edition_in_force,
    engine_words,
    rank_name,
)

from .templating import TEMPLATES
from .urls import href


def options(pairs: list[tuple[str, str]], *, blank: str | None = None) -> str:
    out = [f'<option value="">{escape(blank)}</option>'] if blank is not None else []
    out += [f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in pairs]
    return "".join(out)


def _field(kind: str, ident: str, label: str, control: str) -> str:
    return (
        f'<div class="lvl-field"><label for="{ident}">{label}</label>{control}'
        f"{message_slot(ident, kind)}</div>"
    )


def message_slot(ident: str, name: str) -> str:
    """Where the page puts a message about one field (an error or a remark); the control
    names it with aria-describedby."""
    return (
        f'<p class="lvl-field-message" id="{ident}-message" data-message-for="{name}" hidden></p>'
    )


def edition_attributes(edition: Edition, shown: str) -> str:
    """Attributes of a block that belongs to one edition. Only the edition shown first is
    visible, so the page does not change shape when its script starts."""
    return f' data-for-edition="{edition.id}"' + ("" if edition.id == shown else " hidden")


def disabled_unless_shown(edition: Edition, shown: str) -> str:
    """Controls of an edition not shown are disabled, as the page script leaves them."""
    return "" if edition.id == shown else " disabled"


def _rank_options(edition: Edition, blank: str) -> str:
    """The LVLs or belts, each with the ages it exists for, so the page can offer only
    those of the age entered (the form follows the data)."""
    out = [f'<option value="">{escape(blank)}</option>']
    out += [
        f'<option value="{escape(r.id)}" data-min-age="{r.min_age}" data-max-age="{r.max_age}">'
        f"{escape(r.name)}</option>"
        for r in edition.ranks.values()
    ]
    return "".join(out)


def division_fields(
    prefix: str,
    editions: tuple[Edition, ...],
    *,
    side_by_side: bool = False,
    not_asked: Collection[str] = (),
) -> str:
    """Edition, age, LVL or belt (+ experience) and uniform: the division form fields.

    ``side_by_side``: every edition's LVL or belt at once, each labelled with its edition
    (the lookup compares editions for one person); otherwise only the chosen edition's.
    ``not_asked``: the fields (the rank axes, "experience") the form's first answer does
    not need, written hidden, as the page script leaves them: the first paint shows no
    field the script then hides (it reveals them when they are asked)."""
    latest = edition_in_force(editions).id
    # The edition in force first (the default), then the others, newest first.
    listed = [e for e in reversed(editions) if e.id == latest]
    listed += [e for e in reversed(editions) if e.id != latest]
    choices = [(e.id, edition_choice(e, latest)) for e in listed]
    parts = [
        _field("edition", f"{prefix}-edition", "Edition",
               f'<select id="{prefix}-edition" name="edition" '
               f'aria-describedby="{prefix}-edition-message">{options(choices)}</select>'),
        _field("age", f"{prefix}-age", "Age",
               f'<input id="{prefix}-age" name="age" type="number" inputmode="numeric" '
               f'min="{MIN_AGE}" max="{MAX_AGE}" step="1" autocomplete="off" required '
               f'aria-describedby="{prefix}-age-message">'),
    ]  # fmt: skip
    for edition in reversed(editions):
        axis = edition.eligibility.axis
        label = "LVL" if axis == "lvl" else "Belt"
        ident = f"{prefix}-{axis}-{edition.id}"
        blank = f"— choose (needed from age {edition.eligibility.rank_required_from}) —"
        scope, off = edition_attributes(edition, latest), disabled_unless_shown(edition, latest)
        if side_by_side:
            label, scope, off = f"{label} ({edition.title})", "", ""
        rank_scope, rank_off = _unless_asked(axis, not_asked, scope, off)
        described = f' aria-describedby="{ident}-message"'
        parts.append(
            f'<div class="lvl-field"{rank_scope}><label for="{ident}">{label}</label>'
            f'<select id="{ident}" name="{axis}"{rank_off}{described}>'
            f"{_rank_options(edition, blank)}</select>{message_slot(ident, axis)}</div>"
        )
        if edition.experiences:
            scope, off = _unless_asked("experience", not_asked, scope, off)
            boxes = "".join(
                f'<label class="lvl-check"><input type="checkbox" name="experience" '
                f'value="{x.id}"{off}> {escape(x.name)}</label>'
                for x in edition.experiences.values()
            )
            promotion = edition.eligibility.promotion
            who = (
                f" ({edition.title}: {rank_name(edition, promotion.rank_from)}s aged "
                f"{promotion.min_age} and over)"
                if promotion
                else ""
            )
            parts.append(
                f'<fieldset class="lvl-field"{scope} aria-describedby="{ident}-experience-message">'
                f"<legend>Prior experience{who}</legend>{boxes}"
                f"{message_slot(f'{ident}-experience', 'experience')}</fieldset>"
            )
    radios = "".join(
        f'<label class="lvl-check"><input type="radio" name="uniform" value="{u}"'
        f"{' checked' if u == 'gi' else ''}> {name}</label>"
        for u, name in UNIFORM_NAMES.items()
    )
    parts.append(
        f'<fieldset class="lvl-field" aria-describedby="{prefix}-uniform-message">'
        f"<legend>Uniform</legend>{radios}{message_slot(f'{prefix}-uniform', 'uniform')}"
        "</fieldset>"
    )
    # The words the form's script shows (division-form.js): from lvl_rules, not typed there.
    said = "".join(f' data-{name}="{escape(text)}"' for name, text in FORM_WORDS.items())
    axes = " ".join(rank_axes())  # the fields a division may have, one per rank axis
    parts.append(f'<span hidden data-form-words{said} data-rank-axes="{axes}"></span>')
    return "\n".join(parts)


def _unless_asked(name: str, not_asked: Collection[str], scope: str, off: str) -> tuple[str, str]:
    """A field's block attributes and its controls': the block hidden when not asked. Its
    controls stay enabled, so that the script fills them in from a link (it fills only
    enabled controls: division-form.js's fillForm) before it asks for them or not."""
    if name not in not_asked or " hidden" in scope:
        return scope, off
    return f"{scope} hidden", off


LINK_STYLESHEET = "assets/form-link.css"  # generated; combined with docs/assets/*.css


def link_stylesheet(editions: tuple[Edition, ...]) -> str:
    """The form's fields of the edition a link names, on the first paint: for each
    edition, the rules that show its fields and hide the others' while <html> says the
    address names it (docs/assets/form-link.js), as the page script then leaves them
    (division-form.js's syncEditionFields; the script removes the mark once it has)."""
    rules = [
        "/* Generated from the editions (build_scripts/pages/forms.py): a form opened from a",
        "   link that names an edition shows that edition's fields on its first paint. */",
    ]
    for edition in editions:
        linked = f'html[data-lvl-link-edition="{edition.id}"] .lvl-form'
        rules += [
            f'{linked} .lvl-field[data-for-edition="{edition.id}"][hidden] {{ display: flex; }}',
            f'{linked} .lvl-field[data-for-edition]:not([data-for-edition="{edition.id}"]) '
            "{ display: none; }",
        ]
    return "\n".join(rules) + "\n"


def status_block(page: str, edition_id: str) -> str:
    """The engine's progress, and what to do if it cannot start (engine_status.html.j2,
    in the words of lvl_rules/words/engine.py)."""
    chart = href(page, f"rules/{edition_id}/techniques/")
    html = TEMPLATES.get_template("engine_status.html.j2").render(chart=chart, words=engine_words)
    return "\n".join(line for line in html.splitlines() if line)
