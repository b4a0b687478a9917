"""LVL Rules: the LVL Grappling Federation's competition rules as data, with engines.

The public API. Everything else is an implementation detail::

    from lvl_rules import division, check, score_match
    athlete = division("2", age=30, belt="purple", uniform="nogi")
    check(athlete, "heel-hook").legal        # False, with .reason and .cite
    score_match(athlete, [{"type": "score", "athlete": "A", "position": "mount"}])
"""

from .division import Division, division
from .eligibility import Answer, check, check_all, group_of, who_may_use
from .errors import RulesError
from .export import export_edition
from .loading import LATEST, edition_ids, load_all, load_edition, resolve_edition
from .model import Clause, Edition, Note, Technique
from .scoring import Report, score_match

__version__ = "1.0.0"

__all__ = [
    "LATEST",
    "Answer",
    "Clause",
    "Division",
    "Edition",
    "Note",
    "Report",
    "RulesError",
    "Technique",
    "check",
    "check_all",
    "division",
    "edition_ids",
    "export_edition",
    "group_of",
    "load_all",
    "load_edition",
    "resolve_edition",
    "score_match",
    "who_may_use",
]
