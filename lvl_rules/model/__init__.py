"""The rules as frozen records, each field declared once (:mod:`.fields`), read from the
edition TOML files by the strict reader (:mod:`.reader`)."""

from .athletes import MAX_AGE, MIN_AGE, UNIFORMS, Criteria, Experience, Rank, in_uniform
from .decisions import Method, Scoring
from .edition import COLLECTIONS, SETTINGS, Change, Edition
from .fouls import Count, Foul, Ladder, LadderStep
from .needs import NEEDS, Needs
from .points import Award, Position, Reason, Variant
from .rulebook import Clause, Note
from .techniques import Band, Eligibility, Group, Promotion, Technique, Unlisted

__all__ = [
    "COLLECTIONS",
    "MAX_AGE",
    "MIN_AGE",
    "NEEDS",
    "SETTINGS",
    "UNIFORMS",
    "Award",
    "Band",
    "Change",
    "Clause",
    "Count",
    "Criteria",
    "Edition",
    "Eligibility",
    "Experience",
    "Foul",
    "Group",
    "Ladder",
    "LadderStep",
    "Method",
    "Needs",
    "Note",
    "Position",
    "Promotion",
    "Rank",
    "Reason",
    "Scoring",
    "Technique",
    "Unlisted",
    "Variant",
    "in_uniform",
]
