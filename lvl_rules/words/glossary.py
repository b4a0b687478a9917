"""The glossary page's own words (its terms and their meanings are data:
``lvl_rules/glossary/terms.toml``)."""

from __future__ import annotations

from ..model import Clause, Edition

GLOSSARY_PAGE = "Glossary"
DESCRIPTION = (
    "Words of the LVL rules a parent or a reader new to the sport may not know, and the "
    "referee's Portuguese commands, each explained in one plain line."
)
INTRO = (
    "Words of the rules a parent, or a reader whose first language is not English, may "
    "not know, and the referee's commands, each in one plain line. Where the rules say "
    "what a word means, the line gives their meaning and links the clause; where they do "
    "not, the explanation is ours, and marked so. On a rule page, the first use of each "
    "word links here."
)


def meaning_source(edition: Edition, clause: Clause) -> str:
    """The link text of the clause a meaning comes from: ``Edition 2, §7.2.1``."""
    return f"{edition.title}, §{clause.id}"


def first_use_title(name: str) -> str:
    """The title of a word's first use on a rule page, linked to the glossary."""
    return f"{name}: see the glossary"
