"""/calculator/ and its audience screen /calculator/board/.

The calculator records a match with each athlete's buttons; its match mode fills the
screen for a live match (clock, 20-second counts, per-athlete buttons), and the audience
screen shows the score and clock it broadcasts.

Declared once: every control that fills in an event comes from the event classes'
declarations (:mod:`lvl_rules.engines.events`): a button records fixed fields, and the
fields it leaves open become a picker's controls (a list of choices for the one it
picks, a checkbox for each flag, a select for each other choice), with the values the
edition allows. A new event field therefore appears in its picker without a change
here but its label (:data:`lvl_rules.words.match.FIELD_LABELS`, a whole phrase: the build
stops on a field without one); the page script reads the pickers generically
(``data-slot``). Every word comes
from :mod:`lvl_rules.words.match`; the script gets its words, the event declarations
and the counts from the JSON block this module writes.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from html import escape
from typing import Any

from lvl_rules import rank_axes
from lvl_rules.faces.limits import LIMITS
from lvl_rules.faces.site import (
    EVENT_TYPES,
    FOUL_GROUP_NAMES,
    RULINGS_EXTRA,
    Edition,
    allowed_values,
    edition_in_force,
)
from lvl_rules.faces.site import match_words as words

from .form_check import check_form
from .forms import division_fields, edition_attributes, options, status_block
from .lookup_page import rules_table
from .templating import TEMPLATES
from .urls import href

CALCULATOR = "calculator.md"
BOARD = "calculator/board.md"
SHEET = "calculator/sheet.md"
DATA_ELEMENT = "calc-data"


@dataclass(frozen=True, kw_only=True)
class Preset:
    """A button: the event fields it fixes, the field its picker asks for (if any), its
    keyboard key (``event.code``) and its label."""

    id: str
    label: str
    event: dict[str, Any]
    pick: str | None = None
    key: str | None = None
    menu: tuple[Preset, ...] = ()  # a menu of further buttons instead of an event
    wide: bool = False
    extra: dict[str, str] = field(default_factory=dict)  # more data- attributes

    @property
    def opens(self) -> bool:
        """Whether the button opens a picker rather than recording at once: it picks a
        field, or an event of its type needs a field it does not fix."""
        if self.menu:
            return True
        if not self.event:
            return False  # a count: it starts at once
        if self.pick is not None or self.event.get("type") == "end":
            return True
        cls = EVENT_TYPES[self.event["type"]]
        fixed = {*self.event, "athlete"}
        return any(name not in fixed for name in cls.required())


def athlete_presets(edition: Edition) -> list[Preset]:
    """Each athlete's buttons: one tap for the common calls, two for a variant or a foul."""
    presets: list[Preset] = []
    for number, position in enumerate(edition.positions.values(), start=1):
        event = {"type": "score", "position": position.id}
        presets.append(
            Preset(
                id=f"score-{position.id}", label=words.position_button(position), event=event,
                key=f"Digit{number}" if number <= 9 else None,
            )
        )  # fmt: skip
        if any(not variant.standard for variant in position.variants.values()):
            presets.append(
                Preset(
                    id=f"kinds-{position.id}", label=words.kinds_button(position), event=event,
                    pick="variant", extra={"kinds": position.id},
                )
            )  # fmt: skip
    act = words.ACTIONS
    escapes = edition.escapes
    more = (
        Preset(id="stoppage", label=act["stoppage"], event={"type": "stoppage"}),
        Preset(
            id="loss-of-consciousness", label=act["loss-of-consciousness"],
            event={"type": "loss-of-consciousness"}, pick="head_trauma",
        ),
        Preset(id="award", label=act["award"], event={"type": "award"}, pick="award"),
        Preset(id="panel", label=act["panel"], event={"type": "panel"}, pick="rulings"),
        Preset(id="advantage-reason", label=act["advantage-reason"],
               event={"type": "advantage"}, pick="reason"),
        # Not an event: the athlete's injury time-out, timed on the clock (no rule sets it).
        Preset(id="injury", label=act["injury"], event={}, extra={"injury": "start"}),
    )  # fmt: skip
    presets += [
        Preset(id="advantage", label=act["advantage"], event={"type": "advantage"}, key="KeyA"),
        Preset(
            id="escaped", label=escapes["open"].name,
            event={"type": "submission-escaped", "locked": False}, key="KeyE",
        ),
        Preset(
            id="escaped-locked", label=escapes["locked"].name,
            event={"type": "submission-escaped", "locked": True}, key="KeyL",
        ),
        Preset(
            id="stalling", label=act["stalling"],
            event={"type": "penalty", "foul": "stalling"}, key="KeyS",
        ),
        Preset(id="penalty", label=act["penalty"], event={"type": "penalty"}, pick="foul",
               key="KeyP"),
        Preset(id="severe-foul", label=act["severe-foul"], event={"type": "severe-foul"},
               pick="foul", key="KeyV"),
        Preset(id="technique", label=act["technique"], event={"type": "technique"},
               pick="technique", key="KeyT"),
        Preset(id="submission", label=act["submission"], event={"type": "submission"},
               key="KeyX"),
        Preset(id="count", label=act["count"], event={}, key="KeyC",
               menu=tuple(_count_presets(edition, both=False))),
        Preset(id="more", label=act["more"], event={}, key="KeyM", menu=more),
    ]  # fmt: skip
    return presets


def _count_presets(edition: Edition, *, both: bool) -> list[Preset]:
    return [
        Preset(id=f"count-{c.id}", label=c.name, event={}, extra={"count": c.id})
        for c in edition.counts.values()
        if c.both == both
    ]


def shared_presets(edition: Edition) -> list[Preset]:
    """The buttons for both athletes or for the match itself."""
    act = words.ACTIONS
    counts = [dataclasses.replace(p, key="KeyG") for p in _count_presets(edition, both=True)]
    return [
        *counts,
        Preset(
            id="both-stalling", label=act["both-stalling"],
            event={"type": "penalty", "athlete": "both", "foul": "stalling"}, key="KeyB",
        ),
        Preset(id="time-expired", label=act["time-expired"], event={"type": "time-expired"},
               key="KeyI"),
        Preset(id="end", label=act["end"], event={"type": "end"}, key="KeyN"),
    ]  # fmt: skip


# ---------------------------------------------------------------- HTML


def _attributes(preset: Preset, edition: Edition, scope: str) -> str:
    attrs = [f'data-preset="{preset.id}"']
    if preset.opens:
        attrs.append(f'data-opens="calc-{edition.id}-{preset.id}"')
        attrs.append('aria-haspopup="dialog"')
    if preset.key:
        attrs.append(f'data-key="{preset.key}"')
        shown = preset.key.removeprefix("Key").removeprefix("Digit")
        attrs.append(f'aria-keyshortcuts="{shown if scope != "B" else "Shift+" + shown}"')
    attrs += [f'data-{name}="{escape(value)}"' for name, value in preset.extra.items()]
    return " ".join(attrs)


def _button(preset: Preset, edition: Edition, scope: str, *, classes: str = "lvl-act") -> str:
    return (
        f'<button type="button" class="{classes}" {_attributes(preset, edition, scope)}'
        f"{_named(preset, edition, scope)}>{escape(preset.label)}</button>"
    )


def _named(preset: Preset, edition: Edition, scope: str) -> str:
    """An athlete's button is named by the call and the athlete's heading, which the page
    fills with the name typed: "Takedown, 2 points, Ana" (the group's label alone is not
    said with each button)."""
    if scope not in words.ATHLETES:
        return ""
    return f' aria-labelledby="{_call_id(preset, edition)} calc-name-{scope}"'


def _call_id(preset: Preset, edition: Edition) -> str:
    return f"calc-{edition.id}-call-{preset.id}"


def _calls(presets: list[Preset], edition: Edition) -> str:
    """The calls as a screen reader says them, hidden, once for both athletes' buttons."""
    said = []
    for preset in presets:
        position = preset.event.get("position")
        call = preset.label
        if position and preset.pick is None:
            call = words.position_call(edition.positions[position])
        text = escape(words.CALL_FOR.format(call=call))
        said.append(f'<span id="{_call_id(preset, edition)}" hidden>{text}</span>')
    return "".join(said)


def _kinds_button(preset: Preset, edition: Edition, scope: str) -> str:
    """A position's small second button, which opens its variants."""
    return (
        f'<button type="button" class="lvl-act lvl-kinds" {_attributes(preset, edition, scope)}'
        f'{_named(preset, edition, scope)}><span aria-hidden="true">▾</span>'
        f'<span class="lvl-sr">{escape(preset.label)}</span></button>'
    )


def _choices(edition: Edition, preset: Preset, name: str) -> list[tuple[str, str]]:
    """The values a field may take for a button's fixed fields, with their names."""
    event_type = preset.event["type"]
    values = allowed_values(edition, event_type, name, preset.event)
    kind = _slot(event_type, name).metadata["kind"]
    if kind == "position":
        return [(v, edition.positions[v].name) for v in values]
    if kind == "variant":  # the usual form is the choice without a variant
        position = edition.positions[preset.event["position"]]
        return [
            (v, words.variant_choice(edition, position, v))
            for v in values
            if not position.variants[v].standard
        ]
    if kind == "reason":
        return [(v, edition.advantages[v].name) for v in values]
    if kind == "technique":
        return [(v, edition.techniques[v].name) for v in values]
    if kind == "foul":
        return [(v, edition.fouls[v].name) for v in values]
    if kind == "award":
        return [(v, edition.awards[v].name) for v in values]
    if kind == "severity":
        return [(v, words.SEVERITY_NAMES[v]) for v in values]
    if kind in ("winner", "athlete"):
        return [(v, words.athlete_words(v)) for v in values]
    if kind == "rulings":
        names = {**{p.id: p.name for p in edition.positions.values()}, **words.RULING_NAMES}
        return [(v, names[v]) for v in values]
    raise ValueError(kind)  # a field kind this page does not know how to show


def _slot(event_type: str, name: str) -> dataclasses.Field[Any]:
    return next(f for f in EVENT_TYPES[event_type].slots() if f.name == name)


def _picker(edition: Edition, preset: Preset, scope: str) -> str:
    """The dialog a button opens: the event's open fields, from their declarations. Both
    athletes' buttons open the same dialog (``scope`` "athlete"); the page says whose."""
    ident = f"calc-{edition.id}-{preset.id}"
    title = escape(preset.label)
    # The title is no heading: a heading would start a section of the site's search.
    parts = [f'<p class="lvl-picker-title" id="{ident}-title">']
    if scope != "shared":
        parts.append("<span data-athlete-name></span> · ")
    parts.append(f"{title}</p>")
    if preset.menu:
        parts.append('<div class="lvl-picker-list">')
        parts += [_button(p, edition, "menu") for p in preset.menu]
        parts.append("</div>")
        if any("count" in p.extra for p in preset.menu):  # the counts of the other uniform
            parts.append('<p class="lvl-picker-note" data-counts-away hidden></p>')
    else:
        event_type = preset.event["type"]
        fixed = {*preset.event, "athlete"} if scope != "shared" else set(preset.event)
        open_fields = [
            f
            for f in EVENT_TYPES[event_type].slots()
            if f.name not in fixed and f.metadata["kind"] != "time"  # the clock gives it
        ]
        picked = None
        for slot in open_fields:
            name, kind = slot.name, slot.metadata["kind"]
            control = f"{ident}-{name}"
            if kind == "flag":
                label = _field_label(event_type, name)
                parts.append(
                    f'<label class="lvl-check"><input type="checkbox" data-slot="{name}"> '
                    f"{label}</label>"
                )
            elif kind == "rulings":
                choices = _choices(edition, preset, name)
                selects = "".join(
                    f'<div class="lvl-field"><label for="{control}-{n}">'
                    f"{escape(words.PANEL_LABEL.format(n=n + 1))}</label>"
                    f'<select id="{control}-{n}" data-slot="{name}" data-index="{n}">'
                    f"{options(choices)}</select></div>"
                    for n in range(3)
                )
                parts.append(f'<div class="lvl-field-row">{selects}</div>')
            elif name == preset.pick:
                picked = slot
            else:
                label = _field_label(event_type, name)
                blank = words.WINNER_BLANK if kind == "winner" else words.CHOICE_BLANK
                choices = _choices(edition, preset, name)
                parts.append(
                    f'<div class="lvl-field"><label for="{control}">{label}</label>'
                    f'<select id="{control}" data-slot="{name}">'
                    f"{options(choices, blank=blank)}</select></div>"
                )
        if picked is not None:
            parts.append(_choice_list(edition, preset, picked))
        else:
            parts.append(
                f'<div class="lvl-button-row"><button type="button" class="lvl-act lvl-primary" '
                f"data-record>{escape(words.UI['record'])}</button></div>"
            )
    parts.append(
        f'<div class="lvl-button-row"><button type="button" class="lvl-act" data-close>'
        f"{escape(words.UI['cancel'])}</button></div>"
    )
    return (
        f'<dialog class="lvl-picker" id="{ident}" aria-labelledby="{ident}-title" '
        f'data-scope="{scope}" data-search-exclude>{"".join(parts)}</dialog>'
    )


def _field_label(event_type: str, name: str) -> str:
    """A picker's field's label, a whole phrase from the words; a field without one stops
    the build."""
    key = f"{event_type}.{name}"
    if key not in words.FIELD_LABELS:
        raise ValueError(f"lvl_rules/words/match.py FIELD_LABELS has no label for {key}")
    return escape(words.FIELD_LABELS[key])


def _choice_list(edition: Edition, preset: Preset, slot: dataclasses.Field[Any]) -> str:
    """The picked field as a list of buttons, each recording its value."""
    name = slot.name
    kind = slot.metadata["kind"]
    choices = _choices(edition, preset, name)
    buttons: list[str] = []
    if slot.default is not dataclasses.MISSING and kind == "variant":
        position = edition.positions[preset.event["position"]]
        buttons.append(_value_button(name, "", words.usual_choice(position)))
    if kind == "foul" and preset.event["type"] == "severe-foul":
        groups = {}
        for value, shown in choices:
            groups.setdefault(edition.fouls[value].group, []).append((value, shown))
        return "".join(
            f'<p class="lvl-picker-group">{escape(FOUL_GROUP_NAMES[group])}</p>'
            f'<div class="lvl-picker-list">'
            + "".join(_value_button(name, v, shown) for v, shown in items)
            + "</div>"
            for group, items in groups.items()
        )
    buttons += [_value_button(name, value, shown) for value, shown in choices]
    if kind == "technique":
        # The page puts the techniques illegal for the division first (from the engine).
        return (
            f'<p class="lvl-picker-group" data-legal-heading="false" hidden>'
            f"{escape(words.UI['illegal'])}</p>"
            '<div class="lvl-picker-list" data-legal-group="false"></div>'
            f'<p class="lvl-picker-group" data-legal-heading="true" hidden>'
            f"{escape(words.UI['legal'])}</p>"
            f'<div class="lvl-picker-list" data-legal-group="true">{"".join(buttons)}</div>'
        )
    return f'<div class="lvl-picker-list">{"".join(buttons)}</div>'


def _value_button(name: str, value: str, shown: str) -> str:
    return (
        f'<button type="button" class="lvl-act" data-slot="{name}" data-value="{escape(value)}">'
        f"{escape(shown)}</button>"
    )


def calculator_controls(edition: Edition, shown: str) -> str:
    """Both athletes' buttons, the shared ones and their pickers for one edition (in a
    <template> unless it is the edition shown first)."""
    halves = []
    dialogs = [
        picker
        for preset in athlete_presets(edition)
        if preset.opens
        for picker in (
            _picker(edition, preset, "athlete"),
            *(_picker(edition, p, "athlete") for p in preset.menu if p.opens),
        )
    ]
    for athlete in words.ATHLETES:
        buttons: list[str] = []
        for preset in athlete_presets(edition):
            if preset.pick == "variant":  # beside its position, in the same cell
                buttons[-1] = (
                    f'<div class="lvl-pos">{buttons[-1]}'
                    f"{_kinds_button(preset, edition, athlete)}</div>"
                )
            else:
                buttons.append(_button(preset, edition, athlete))
        halves.append(
            f'<div class="lvl-half" data-half="{athlete}" role="group" '
            f'aria-labelledby="calc-name-{athlete}">{"".join(buttons)}</div>'
        )
    shared = []
    for preset in shared_presets(edition):
        shared.append(_button(preset, edition, "shared"))
        if preset.opens:
            dialogs.append(_picker(edition, preset, "shared"))
    html = (
        f'<div class="lvl-controls"{edition_attributes(edition, shown)}>'
        + "".join(halves)
        + f'<div class="lvl-shared" data-half="shared">{"".join(shared)}</div>'
        + _calls(athlete_presets(edition), edition)
        + "".join(dialogs)
        + "</div>"
    )
    if edition.id == shown:
        return html
    # Another edition's controls stay inert until that edition is chosen: a <template> is
    # parsed but never laid out, which keeps the page light (the script clones it).
    return f'<template data-controls-for="{edition.id}">{html}</template>'


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _presets(edition: Edition) -> dict[str, dict[str, Any]]:
    """The fields each button records, by its ``data-preset``."""
    found: dict[str, dict[str, Any]] = {}
    for preset in (*athlete_presets(edition), *shared_presets(edition)):
        for one in (preset, *preset.menu):
            if one.event:
                found[one.id] = one.event
    return found


def _calls_in_words(edition: Edition) -> list[tuple[dict[str, Any], str]]:
    """What the log calls an event it cannot score yet (the division is not valid), by
    the fields that call records: each button's and each value its picker offers, the
    calls that fix more fields first (call-words.js takes the first that matches)."""
    found: list[tuple[dict[str, Any], str]] = []
    for preset in (*athlete_presets(edition), *shared_presets(edition)):
        for one in (preset, *preset.menu):
            if not one.event:
                continue
            found.append((one.event, one.label))
            picked = words.PICKED_CALLS.get(f"{one.event['type']}.{one.pick}")
            if picked:
                found += [
                    ({**one.event, one.pick: value}, picked.format(choice=shown))
                    for value, shown in _choices(edition, one, one.pick)
                ]
    found.sort(key=lambda call: -len(call[0]))
    first: dict[str, tuple[dict[str, Any], str]] = {}
    for fields, call in found:  # a button's own call before the one that opens its kinds
        first.setdefault(json.dumps(fields, sort_keys=True), (fields, call))
    return list(first.values())


def page_data(editions: tuple[Edition, ...]) -> dict[str, Any]:
    """What the page script needs besides the markup: its words, the fields each button
    records, the event types (which may be recorded after time, which name an athlete),
    the limits a link's events are checked against (lvl_rules.faces.limits), the counts
    of each edition, and the colours."""
    events = {
        name: {
            "after_time": cls.AFTER_TIME,
            "after_end": cls.AFTER_END,
            "athlete": any(f.name == "athlete" for f in cls.slots()),
        }
        for name, cls in EVENT_TYPES.items()
    }
    return {
        "words": words.UI,
        "presets": {e.id: _presets(e) for e in editions},
        "calls": {e.id: _calls_in_words(e) for e in editions},
        "events": events,
        "limits": dict(LIMITS),
        "counts": {
            e.id: {
                c.id: {
                    "seconds": c.seconds,
                    "clock": c.clock,
                    "both": c.both,
                    "foul": c.foul,
                    **words.count_words(e)[c.id],
                }
                for c in e.counts.values()
            }
            for e in editions
        },
        "colours": {
            colour: {"background": background, "text": text}
            for colour, _, background, text in words.COLOURS
        },
        "setup": {
            "colours": {colour: {} for colour, *_ in words.COLOURS},
            "defaults": words.DEFAULT_COLOURS,
            "colourNames": {colour: name for colour, name, *_ in words.COLOURS},
        },
        "rulings_extra": list(RULINGS_EXTRA),
    }


def data_element(data: dict[str, Any]) -> str:
    """The JSON the page script reads, in an attribute of a hidden element: not in a
    <script> element, which Material's instant navigation re-creates as a script to run
    (and the Content-Security-Policy then blocks)."""
    return f'<div id="{DATA_ELEMENT}" hidden data-json="{escape(_json(data))}"></div>'


def athlete_panels(scope: str) -> str:
    """Each athlete's panel, one markup for the calculator (``scope`` "calc") and the
    audience screen ("board"), drawn by one module (athlete-panel.js): the name, the
    calculator's running counts, the three tallies, the status. A <div> with its role, not
    a <section>: the calculator's board is a <section> left out of search, and Material's
    search parser ends that at the first </section> (an inner one let the calls in)."""
    ui = words.UI
    counts = '<div class="lvl-counts" data-counts="{a}"></div>' if scope == "calc" else ""
    tallies = "".join(
        f'<div class="lvl-{field}"><dt>{ui[field]}</dt><dd data-field="{field}">0</dd></div>'
        for field in ("points", "advantages", "penalties")
    )
    return "".join(
        f'<div class="lvl-athlete" role="region" data-athlete="{a}" data-points="0" '
        f'data-advantages="0" data-penalties="0" aria-labelledby="{scope}-name-{a}">'
        f'<h2 id="{scope}-name-{a}"><span data-name>{escape(words.athlete_words(a))}</span></h2>'
        f"{counts.format(a=a)}<dl>{tallies}</dl>"
        '<p data-field="status"></p></div>'
        for a in words.ATHLETES
    )


def _setup() -> str:
    page = words.PAGE
    fields = []
    for athlete in words.ATHLETES:
        fields.append(
            f'<div class="lvl-field"><label for="calc-name-input-{athlete}">'
            f"{escape(page['name'].format(athlete=athlete))}</label>"
            f'<input id="calc-name-input-{athlete}" name="name_{athlete.lower()}" type="text" '
            f'maxlength="40" autocomplete="off" data-setup="name" data-for="{athlete}"></div>'
        )
        colours = options([(c, name) for c, name, _, _ in words.COLOURS])
        fields.append(
            f'<div class="lvl-field"><label for="calc-colour-{athlete}">'
            f"{escape(page['colour'].format(athlete=athlete))}</label>"
            f'<select id="calc-colour-{athlete}" data-setup="colour" data-for="{athlete}">'
            f"{colours}</select></div>"
        )
    length = (
        f'<fieldset class="lvl-field lvl-length"><legend>{page["length"]}</legend>'
        f'<label class="lvl-check">{page["minutes"]} <input id="calc-length-min" type="number" '
        'inputmode="numeric" min="0" max="99" step="1" data-setup="minutes"></label>'
        f'<label class="lvl-check">{page["seconds"]} <input id="calc-length-sec" type="number" '
        'inputmode="numeric" min="0" max="59" step="1" data-setup="seconds"></label>'
        f'<p class="lvl-help">{page["length_help"]}</p></fieldset>'
    )
    sound = (
        '<label class="lvl-check"><input type="checkbox" id="calc-sound" checked> '
        f"{escape(words.UI['sound'])}</label>"
    )
    return "\n".join(fields) + "\n" + length + "\n" + sound


def _shortcuts(edition: Edition) -> str:
    """The keyboard shortcuts, from the buttons' keys."""
    ui = words.UI
    rows = [(ui["key_space"], ui["shortcut_clock"]), ("Ctrl+Z", ui["shortcut_undo"]),
            ("Ctrl+Y", ui["shortcut_redo"]), ("?", ui["shortcut_keys"])]  # fmt: skip
    for preset in (*athlete_presets(edition), *shared_presets(edition)):
        if preset.key:
            rows.append((preset.key.removeprefix("Key").removeprefix("Digit"), preset.label))
    items = "".join(f"<dt><kbd>{escape(k)}</kbd></dt><dd>{escape(v)}</dd>" for k, v in rows)
    return f'<p>{escape(ui["shortcuts_intro"])}</p><dl class="lvl-keys">{items}</dl>'


def _division(editions: tuple[Edition, ...]) -> str:
    """The calculator's division form, checked: it can ask for every division My
    division's rules table answers (:mod:`.form_check`)."""
    html = division_fields("calc", editions)
    check_form("the calculator", html, editions, rules_table(editions))
    return html


def calculator_page(editions: tuple[Edition, ...]) -> str:
    """/calculator/: record a match, see the score, the log with its clauses, the result."""
    latest = edition_in_force(editions)
    ui = words.UI
    return TEMPLATES.get_template("calculator.md.j2").render(
        page=words.PAGE,
        ui=ui,
        status=status_block(CALCULATOR, latest.id, editions),
        root=href(CALCULATOR, ""),
        board=href(CALCULATOR, "calculator/board/"),
        sheet=href(CALCULATOR, "calculator/sheet/"),
        division=_division(editions),
        setup=_setup(),
        athletes=athlete_panels("calc"),
        controls="\n".join(calculator_controls(e, latest.id) for e in reversed(editions)),
        shortcuts=_shortcuts(latest),
        data=data_element(page_data(editions)),
    )


def board_page() -> str:
    """/calculator/board/: the audience screen."""
    ui = words.UI
    athletes = athlete_panels("board")
    return TEMPLATES.get_template("board.md.j2").render(
        page=words.BOARD_PAGE,
        ui=ui,
        athletes=athletes,
        data=data_element({"words": ui}),
    )


def sheet_page(editions: tuple[Edition, ...], qr_module: str) -> str:
    """/calculator/sheet/: the record of the match in the calculator's link (the same
    query and fragment), with its fingerprint, printable and downloadable."""
    colours = {colour: name for colour, name, _, _ in words.COLOURS}
    data = {
        "words": {**words.SHEET, "athlete": words.UI["athlete"]},
        "detail_labels": words.DETAIL_LABELS,
        "limits": dict(LIMITS),
        "setup": page_data(editions)["setup"],
        "colour_names": colours,
        "qr": qr_module,
        "rank_axes": list(rank_axes()),
    }
    return TEMPLATES.get_template("sheet.md.j2").render(
        page=words.SHEET_PAGE,
        sheet=words.SHEET,
        ui=words.UI,
        athletes=words.ATHLETES,
        signers=words.SHEET_SIGNERS,
        detail_fields=words.DETAIL_FIELDS,
        max_text=LIMITS["max_text_chars"],
        status=status_block(SHEET, edition_in_force(editions).id),
        calculator=href(SHEET, "calculator/"),
        data=data_element(data),
    )
