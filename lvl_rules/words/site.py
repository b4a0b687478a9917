"""The site's words made from rule data: page titles, edition labels, citations, the
technique chart's cells, the changes page, the calculator's pickers. (The scoring tables'
words are :mod:`.scoring`'s; static page prose is in the build's page templates.)"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..engines.chart import Cell
from ..engines.eligibility import granting_group
from ..model import Clause, Edition, Foul, Technique
from .division import describe_criteria, describe_ranks, joined, rank_name
from .markdown import DESCRIPTIONS_OURS, body, heading
from .markdown import title as clause_title
from .readings import mark_html, sentence_readings

# -- Editions and page titles ------------------------------------------------------------


DRAFT = "draft"  # an edition's status when it is published for comment only


def edition_label(edition: Edition, latest: str) -> str:
    """``Edition 2, in force``, ``Edition 3, a draft`` or ``Edition 1``: which edition a
    page belongs to."""
    if edition.status == DRAFT:
        return f"{edition.title}, a draft"
    return f"{edition.title}, in force" if edition.id == latest else edition.title


def draft_notice(edition: Edition, in_force: Edition) -> dict[str, str]:
    """The banner of every page of a draft edition: its title and text."""
    return {
        "title": f"{edition.title} is a draft, not in force",
        "text": (
            f"{edition.title} is published for comment: it is not in force and may change "
            f"before it is. {in_force.title} is in force; cite it in a match."
        ),
    }


def changes_chart_heading(edition: Edition) -> str:
    """The heading of an edition's technique chart changes on the changes page, its own
    for each edition (the page lists several: axe, landmark-unique)."""
    return f"The technique chart in {edition.title}"


def in_force(edition: Edition) -> str:
    """``Edition 2 is in force``: the home page's line about the rules."""
    return f"{edition.title} is in force"


def edition_choice(edition: Edition, latest: str) -> str:
    """``Edition 2 (in force)``, ``Edition 3 (draft)`` or ``Edition 1``: an edition in the
    navigation and forms."""
    if edition.status == DRAFT:
        return f"{edition.title} (draft)"
    return f"{edition.title} (in force)" if edition.id == latest else edition.title


def editions_label(editions: Sequence[Edition]) -> str:
    """``Editions 1 and 2``: the editions a page about all of them covers."""
    ids = [edition.id for edition in editions]
    if len(ids) == 1:
        return editions[0].title
    return f"Editions {', '.join(ids[:-1])} and {ids[-1]}"


def page_title(name: str, label: str) -> str:
    """``§7 Fouls · Edition 2, in force``: a page's title, in the browser and in search."""
    return f"{name} · {label}"


def section_name(edition: Edition, section: Clause) -> str:
    """``§7 Fouls``: a numbered section in the navigation and page titles."""
    return f"§{section.id} {clause_title(edition, section)}"


# -- Pages of an edition, as the navigation and page titles name them -----------------

ABOUT_PAGE = "About these rules"
CHART_PAGE = "Technique chart"
SCORING_PAGE = "Scoring at a glance"
PRINT_PAGE = "Printable rulebook"
SITE_PAGES = {
    "home": "Home",
    "lookup": "My division",
    "divisions": "each answer's own address (its page, link preview, picture and poster)",
    "calculator": "Score calculator",
    "rules": "Rules",
    "changes": "What changed",
    "notes": "Editorial notes",
    "glossary": "Glossary",
    "data": "For developers",
}

# -- The division form's own words, which its script reads from the page -----------------

# The division form's words (build_scripts/pages/forms.py): a field per rank axis.
AXIS_LABELS = {"lvl": "LVL", "belt": "Belt"}
EXPERIENCE_LEGEND = "Prior experience"


def rank_blank(needed_from: int) -> str:
    """The empty choice of a rank field: when the rank is needed."""
    return f"— choose (needed from age {needed_from}) —"


def experience_who(edition: Edition) -> str:
    """Whom prior experience can move up in an edition: `` (white belts aged 16 and
    over)``, or nothing."""
    promotion = edition.eligibility.promotion
    if promotion is None:
        return ""
    return f" ({rank_name(edition, promotion.rank_from)}s aged {promotion.min_age} and over)"


FORM_WORDS = {
    "cite-text": "§{clause}",
    "cite-title": "LVL Rules, Edition {edition}, §{clause}",
    "unknown": "{value} (not in the list)",
}

# -- Citations and the tools beside each clause ------------------------------------------

CHANGE_WORDS = {"changed": "Changed", "added": "New"}
OUR_NUMBER = "Number ours, not the federation's"
OUR_NUMBER_TITLE = (
    "The source does not number this rule; the editorial note below says why it has this one."
)
PERMALINK = "Permalink"
COPY_CITATION = "Copy citation"
# The citation button's words (docs/assets/app/share.js reads them from the button): its
# label where the browser has a share sheet, and what it says for a moment after a tap.
CITATION_SHARE = {
    "share-label": "Share citation",
    "copy-label": COPY_CITATION,
    "copied": "Copied",
    "failed": "Copy failed: use the permalink",
    # Plain http on a venue's network: the browser neither shares nor copies there.
    "unavailable": "Copying needs a secure (https) address: show the link",
}


def permalink_title(citation_text: str) -> str:
    """The permalink's tooltip: ``Permanent link to LVL Rules, Edition 2, §5.4``."""
    return f"Permanent link to {citation_text}"


def change_badge(kind: str, edition: Edition) -> str:
    """``Changed in Edition 2``: a clause's badge, linking to the changes page."""
    return f"{CHANGE_WORDS[kind]} in {edition.title}"


def in_other(clause: Clause, other: Edition, *, changed: bool | None) -> tuple[str, str]:
    """The link from a clause to the same clause in another edition, and the state after
    it: (``Edition 1: §5.4``, ``(changed)``); ``changed`` None: the other edition has no
    such clause (``Not in Edition 1``, ``(new)`` or ``(removed)`` from the caller's kind)."""
    if changed is None:
        return f"Not in {other.title}", ""
    state = "(changed)" if changed else "(unchanged)"
    where = f"{other.title}: §{clause.id}" if clause.numbered else f"In {other.title}"
    return where, state


def row_rule(clause_id: str) -> str:
    """A chart row's link to the clause that restricts its technique: ``§1``."""
    return f"§{clause_id}"


def row_rule_title(edition: Edition, clause: Clause) -> str:
    """That link's title: ``The rule: LVL Rules, Edition 2, §1``."""
    return f"The rule: {citation(edition, clause)}"


def row_in_other(other: Edition) -> str:
    """A chart row's link to the same row in another edition's chart: ``In Edition 1``."""
    return f"In {other.title}"


def not_in_other(kind: str | None) -> str:
    """After ``Not in Edition 1``: what the changes page says of the clause, if anything."""
    return f"({KIND_WORDS[kind]})" if kind else ""


def citation(edition: Edition, clause: Clause) -> str:
    """``LVL Rules, Edition 2, §5.4`` (front matter is cited by its title)."""
    where = f"§{clause.id}" if clause.numbered else f"“{clause_title(edition, clause)}”"
    draft = " (draft)" if edition.status == DRAFT else ""
    return f"LVL Rules, {edition.title}{draft}, {where}"


# -- Scoring at a glance -----------------------------------------------------------------


def points_words(points: int) -> str:
    """``3 points``."""
    return f"{points} points"


# Calculator: the groups of fouls in its pickers.
FOUL_GROUP_NAMES = {
    "stalling": "Lack of combativeness",
    "serious": "Serious fouls",
    "severe": "Severe fouls (disqualify from the match)",
    "disciplinary": "Disciplinary fouls (disqualify from the competition)",
}

# -- The technique chart -----------------------------------------------------------------

YES = '<span aria-hidden="true">✓</span> Legal'
NO = '<span aria-hidden="true">✗</span> Not legal'
ONLY = '<span aria-hidden="true">✓</span> {} only'
NEVER = f"{NO}: never allowed, for any athlete"
EVERY_ATHLETE = "Every athlete"


def answer_words(gi: bool, nogi: bool) -> str:
    """The cell text for a band, given the Gi and No-Gi answers."""
    if gi and nogi:
        return YES
    if not gi and not nogi:
        return NO
    return ONLY.format("Gi" if gi else "No-Gi")


def promotion_rule(edition: Edition) -> str:
    """The fair-play rule as part of a sentence, from the data (empty without one):
    ``a white belt aged 16 or over with a black belt in judo, …, or any MMA bout competes at
    blue belt``."""
    promotion = edition.eligibility.promotion
    if promotion is None:
        return ""
    names = [x.name[0].lower() + x.name[1:] for x in edition.experiences.values()]
    listed = ", ".join(names[:-1]) + ", or " + names[-1] if len(names) > 2 else joined(names)
    return (
        f"a {rank_name(edition, promotion.rank_from)} aged {promotion.min_age} or over with "
        f"{listed} competes at {rank_name(edition, promotion.rank_to)}"
    )


POSTER_LINKS = "The chart as a poster to print"  # then a link for each paper size
POSTER_FORMAT = "(PDF)"


def poster_paper(paper: str) -> str:
    """A poster's link: ``A4 landscape``."""
    return f"{paper} landscape"


def poster_title(edition: Edition) -> str:
    """The chart poster's title: ``Technique chart · LVL Rules, Edition 2`` (a draft's:
    ``…, Edition 3: a draft, not in force``)."""
    return f"Technique chart · LVL Rules, {edition.title}{_draft_tail(edition)}"


def _draft_tail(edition: Edition) -> str:
    """What a printed title of a draft adds, so that no printout passes for the rules."""
    return ": a draft, not in force" if edition.status == DRAFT else ""


def poster_legend(edition: Edition) -> str:
    """What the poster's cells say (HTML: the marks are the chart's own), our readings
    marked (their titles, unlinked: a poster is printed)."""
    unlisted = mark_html(edition, sentence_readings(edition, "unlisted-techniques"))
    ours = mark_html(edition, sentence_readings(edition, "technique-descriptions"))
    return (
        f"<strong>{YES}</strong>: allowed in Gi and No-Gi. <strong>{ONLY.format('No-Gi')}</strong>"
        f": allowed in No-Gi, not in Gi. <strong>{NO}</strong>: not allowed; using it ends the "
        f"match (severe foul). A technique the chart does not list is not restricted by it"
        f"{' (' + unlisted + ')' if unlisted else ''}. {DESCRIPTIONS_OURS}"
        f"{' (' + ours + ')' if ours else ''}"
    )


def poster_scan() -> str:
    """The words beside the poster's QR code."""
    return "Scan for the chart online, with every clause, note and change:"


def chart_caption(edition: Edition) -> str:
    """The chart table's caption (plain text; the caller escapes it)."""
    return f"Legal techniques, {edition.title}: Gi and No-Gi unless the cell says otherwise"


# -- Where a reading is shown (the notes page) --------------------------------------------

SURFACES = {
    "clause": "{clause} on its rule page",
    "sections": "the list of sections (How to read this rulebook)",
    "changes": "What changed",
    "changes_chart": "What changed: the technique chart",
    "export": "the text export (lvl-rules export)",
    "scoring": "Scoring at a glance",
    "log": "the match log and result (calculator, match sheet, JSON API, lvl-rules score)",
    "count_menu": "the calculator's 20-second counts, where a count is not offered",
    "chart": "the technique chart",
    "list": "the lists of section 1",
    "lookup": "My division",
    "divisions": "each answer's own address (its page, link preview, picture and poster)",
    "poster": "the chart posters",
    "intro": "the technique chart's introduction",
    "legend": "the poster legend",
    "glossary": "the glossary ({term})",
}
# The surfaces that show each sentence of ours a reading may name (model SENTENCES).
SENTENCE_SURFACES = {
    "chart-intro-promotion": ("intro",),
    "unlisted-techniques": ("legend", "lookup"),
    "technique-descriptions": ("list", "intro", "legend", "lookup"),
}
SHOWN_ON = "Shown, marked “Our reading”, on:"

# -- What changed ------------------------------------------------------------------------

KIND_WORDS = {"changed": "changed", "added": "new", "removed": "removed"}
COLLECTION_TITLES = {
    "positions": "Scoring positions",
    "escapes": "Escaped submissions",
    "awards": "Points outside a position",
    "advantages": "Advantages",
    "fouls": "Fouls",
    "groups": "Technique groups",
    "ranks": "LVLs and belts",
    "experiences": "Prior experience (fair play)",
    "notes": "Editorial notes",
}


def not_in(side: str) -> str:
    """``(not in Edition 1)``: the side of a change that one edition does not have."""
    return f"(not in {side})"


def unchanged_paragraphs(count: int) -> str:
    """``[2 paragraphs unchanged]``: a folded run of the word diff."""
    return f"[{count} paragraph{'s' if count > 1 else ''} unchanged]"


def first_allowed(edition: Edition, technique_id: str) -> str:
    """When a technique first becomes legal in an edition's chart."""
    if edition.techniques[technique_id].prohibited:
        return "Never allowed"
    group = granting_group(edition, technique_id)
    if group is None:
        return "Not in the chart"
    limit = group.limits.get(technique_id)
    only = f" (only {describe_ranks(edition, limit.ranks)})" if limit else ""
    return f"From “{group.label}”{only}"


def moved(before: str, after: str) -> str:
    """The chart-changes column: the same first group, or not."""
    return "Same" if before == after else "**Changed**"


# -- Search: every chart row and every foul an entry of its own (two lines on a phone) ----

UNIFORMS_SAID = {
    (True, True): "Gi and No-Gi",
    (False, True): "No-Gi only",
    (True, False): "Gi only",
}
NEVER_SAID = "Not legal: never allowed, for any athlete"
NOBODY_SAID = "Not legal for any athlete in this edition"
FOUL_KINDS = {
    "stalling": "Lack of combativeness: the next penalty on the scale",
    "serious": "Serious foul: the next penalty on the scale",
    "severe": "Severe foul: disqualification from the match",
    "disciplinary": "Disciplinary foul: disqualification from the competition",
}


def chart_row_line(edition: Edition, technique: Technique, cells: Sequence[Cell]) -> str:
    """A chart row in one line: ``Legal: adults, brown and black belts, No-Gi only``;
    ``Legal: ages 16–17 and up, Gi and No-Gi``. Neighbouring columns with the same answer
    are said together."""
    said = {(cell.band.id, cell.uniform): cell.verdict.legal for cell in cells}
    bands = edition.bands
    runs: list[list[int]] = []  # [first column, last column], each of one answer
    answers: list[tuple[bool, bool]] = []
    for column, band in enumerate(bands):
        answer = (said[band.id, "gi"], said[band.id, "nogi"])
        if not any(answer):
            continue
        if runs and runs[-1][1] == column - 1 and answers[-1] == answer:
            runs[-1][1] = column
        else:
            runs.append([column, column])
            answers.append(answer)
    if not runs:
        return NEVER_SAID if technique.prohibited else NOBODY_SAID
    parts = []
    for (first, last), answer in zip(runs, answers, strict=True):
        who = _lower_first(bands[first].label)
        if last > first:
            who += " and up" if last == len(bands) - 1 else f" to {_lower_first(bands[last].label)}"
        parts.append(f"{who}, {UNIFORMS_SAID[answer]}")
    return "Legal: " + "; ".join(parts)


def foul_line(edition: Edition, foul: Foul) -> str:
    """A foul in one line: ``Serious foul: the next penalty on the scale (§7.2.2). Only in:
    ages 4–14; 18 and over, white belts.``"""
    line = f"{FOUL_KINDS[foul.group]} (§{foul.clause})."
    if foul.unless_legal:
        line += f" Not a foul where {edition.techniques[foul.unless_legal].name.lower()} is legal."
    if foul.only_for:
        line += " Only in: " + "; ".join(describe_criteria(edition, c) for c in foul.only_for) + "."
    return line


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


# -- Descriptions: what a page, or a shared citation, says in a link preview --------------

DESCRIPTION_LIMIT = 200  # characters: what link previews show of a description
SHORTEST_LEAD = 40  # a first sentence shorter than this is followed by the next one
DESCRIPTIONS = {
    "rules": (
        "The editions of the LVL Grappling Federation's competition rules, and which one is "
        "in force."
    ),
    "changes": "What changed in the LVL rules from one edition to the next, clause by clause.",
    "notes": "Where the LVL rules are silent, unclear or mistaken, what LVL Rules decided and why.",
    "data": "The LVL rules as JSON for tournament software, with a JSON Schema.",
}
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def lead(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """Plain text cut short for a preview or a search result: its first sentence (or first
    few short ones) within ``limit`` characters, or its first words and "…"."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    end = _SENTENCE_END.search(text, SHORTEST_LEAD - 1, limit + 1)
    if end:
        return text[: end.end()]
    return text[: text.rfind(" ", 0, limit)].rstrip(",;:") + "…"


def clause_lead(edition: Edition, clause: Clause, limit: int = DESCRIPTION_LIMIT) -> str:
    """A clause in a line: ``5.4 Mount, every kind (4 points). The athlete scores a mount
    when …``; a clause with no text of its own names its subclauses."""
    said = heading(edition, clause)
    first = _first_paragraph(body(edition, clause))
    if not first:
        parts = [
            heading(edition, c)
            for c in edition.clauses.values()
            if c.numbered and c.section == clause.id and c.depth == clause.depth + 1
        ]
        first = "; ".join(parts) + "." if parts else ""
    return f"{said}. {lead(first, limit - len(said) - 2)}" if first else said


def section_description(edition: Edition, section: Clause) -> str:
    """A rule page's description: its section's clause in a line."""
    return clause_lead(edition, section)


def edition_description(edition: Edition) -> str:
    """An edition's front page: ``LVL Grappling Federation: Competition Rules, Edition 2:
    Edition 1 as amended by …``."""
    return lead(f"{edition.name}, {edition.title}: {edition.description}")


def chart_description(edition: Edition) -> str:
    """The technique chart's description."""
    return (
        f"{edition.title} technique chart: which techniques are legal for which athletes, Gi "
        "and No-Gi."
    )


def scoring_description(edition: Edition) -> str:
    """Scoring at a glance's description."""
    return (
        f"{edition.title} scoring at a glance: points, advantages, penalty scales, fouls and "
        "how a match is decided."
    )


def print_description(edition: Edition) -> str:
    """The printable rulebook's description."""
    return f"{edition.name}, {edition.title}: every clause on one page."


def print_heading(edition: Edition) -> dict[str, str]:
    """The printable rulebook's (and its PDF's) title, and how to cite it: a draft's say
    it is one."""
    draft = " (draft)" if edition.status == DRAFT else ""
    return {
        "title": f"{edition.name}, {edition.title}{_draft_tail(edition)}",
        "cite": (
            "Printed from the LVL Rules site. Each clause can be cited as "
            f"“LVL Rules, {edition.title}{draft}, §number”."
        ),
    }


def _first_paragraph(markdown: str) -> str:
    """The first paragraph of Markdown as plain text (not a list, table or heading)."""
    for paragraph in markdown.split("\n\n"):
        text = paragraph.strip()
        if text and not text.startswith(("|", "-", "*", "#", "1.", "!!!")):
            return _MARKDOWN_LINK.sub(r"\1", text).replace("**", "").replace("*", "")
    return ""
