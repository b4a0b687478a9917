"""The build's check of the path form → fields → table → answer: every division the rules
table answers can be asked for with the form a page writes, and the fields the form then
sends find the engine's own answer in the table.

The form is read as the page's script reads it (docs/assets/app/division-form.js): the
edition chosen shows the blocks that serve it (``data-for-editions``) and hides the
others'; a control's value is one of its options (a select's, a box's, a radio's); an
age is within the age field's bounds. For each edition and each division the table
answers (each uniform, rank, set of experience boxes, and an age of each run of ages with
one answer), the check fills the form in; a division it cannot fill in stops the build,
naming it. The fields filled in are then read back through the page's own table reader
(tests/lookup/table_answers.mjs), whose answer must be the engine's
(:func:`lvl_rules.faces.my_division.answer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from lvl_rules.faces.my_division import answer, asked_at, canonical, experience_sets, placement
from lvl_rules.faces.site import UNIFORM_NAMES, Edition

from .lookup_check import read_table

SHOWN = 5  # divisions named in the message


@dataclass(frozen=True, slots=True)
class Control:
    """A control of the form: its name, its values (a select's options, a box's or a
    radio's value), the age bounds of a number field, and the editions it serves (None:
    every edition)."""

    name: str
    values: tuple[str, ...]
    bounds: tuple[int, int] | None
    editions: frozenset[str] | None


class _Reader(HTMLParser):
    """The controls of a form's HTML, each with the editions of the blocks around it."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[Control] = []
        self._scopes: list[frozenset[str] | None] = []
        self._select: dict[str, Any] | None = None

    def _serves(self) -> frozenset[str] | None:
        found = None
        for scope in self._scopes:
            if scope is not None:
                found = scope if found is None else found & scope
        return found

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag not in ("input", "option", "br", "img"):
            editions = given.get("data-for-editions")
            self._scopes.append(None if editions is None else frozenset(editions.split()))
        if tag == "select":
            self._select = {"name": given.get("name") or "", "values": []}
        elif tag == "option" and self._select is not None:
            self._select["values"].append(given.get("value") or "")
        elif tag == "input" and given.get("name"):
            kind = given.get("type")
            bounds = None
            if kind == "number":
                bounds = (int(given.get("min") or 0), int(given.get("max") or 0))
            value = (given.get("value") or "",) if kind in ("checkbox", "radio") else ()
            self.controls.append(Control(given["name"] or "", value, bounds, self._serves()))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            values = tuple(self._select["values"])
            self.controls.append(Control(self._select["name"], values, None, self._serves()))
            self._select = None
        if tag not in ("input", "option", "br", "img") and self._scopes:
            self._scopes.pop()


def controls(html: str) -> list[Control]:
    """The controls of a form's HTML, as :class:`Control`."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.controls


def missing(form: list[Control], edition: Edition, fields: dict[str, Any]) -> str | None:
    """What the form lacks to ask for this division in this edition (None: nothing)."""
    shown = [c for c in form if c.editions is None or edition.id in c.editions]
    values: dict[str, set[str]] = {}
    for control in shown:
        values.setdefault(control.name, set()).update(control.values)
    if edition.id not in values.get("edition", set()):
        return "no such edition to choose"
    age = int(fields["age"])
    bounds = [c.bounds for c in shown if c.name == "age" and c.bounds]
    if not any(low <= age <= high for low, high in bounds):
        return "no age field that takes it"
    for name, value in fields.items():
        wanted = value if isinstance(value, list) else [value]
        if name in ("edition", "age") or value == "":
            continue
        if name not in values:
            return f"no {name} field"
        lacking = [v for v in wanted if v not in values[name]]
        if lacking:
            return f"no {name} {', '.join(lacking)} to choose"
    unasked = [name for name in asked_at(edition, fields["age"]) if name not in values]
    return f"no {unasked[0]} field" if unasked else None


def divisions(edition: Edition, answers: dict[str, Any]) -> list[dict[str, Any]]:
    """Every division the table answers for an edition, as the form's fields: each
    uniform, rank, set of experience boxes, and the first age of each run of ages with
    one answer (an answer, not an error)."""
    entry = answers["editions"][edition.id]
    ages = {first for shared in entry["keys"]["shared"] for first, _ in shared["runs"]} | {
        age for rank in edition.ranks.values() for age in (rank.min_age, rank.max_age)
    }
    found = []
    for uniform in UNIFORM_NAMES:
        for rank in edition.ranks:
            for boxes in experience_sets(edition):
                for age in sorted(ages):
                    fields: dict[str, Any] = {
                        "edition": edition.id, "age": str(age), "uniform": uniform,
                        edition.eligibility.axis: rank,
                    }  # fmt: skip
                    if boxes:
                        fields["experience"] = list(boxes)
                    if "answer" in placement(edition, fields):
                        found.append(fields)
    return found


def named(edition: Edition, fields: dict[str, Any]) -> str:
    """A division as the message names it: ``Edition 3: age 30, belt blue, Gi``."""
    axis = edition.eligibility.axis
    parts = [f"age {fields['age']}", f"{axis} {fields[axis]}", UNIFORM_NAMES[fields["uniform"]]]
    if fields.get("experience"):
        parts.append("experience " + " + ".join(fields["experience"]))
    return f"{edition.title}: " + ", ".join(parts)


def check_form(
    page: str, html: str, editions: tuple[Edition, ...], answers: dict[str, Any]
) -> None:
    """Stop the build (SystemExit) if ``page``'s form (its HTML) cannot ask for a division
    the rules table answers, or if what it sends finds another answer than the engine's."""
    form = controls(html)
    asked: list[dict[str, Any]] = []
    wrong: list[str] = []
    by_id = {}
    for edition in editions:
        by_id[edition.id] = edition
        for fields in divisions(edition, answers):
            lacking = missing(form, edition, fields)
            if lacking is None:
                asked.append(fields)
            else:
                wrong.append(f"{named(edition, fields)} ({lacking})")
    if wrong:
        raise SystemExit(
            f"LVL Rules: {page}'s form cannot ask for {len(wrong)} divisions the rules table "
            "answers, e.g. " + "; ".join(wrong[:SHOWN])
        )
    found = read_table(answers, {"placements": [], "compares": [], "asks": [], "answers": asked})
    wrong = [
        named(by_id[fields["edition"]], fields)
        for fields, shown in zip(asked, found["answers"], strict=True)
        if canonical(shown) != canonical(answer(fields))
    ]
    if wrong:
        raise SystemExit(
            f"LVL Rules: {page}'s form finds, for {len(wrong)} divisions, another answer in "
            "the rules table than the engine's, e.g. " + "; ".join(wrong[:SHOWN])
        )
