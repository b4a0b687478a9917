"""LVL Rules: the LVL Grappling Federation's competition rules as data, with engines.

The public API. Everything else is an implementation detail::

    from lvl_rules import division, check, score_match
    athlete = division("2", age=30, belt="purple", uniform="nogi")
    check(athlete, "heel-hook").legal        # False, with .reason and .cite
    score_match(athlete, [{"type": "score", "athlete": "A", "position": "mount"}])

Rooms: ``model`` (records, each field declared once, and the strict TOML reader),
``loading`` (read, amend and check the editions), ``engines`` (the rule logic),
``words`` (every sentence a person reads), ``faces`` (this API, the JSON API, the CLI,
the export).
"""

from .engines.chart import Cell, who_may_use
from .engines.division import Division
from .engines.eligibility import group_of
from .errors import RulesError
from .faces.export import edition_schema, export_edition
from .faces.library import (
    LATEST,
    Answer,
    Report,
    check,
    check_all,
    division,
    load_edition,
    rank_axes,
    resolve_edition,
    score_match,
)
from .loading import Timeline, edition_ids, load_all, timeline
from .model import Clause, Edition, Note, Technique

__version__ = "1.0.0"

__all__ = [
    "LATEST",
    "Answer",
    "Cell",
    "Clause",
    "Division",
    "Edition",
    "Note",
    "Report",
    "RulesError",
    "Technique",
    "Timeline",
    "check",
    "check_all",
    "division",
    "edition_ids",
    "edition_schema",
    "export_edition",
    "group_of",
    "load_all",
    "load_edition",
    "rank_axes",
    "resolve_edition",
    "score_match",
    "timeline",
    "who_may_use",
]
