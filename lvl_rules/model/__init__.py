"""The rules as frozen model objects, built once from the edition TOML files."""

from .divisions import Band, Criteria, Eligibility, Experience, Group, Rank
from .edition import Change, Edition
from .scoring import Award, Foul, Ladder, LadderStep, Method, Position, Scoring
from .text import Clause, Note, Technique

__all__ = [
    "Award",
    "Band",
    "Change",
    "Clause",
    "Criteria",
    "Edition",
    "Eligibility",
    "Experience",
    "Foul",
    "Group",
    "Ladder",
    "LadderStep",
    "Method",
    "Note",
    "Position",
    "Rank",
    "Scoring",
    "Technique",
]
