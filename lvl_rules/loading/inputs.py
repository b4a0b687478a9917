"""Files a person hands to the command line (a match's events), read as text."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import RulesError


def read_input(source: str) -> str:
    """The text of a file, or of standard input for ``-``; a RulesError if unreadable."""
    try:
        return sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(
            "events-unreadable", field="events", source=source, reason=error.strerror
        ) from None
