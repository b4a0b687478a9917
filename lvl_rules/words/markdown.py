"""Rule text to Markdown: cross-references become links, markers become generated tables.

One renderer for every output. The CLI and the JSON export use the default link
(plain "§5.4"); the site passes a link function that writes Markdown links.
:data:`MARKERS` renders every marker a clause may use, by kind: those the model declares
(:data:`lvl_rules.model.markup.GENERATED`), which the loader checks the data against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..model import Clause, Edition
from ..model.rulebook import MARKER, REFERENCE
from .division import describe_ranks
from .readings import mark_markdown, sentence_readings
from .scoring import step_words

Link = Callable[[str, str], str]  # (clause ID, visible text) -> Markdown
# A link to an editorial note is asked of a Link as (NOTE + note ID, the note's title).
NOTE = "note:"
# An element a page may be linked to is asked of a Link as (ANCHOR + its id, its text): the
# site gives the text that id (each technique of section 1's lists, where a chart row's
# rule link lands); plain text elsewhere.
ANCHOR = "anchor:"

# Said wherever the techniques are listed with their descriptions (the table of section 1,
# the chart and its poster): the descriptions are ours (note technique-descriptions).
DESCRIPTIONS_OURS = (
    "The short description after each technique's name is ours, to help recognise it; the "
    "rules name the techniques and do not describe most of them."
)


def plain_link(clause_id: str, text: str) -> str:
    """A reference with no link: just its visible text."""
    del clause_id
    return text


def expand(edition: Edition, text: str, link: Link = plain_link) -> str:
    """Replace every reference and marker in ``text``."""

    def reference(match: object) -> str:
        clause_id = match.group(1)  # type: ignore[attr-defined]
        return link(clause_id, f"§{clause_id}")

    def marker(match: object) -> str:
        kind, argument = match.group(1), match.group(2)  # type: ignore[attr-defined]
        if kind == "points":
            return _points(edition, argument)
        return MARKERS[kind][argument](edition, link)

    return REFERENCE.sub(reference, MARKER.sub(marker, text)).strip()


def title(edition: Edition, clause: Clause) -> str:
    """A clause's title with its markers filled in: ``Takedown (2 points)``."""
    return expand(edition, clause.title)


def heading(edition: Edition, clause: Clause) -> str:
    """``5.1 Takedown (2 points)``; front matter has no number."""
    shown = title(edition, clause)
    return f"{clause.id} {shown}" if clause.numbered else shown


def body(edition: Edition, clause: Clause, link: Link = plain_link) -> str:
    """A clause's text as Markdown."""
    return expand(edition, clause.text, link)


def reading(edition: Edition, note_ids: Iterable[str], link: Link) -> str:
    """`` *Our reading:* <linked titles>`` after an item that follows editorial notes."""
    mark = mark_markdown(edition, note_ids, lambda n, title: link(NOTE + n, title))
    return f" {mark}" if mark else ""


def _points(edition: Edition, argument: str) -> str:
    total = 0
    for part in argument.split("+"):
        position = edition.positions.get(part)
        total += position.points if position else edition.escapes[part].points
    return f"{total} points" if total != 1 else "1 point"


def _sections(edition: Edition, link: Link) -> str:
    sections = [c for c in edition.clauses.values() if c.numbered and c.depth == 1]
    return "\n".join(
        f"{c.id}. {link(c.id, title(edition, c))}"
        + reading(edition, [n.id for n in edition.field_readings("clauses", c.id, "title")], link)
        for c in sections
    )


def _points_table(edition: Edition, link: Link) -> str:
    rows: dict[int, list[str]] = {}
    for position in edition.positions.values():
        extras = [
            v.name for v in position.variants.values() if v.kind == "points" and not v.standard
        ]
        shown = link(position.clause, position.name)
        rows.setdefault(position.points, []).append(
            f"{shown} (also: {'; '.join(extras)})" if extras else shown
        )
    for escape in edition.escapes.values():
        if escape.kind == "points":
            rows.setdefault(escape.points, []).append(link(escape.clause, escape.name))
    lines = ["| Points | Positions |", "|---|---|"]
    lines += [
        f"| {points} | {', '.join(names)} |" for points, names in sorted(rows.items(), reverse=True)
    ]
    return "\n".join(lines)


def technique_anchor(technique_id: str) -> str:
    """The id of a technique's row in the chart and of its item in section 1's lists."""
    return f"technique-{technique_id}"


def _technique_groups(edition: Edition, link: Link) -> str:
    def read(technique_id: str) -> str:
        return reading(edition, [n.id for n in edition.readings("techniques", technique_id)], link)

    def name(technique_id: str) -> str:
        shown = f"**{edition.techniques[technique_id].name}.**"
        return link(ANCHOR + technique_anchor(technique_id), shown)

    techniques = edition.techniques.values()
    ours = reading(edition, sentence_readings(edition, "technique-descriptions"), link)
    parts = [f"*{DESCRIPTIONS_OURS}*{ours}", "", f"**{edition.eligibility.prohibited_label}**", ""]
    parts += [f"- {name(t.id)} {t.description}{read(t.id)}" for t in techniques if t.prohibited]
    for group in edition.groups:
        parts += ["", f"**{group.label}**", ""]
        if not group.adds:
            parts.append("- None of the restricted techniques.")
        for technique_id in group.adds:
            technique = edition.techniques[technique_id]
            limit = group.limits.get(technique_id)
            only = f" *Only for {describe_ranks(edition, limit.ranks)}.*" if limit else ""
            parts.append(
                f"- {name(technique_id)} {technique.description}{only}{read(technique_id)}"
            )
    return "\n".join(parts)


def _experiences(edition: Edition, link: Link) -> str:
    del link
    return "\n".join(f"- {experience.name}" for experience in edition.experiences.values())


def _ladders(edition: Edition, link: Link) -> str:
    del link
    ladders = sorted(edition.ladders, key=lambda ladder: len(ladder.steps))
    longest = max(len(ladder.steps) for ladder in ladders)
    lines = ["| Penalty | " + " | ".join(ladder.name for ladder in ladders) + " |"]
    lines.append("|---" * (len(ladders) + 1) + "|")
    for n in range(longest):
        cells = [
            step_words(ladder.steps[n]) if n < len(ladder.steps) else "—" for ladder in ladders
        ]
        lines.append(f"| {n + 1} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _fouls(group: str) -> Callable[[Edition, Link], str]:
    """The fouls of a group that the clause holding this list names: a foul another clause
    names (the reaping severe foul, 7.3) is said there, not here."""
    marker = f"{{table:fouls-{group}}}"

    def table(edition: Edition, link: Link) -> str:
        home = next(c.id for c in edition.clauses.values() if marker in c.text)
        fouls = [
            f
            for f in edition.fouls.values()
            if f.group == group and not f.generic and f.clause == home
        ]
        return "\n".join(f"- {expand(edition, foul.description, link)}" for foul in fouls)

    return table


TABLES: dict[str, Callable[[Edition, Link], str]] = {
    "points": _points_table,
    "technique-groups": _technique_groups,
    "experiences": _experiences,
    "ladders": _ladders,
    "fouls-disciplinary": _fouls("disciplinary"),
    "fouls-serious": _fouls("serious"),
    "fouls-severe": _fouls("severe"),
}
TOCS: dict[str, Callable[[Edition, Link], str]] = {"sections": _sections}
MARKERS = {"table": TABLES, "toc": TOCS}  # {points:...} markers name positions and escapes
