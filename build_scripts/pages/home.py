"""The home page (docs/index.md, written by hand) with what it says of the rules filled in
from them: the edition in force, its name in words, and where its chart and scoring are.

Its ``{{ ... }}`` are Jinja2 expressions, which the MkDocs hook fills in before the page
is rendered (``on_page_markdown``); a name this module does not give fails the build.
"""

from __future__ import annotations

from lvl_rules.faces.site import Edition, edition_in_force
from lvl_rules.faces.site import site_words as words

from .templating import TEMPLATES

HOME = "index.md"


def home_markdown(markdown: str, editions: tuple[Edition, ...]) -> str:
    """The home page's Markdown with the edition in force filled in."""
    in_force = edition_in_force(editions)
    return TEMPLATES.from_string(markdown).render(
        in_force=in_force, in_force_line=words.in_force(in_force)
    )
