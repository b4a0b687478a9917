"""Who is who on a match sheet, in words: the colours an athlete's half can take, what an
athlete is called when both would be called the same, and the match's own details. The
engine's sheet needs them (the browser's wheel keeps this module); the pages' other words
are in :mod:`.match`."""

from __future__ import annotations

# Colours an athlete's half can take: (ID, name, background, text). Pairs chosen for a
# contrast of at least 4.5:1; the name says the colour, never the colour alone.
COLOURS = (
    ("blue", "Blue", "#1a3b8f", "#ffffff"),
    ("white", "White", "#f4f4f4", "#111111"),
    ("green", "Green", "#1b5e20", "#ffffff"),
    ("yellow", "Yellow", "#ffd83d", "#111111"),
    ("red", "Red", "#a31515", "#ffffff"),
    ("black", "Black", "#121212", "#ffffff"),
)
DEFAULT_COLOURS = {"A": "blue", "B": "white"}
# An athlete's label when both would be called the same: "Blue (A)".
SAME_LABEL = "{label} ({athlete})"
# The match's own details (in the link: date, event, mat, match_number), as the sheet names
# them.
DETAIL_LABELS = {"date": "Date", "event": "Event", "mat": "Mat", "match_number": "Match number"}
