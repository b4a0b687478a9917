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
    site_words,
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


def editions_attributes(ids: Collection[str], shown: str) -> str:
    """Attributes of a block of the form that belongs to some editions (a rank axis's
    field, say): visible only when the edition shown first is among them
    (division-form.js's syncEditionFields keeps it so)."""
    return f' data-for-editions="{" ".join(ids)}"' + ("" if shown in ids else " hidden")


def disabled_unless_shown(edition: Edition, shown: str) -> str:
    """Controls of an edition not shown are disabled, as the page script leaves them."""
    return "" if edition.id == shown else " disabled"


def _rank_options(editions: list[Edition], blank: str) -> str:
    """The LVLs or belts of one rank axis (every edition's that goes by it), each with
    the ages it exists for, so the page can offer only those of the age entered (the
    form follows the data)."""
    ages: dict[str, tuple[str, int, int]] = {}
    for edition in editions:
        for r in edition.ranks.values():
            name, low, high = ages.get(r.id, (r.name, r.min_age, r.max_age))
            ages[r.id] = (name, min(low, r.min_age), max(high, r.max_age))
    out = [f'<option value="">{escape(blank)}</option>']
    out += [
        f'<option value="{escape(rank)}" data-min-age="{low}" data-max-age="{high}">'
        f"{escape(name)}</option>"
        for rank, (name, low, high) in ages.items()
    ]
    return "".join(out)


def division_fields(
    prefix: str,
    editions: tuple[Edition, ...],
    *,
    not_asked: Collection[str] = (),
) -> str:
    """Edition, age, one field per rank axis (LVL, belt, ...), prior experience and
    uniform: the division form fields.

    A rank axis's field serves every edition that goes by it, and shows only while one of
    them is chosen (so does prior experience); on the first paint, the edition in force's.
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
    for axis in rank_axes():
        going = [e for e in editions if e.eligibility.axis == axis]
        if not going:
            continue
        ids = [e.id for e in going]
        ident = f"{prefix}-{axis}"
        scope = editions_attributes(ids, latest)
        off = "" if latest in ids else " disabled"
        scope, off = _unless_asked(axis, not_asked, scope, off)
        needed = min(e.eligibility.rank_required_from for e in going)
        label = site_words.AXIS_LABELS[axis]
        parts.append(
            f'<div class="lvl-field"{scope}><label for="{ident}">{label}</label>'
            f'<select id="{ident}" name="{axis}"{off} aria-describedby="{ident}-message">'
            f"{_rank_options(going, site_words.rank_blank(needed))}</select>"
            f"{message_slot(ident, axis)}</div>"
        )
    parts.append(_experience_field(prefix, editions, latest, not_asked))
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
    return "\n".join(part for part in parts if part)


def _experience_field(
    prefix: str, editions: tuple[Edition, ...], latest: str, not_asked: Collection[str]
) -> str:
    """Prior experience: one box per experience of the editions that have any, shown
    while one of them is chosen; whom it can move up, said for the edition chosen."""
    having = [e for e in editions if e.experiences]
    if not having:
        return ""
    ids = [e.id for e in having]
    scope = editions_attributes(ids, latest)
    off = "" if latest in ids else " disabled"
    scope, off = _unless_asked("experience", not_asked, scope, off)
    names = {x.id: x.name for e in having for x in e.experiences.values()}
    boxes = "".join(
        f'<label class="lvl-check"><input type="checkbox" name="experience" '
        f'value="{ident}"{off}> {escape(name)}</label>'
        for ident, name in names.items()
    )
    who: dict[str, list[str]] = {}
    for edition in having:
        who.setdefault(site_words.experience_who(edition), []).append(edition.id)
    said = "".join(
        f"<span{editions_attributes(whose, latest)}>{escape(text)}</span>"
        for text, whose in who.items()
        if text
    )
    ident = f"{prefix}-experience"
    return (
        f'<fieldset class="lvl-field"{scope} aria-describedby="{ident}-message">'
        f"<legend>{site_words.EXPERIENCE_LEGEND}{said}</legend>{boxes}"
        f"{message_slot(ident, 'experience')}</fieldset>"
    )


def _unless_asked(name: str, not_asked: Collection[str], scope: str, off: str) -> tuple[str, str]:
    """A field's block attributes and its controls': the block hidden when not asked, and
    marked as shown only when the age asks for it (data-asked-by-age: a link's edition
    alone does not show it on the first paint). Its controls stay enabled, so that the
    script fills them in from a link (it fills only enabled controls: division-form.js's
    fillForm) before it asks for them or not."""
    if name not in not_asked:
        return scope, off
    if " hidden" in scope:
        return f"{scope} data-asked-by-age", off
    return f"{scope} hidden data-asked-by-age", off


LINK_STYLESHEET = "assets/form-link.css"  # generated; combined with docs/assets/*.css


def link_stylesheet(editions: tuple[Edition, ...]) -> str:
    """The form's fields of the edition a link names, on the first paint: for each
    edition, the rules that show its blocks (fields, words) and hide the others' while
    <html> says the address names it (docs/assets/form-link.js, lookup-link.js), as the
    page script then leaves them (division-form.js's syncEditionFields; the script removes
    the mark once it has). And My division's fields that the linked age asks for
    (lookup-link.js), one rule per field a division may have."""
    rules = [
        "/* Generated from the editions (build_scripts/pages/forms.py): a form opened from a",
        "   link that names an edition shows that edition's fields on its first paint. */",
    ]
    for edition in editions:
        linked = f'html[data-lvl-link-edition="{edition.id}"]'
        mine = f'[data-for-editions~="{edition.id}"][hidden]'
        rules += [
            f"{linked} .lvl-form .lvl-field{mine}:not([data-asked-by-age]) {{ display: flex; }}",
            f"{linked} .lvl-edition-words > p{mine} {{ display: block; }}",
            f"{linked} :is(.lvl-status-link, legend > span){mine} {{ display: inline; }}",
            f'{linked} [data-for-editions]:not([data-for-editions~="{edition.id}"]) '
            "{ display: none; }",
        ]
    rules.append(
        "/* My division from a shared link: the fields its age asks for (lookup-link.js),"
        " on the first paint. */"
    )
    for name in (*rank_axes(), "experience"):
        rules.append(
            f'html[data-lvl-link-asks~="{name}"] #lookup-form '
            f'.lvl-field[hidden]:has([name="{name}"]) {{ display: flex; }}'
        )
    return "\n".join(rules) + "\n"


def status_block(page: str, edition_id: str, editions: tuple[Edition, ...] = ()) -> str:
    """The engine's progress, and what to do if it cannot start (engine_status.html.j2,
    in the words of lvl_rules/words/engine.py): read the chart instead. With ``editions``
    (a page whose form chooses one), a link to each one's chart, shown while it is chosen
    (division-form.js's syncEditionFields); ``edition_id``'s on the first paint."""
    said = escape(engine_words.CHART_LINK)
    links = [
        f'<a class="lvl-status-link" href="{href(page, f"rules/{e.id}/techniques/")}"'
        f"{editions_attributes([e.id], edition_id)}>{said}</a>"
        for e in editions
    ] or [f'<a href="{href(page, f"rules/{edition_id}/techniques/")}">{said}</a>']
    html = TEMPLATES.get_template("engine_status.html.j2").render(
        chart_link="".join(links), words=engine_words
    )
    return "\n".join(line for line in html.splitlines() if line)
