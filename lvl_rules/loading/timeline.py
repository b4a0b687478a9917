"""The editions as a timeline: the one place that says which edition is in force, which
one each amends, which pairs are compared, which are drafts, and their order.

Each edition's own data says where it stands (``status``: draft, in force, superseded;
``in_force_from`` where the federation gives a date) and, for an amendment, which edition
it amends. Nothing else decides "in force" from a number or a position in a list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.resources.abc import Traversable

from ..errors import RulesError
from ..model.edition import DRAFT, IN_FORCE, SUPERSEDED
from .editions import edition_ids, edition_meta, load_edition


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry:
    """One edition on the timeline."""

    id: str
    status: str
    amends: str | None = None
    in_force_from: str | None = None


@dataclass(frozen=True, slots=True)
class Timeline:
    """Every edition, oldest first, with its status and the edition it amends."""

    entries: tuple[Entry, ...]

    def editions(self) -> tuple[str, ...]:
        """Every edition's ID, oldest first."""
        return tuple(entry.id for entry in self.entries)

    def entry(self, edition_id: str) -> Entry:
        """The entry of this edition (a RulesError for an unknown one)."""
        for entry in self.entries:
            if entry.id == edition_id:
                return entry
        raise RulesError(
            "unknown-edition", field="edition", value=edition_id, known=self.editions()
        )

    def in_force(self) -> str:
        """The ID of the edition in force."""
        return next(entry.id for entry in self.entries if entry.status == IN_FORCE)

    def is_in_force(self, edition_id: str) -> bool:
        """Whether this edition is the one in force."""
        return self.entry(edition_id).status == IN_FORCE

    def is_draft(self, edition_id: str) -> bool:
        """Whether this edition is a draft (published for comment, never in force)."""
        return self.entry(edition_id).status == DRAFT

    def amends(self, edition_id: str) -> str | None:
        """The edition this one amends (None for a full rulebook)."""
        return self.entry(edition_id).amends

    def amended_by(self, edition_id: str) -> tuple[str, ...]:
        """The editions that amend this one, oldest first."""
        return tuple(entry.id for entry in self.entries if entry.amends == edition_id)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every pair the site and the checks compare: (the amended, the amending), oldest
        first."""
        return tuple((entry.amends, entry.id) for entry in self.entries if entry.amends)

    def published(self) -> tuple[str, ...]:
        """The editions that are not drafts, oldest first."""
        return tuple(entry.id for entry in self.entries if entry.status != DRAFT)


@functools.cache
def timeline(root: Traversable | None = None) -> Timeline:
    """The timeline of the editions in ``root`` (default: the package's), checked: exactly
    one edition in force, the superseded ones before it, the drafts after it."""
    entries = tuple(Entry(**edition_meta(edition_id, root)) for edition_id in edition_ids(root))
    for entry in entries:
        if entry.status not in (DRAFT, IN_FORCE, SUPERSEDED):
            load_edition(entry.id, root)  # the model's own error, naming the file and key
    in_force = [entry.id for entry in entries if entry.status == IN_FORCE]
    if len(in_force) != 1:
        raise RulesError("in-force-count", field="status", found=tuple(in_force))
    at = next(index for index, entry in enumerate(entries) if entry.status == IN_FORCE)
    for index, entry in enumerate(entries):
        expected = IN_FORCE if index == at else SUPERSEDED if index < at else DRAFT
        if entry.status != expected:
            raise RulesError(
                "status-out-of-order", field="status", edition=entry.id,
                status=entry.status, expected=expected,
            )  # fmt: skip
    return Timeline(entries)
