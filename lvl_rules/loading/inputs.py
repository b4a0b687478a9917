"""Files a person hands to the command line (a match's events), read as they are.

Read as bytes, and no more than the caller allows: the caller decodes and checks them
(:func:`lvl_rules.faces.limits.read_json`), so that a file of any size or encoding, or a
closed or broken stream, is one clear error.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import RulesError, reason_of


def read_input(source: str, most: int) -> bytes | str:
    """At most ``most`` bytes of a file, or of standard input for ``-`` (text, when
    standard input has been replaced by a text stream); a RulesError if unreadable."""
    stream = sys.stdin
    if source == "-" and stream is None:
        raise RulesError("stdin-closed", field="events")
    try:
        if source != "-":
            with Path(source).open("rb") as file:
                return file.read(most)
        buffer = getattr(stream, "buffer", None)
        return buffer.read(most) if buffer is not None else stream.read(most)
    except (OSError, ValueError) as error:  # ValueError: a closed stream, a NUL in a name
        raise RulesError(
            "events-unreadable", field="events", source=source, reason=reason_of(error)
        ) from None
