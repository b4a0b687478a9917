"""The syntax of text in the data: what a brace may start, and that there is no HTML.

Rule text (a clause's title and text, an editorial note's decision and reason, a foul's
description) is Markdown with two kinds of ``{…}``: references such as ``{§5.4}`` and
markers such as ``{table:points}``. Every brace in it must be one of those, written
exactly so: ``{§2.3.7`` (unclosed), ``{§}``, ``{§ 2.3.7}`` or ``{foo:bar}`` are rejected
when the data is read, never published as literal text. Other text (names, labels,
summaries) has no braces at all.

No text in the data holds raw HTML: it is Markdown only, so that what the site publishes
is what Markdown makes of it and nothing an editor typed can become markup or script.
A ``<`` that starts a tag, a closing tag, a comment or a declaration (``<b``, ``</``,
``<!``, ``<?``) is rejected; ``age < 16`` is text.
"""

from __future__ import annotations

import re

# A cross-reference inside rule text: {§2.3.7}. Never a typed number.
REFERENCE = re.compile(r"\{§([^{}\s]+)\}")
# Generated content inside rule text: {table:points}, {points:mount}, {toc:sections}.
MARKER = re.compile(r"\{(table|points|toc):([^{}\s]+)\}")
# What a {table:…} or {toc:…} marker may name, in the order messages list them; the loader
# checks every marker against it, lvl_rules.words.markdown renders each (a test keeps the
# two the same). A {points:…} marker names the edition's own positions and escapes.
GENERATED = {
    "table": (
        "points",
        "technique-groups",
        "experiences",
        "ladders",
        "fouls-disciplinary",
        "fouls-serious",
        "fouls-severe",
    ),
    "toc": ("sections",),
}
# Anything a brace starts or ends: a whole {…} (checked against the two above) or a
# brace on its own.
BRACED = re.compile(r"\{[^{}]*\}|[{}]")
HTML = re.compile(r"<[A-Za-z/!?]")
EXCERPT_CHARS = 24  # how much of the text around a stray brace or a tag a message shows


def problem(text: str, *, markup: bool) -> tuple[str, str] | None:
    """What is wrong with a text of the data, as (data-problem code, the text at fault),
    or None. ``markup``: whether references and markers are allowed in it."""
    tag = HTML.search(text)
    if tag:
        return "raw-html", _excerpt(text, tag.start())
    for found in BRACED.finditer(text):
        piece = found.group()
        if not markup:
            return "braces-not-allowed", _excerpt(text, found.start())
        if len(piece) == 1:
            return "stray-brace", _excerpt(text, found.start())
        if not (REFERENCE.fullmatch(piece) or MARKER.fullmatch(piece)):
            return "bad-marker", piece
    return None


def references(text: str) -> list[str]:
    """The clause IDs a text refers to, in order."""
    return REFERENCE.findall(text)


def markers(text: str) -> list[tuple[str, str]]:
    """The generated content a text embeds, as (kind, argument) pairs."""
    return MARKER.findall(text)


def _excerpt(text: str, start: int) -> str:
    return text[start : start + EXCERPT_CHARS]
