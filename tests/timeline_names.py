"""The editions the tests speak of, named by their place on the timeline, never by ID.

Edition IDs are data: a test asks the timeline (``lvl_rules.timeline``) which edition is
the full rulebook, which one amends it, which one is in force, and for an ID that is on
no timeline (tests/test_no_edition_literals.py keeps the tests so).
"""

from __future__ import annotations

from itertools import count

from lvl_rules import load_edition, timeline

LINE = timeline()
EDITIONS = LINE.editions()  # every edition, oldest first
IN_FORCE = LINE.in_force()
PAIRS = LINE.pairs()  # (amended, amending)
# The full rulebook (it amends none), and the first edition that amends it.
FULL = next(entry.id for entry in LINE.entries if entry.amends is None)
AMENDMENT = LINE.amended_by(FULL)[0]
# An edition ID on no timeline: the first number that is none of the editions'.
UNKNOWN = next(str(n) for n in count(1) if str(n) not in EDITIONS)
# Each edition's title as pages and answers write it ("Edition 2"): the data's.
TITLE = {edition: load_edition(edition).title for edition in EDITIONS}
