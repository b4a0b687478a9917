"""The glossary: words of the rules a parent or a non-native reader may not know."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import declare

__all__ = ["Term"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Term:
    """One word or phrase of the rules, and what it means in one plain line. Its meaning
    is the rules' own where ``clause`` names the clause that gives it; without a clause
    the meaning is ours, and an editorial note of every edition reads it (its readings
    name ``{ collection = "terms", key = <id> }``), so every surface marks it so."""

    id: str = declare("key", "The term's ID: its anchor on the glossary page.")
    name: str = declare("text", "The term as the glossary lists it: 'Stalling'.")
    forms: tuple[str, ...] = declare(
        "refs",
        "The words whose first use on a rule page links to the term, as the rules write "
        "them (matched whole, in any case): 'stalling', 'stalls'.",
    )
    meaning: str = declare("text", "What it means, in one plain line.")
    clause: str | None = declare(
        "clause",
        "The clause whose words give this meaning (none: the meaning is ours).",
        default=None,
    )
