"""The division form and the engine's status box, shared by the pages that run the
engine (/lookup/, /calculator/). The choices a person can make (editions, LVLs and belts,
experience) come from lvl_rules at build time, so the form is there at once and no rule
is typed into JavaScript.
"""

from __future__ import annotations

from html import escape

from lvl_rules.model import MAX_AGE, MIN_AGE, Edition
from lvl_rules.words import engine as engine_words
from lvl_rules.words.division import UNIFORM_NAMES
from lvl_rules.words.site import edition_choice

from .templating import TEMPLATES
from .urls import href


def options(pairs: list[tuple[str, str]], *, blank: str | None = None) -> str:
    out = [f'<option value="">{escape(blank)}</option>'] if blank is not None else []
    out += [f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in pairs]
    return "".join(out)


def _field(kind: str, ident: str, label: str, control: str) -> str:
    return f'<div class="lvl-field"><label for="{ident}">{label}</label>{control}</div>'


def edition_attributes(edition: Edition, shown: str) -> str:
    """Attributes of a block that belongs to one edition. Only the edition shown first is
    visible, so the page does not change shape when its script starts."""
    return f' data-for-edition="{edition.id}"' + ("" if edition.id == shown else " hidden")


def disabled_unless_shown(edition: Edition, shown: str) -> str:
    """Controls of an edition not shown are disabled, as the page script leaves them."""
    return "" if edition.id == shown else " disabled"


def division_fields(prefix: str, editions: tuple[Edition, ...]) -> str:
    """Edition, age, LVL or belt (+ experience) and uniform: the division form fields."""
    latest = editions[-1].id
    choices = [(e.id, edition_choice(e, latest)) for e in reversed(editions)]
    parts = [
        _field("edition", f"{prefix}-edition", "Edition",
               f'<select id="{prefix}-edition" name="edition">{options(choices)}</select>'),
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
        scope, off = edition_attributes(edition, latest), disabled_unless_shown(edition, latest)
        parts.append(
            f'<div class="lvl-field"{scope}><label for="{ident}">{label}</label>'
            f'<select id="{ident}" name="{axis}"{off}>{options(ranks, blank=blank)}</select></div>'
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
    """The engine's progress, and what to do if it cannot start (engine_status.html.j2,
    in the words of lvl_rules/words/engine.py)."""
    chart = href(page, f"rules/{edition_id}/techniques/")
    html = TEMPLATES.get_template("engine_status.html.j2").render(chart=chart, words=engine_words)
    return "\n".join(line for line in html.splitlines() if line)
