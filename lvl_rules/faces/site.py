"""The site build's face: everything ``build_scripts`` reads of the rules, in one list.

The build reaches the package only through the faces (this one, :mod:`.export`,
:mod:`.limits`, :mod:`.my_division`) and the public API of :mod:`lvl_rules`; a test
(tests/test_layers.py) keeps it so. Here are the records the pages are made from, the
chart and the calculator's event declarations, and every word the pages print: the site's
own (:mod:`lvl_rules.words.site`, :mod:`~lvl_rules.words.match`,
:mod:`~lvl_rules.words.engine`, :mod:`~lvl_rules.words.offline`, which the build writes
into the pages for their scripts) and those it shares with the other faces.

Only the build imports this module, and only it the site's own words: the browser's wheel
leaves them all out, the glossary's words too (``build_scripts/bundle/wheel.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engines.chart import Cell, chart
from ..engines.events import EVENT_TYPES, RULINGS_EXTRA, allowed_values
from ..loading import clear_cache, timeline
from ..loading.glossary import load_glossary
from ..model import MAX_AGE, MIN_AGE, Band, Clause, Edition, Technique
from ..words import engine as engine_words
from ..words import glossary as glossary_words
from ..words import impact as impact_words
from ..words import markdown
from ..words import match as match_words
from ..words import offline as offline_words
from ..words import readings as readings_words
from ..words import scoring as scoring_words
from ..words import site as site_words
from ..words.division import UNIFORM_NAMES, rank_name
from ..words.my_division import PAGE as MY_DIVISION
from ..words.my_division import (
    division_glance,
    division_summary,
    division_title,
    page_text,
    page_words,
    unlisted_readings,
)
from ..words.scoring import award_words, foul_effect, label
from ..words.site import (
    COLLECTION_TITLES,
    EVERY_ATHLETE,
    FORM_WORDS,
    FOUL_GROUP_NAMES,
    KIND_WORDS,
    NEVER,
    answer_words,
    chart_caption,
    citation,
    edition_choice,
    edition_label,
    editions_label,
    first_allowed,
    moved,
    not_in,
    page_title,
    points_words,
    poster_legend,
    poster_scan,
    poster_title,
    unchanged_paragraphs,
)
from .impact import impact


def edition_in_force(editions: Sequence[Edition]) -> Edition:
    """Of the editions a page shows, the one in force (the timeline says which)."""
    wanted = timeline().in_force()
    return next(edition for edition in editions if edition.id == wanted)


__all__ = [
    "COLLECTION_TITLES",
    "EVENT_TYPES",
    "EVERY_ATHLETE",
    "FORM_WORDS",
    "FOUL_GROUP_NAMES",
    "KIND_WORDS",
    "MAX_AGE",
    "MIN_AGE",
    "MY_DIVISION",
    "NEVER",
    "RULINGS_EXTRA",
    "UNIFORM_NAMES",
    "Band",
    "Cell",
    "Clause",
    "Edition",
    "Technique",
    "allowed_values",
    "answer_words",
    "award_words",
    "chart",
    "chart_caption",
    "citation",
    "clear_cache",
    "division_glance",
    "division_summary",
    "division_title",
    "edition_choice",
    "edition_in_force",
    "edition_label",
    "editions_label",
    "engine_words",
    "first_allowed",
    "foul_effect",
    "glossary_words",
    "impact",
    "impact_words",
    "label",
    "load_glossary",
    "markdown",
    "match_words",
    "moved",
    "not_in",
    "offline_words",
    "page_text",
    "page_title",
    "page_words",
    "points_words",
    "poster_legend",
    "poster_scan",
    "poster_title",
    "rank_name",
    "readings_words",
    "scoring_words",
    "site_words",
    "timeline",
    "unchanged_paragraphs",
    "unlisted_readings",
]
