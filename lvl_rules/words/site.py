"""The site's words made from rule data: page titles, edition labels, citations, the
technique chart's cells, the changes page, the calculator's pickers. (The scoring tables'
words are :mod:`.scoring`'s; static page prose is in the build's page templates.)"""

from __future__ import annotations

from collections.abc import Sequence

from ..engines.eligibility import granting_group
from ..model import Clause, Edition
from . import markdown as render
from .division import describe_ranks

# -- Editions and page titles ------------------------------------------------------------


def edition_label(edition: Edition, latest: str) -> str:
    """``Edition 2, in force`` or ``Edition 1``: which edition a page belongs to."""
    return f"{edition.title}, in force" if edition.id == latest else edition.title


def edition_choice(edition: Edition, latest: str) -> str:
    """``Edition 2 (in force)`` or ``Edition 1``: an edition in the navigation and forms."""
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
    return f"§{section.id} {render.title(edition, section)}"


# -- Pages of an edition, as the navigation and page titles name them -----------------

ABOUT_PAGE = "About these rules"
CHART_PAGE = "Technique chart"
SCORING_PAGE = "Scoring at a glance"
PRINT_PAGE = "Printable rulebook"
SITE_PAGES = {
    "home": "Home",
    "lookup": "Is this technique legal?",
    "calculator": "Score calculator",
    "rules": "Rules",
    "changes": "What changed",
    "notes": "Editorial notes",
    "data": "Data",
}

# -- Citations and the tools beside each clause ------------------------------------------

CHANGE_WORDS = {"changed": "Changed", "added": "New"}
PERMALINK = "Permalink"
COPY_CITATION = "Copy citation"
NOTE_REASON = "Why:"


def permalink_title(citation_text: str) -> str:
    """The permalink's tooltip: ``Permanent link to LVL Rules, Edition 2, §5.4``."""
    return f"Permanent link to {citation_text}"


def change_badge(kind: str, edition: Edition) -> str:
    """``Changed in Edition 2``: a clause's badge, linking to the changes page."""
    return f"{CHANGE_WORDS[kind]} in {edition.title}"


def note_heading(title: str) -> str:
    """The heading of an editorial note beside its clause."""
    return f"Editorial note: {title}"


def in_newer(clause: Clause, newer: Edition, *, changed: bool | None) -> str:
    """The link from an old edition's clause to the one in force (``changed`` None: the
    newer edition has no such clause)."""
    if changed is None:
        return f"Not in {newer.title}."
    state = "changed" if changed else "unchanged"
    where = f"{newer.title}: §{clause.id}" if clause.numbered else f"In {newer.title}"
    return f"{where} ({state})"


def citation(edition: Edition, clause: Clause) -> str:
    """``LVL Rules, Edition 2, §5.4`` (front matter is cited by its title)."""
    where = f"§{clause.id}" if clause.numbered else f"“{render.title(edition, clause)}”"
    return f"LVL Rules, {edition.title}, {where}"


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


def chart_caption(edition: Edition) -> str:
    """The chart table's caption (plain text; the caller escapes it)."""
    return f"Legal techniques, {edition.title}: Gi and No-Gi unless the cell says otherwise"


# -- What changed ------------------------------------------------------------------------

KIND_WORDS = {"changed": "changed", "added": "new", "removed": "removed"}
COLLECTION_TITLES = {
    "positions": "Scoring positions",
    "escapes": "Escaped submissions",
    "advantages": "Advantages",
    "fouls": "Fouls",
    "groups": "Technique groups",
    "ranks": "LVLs and belts",
    "experiences": "Prior experience (fair play)",
    "notes": "Editorial notes",
}


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
