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
# The final score of each athlete, as the command line's sheet prints it.
FINAL_SCORE = "Final score"
_COUNTED = {
    "points": ("{n} point", "{n} points"),
    "advantages": ("{n} advantage", "{n} advantages"),
    "penalties": ("{n} penalty", "{n} penalties"),
}


def score_line(label: str, tally: dict[str, object]) -> str:
    """``Ana: 4 points, 1 advantage, 0 penalties``: an athlete's final score."""
    parts = []
    for field, (one, other) in _COUNTED.items():
        n = tally[field]
        parts.append((one if n == 1 else other).format(n=n))
    return f"{label}: {', '.join(parts)}"
