"""What a generated page says about the edition it belongs to: its title (the browser tab,
Material's header and search results), its rank in Material's search, and the line
above its heading that names the edition.

Material's search takes a page's result title from its first heading, unless something
comes before that heading; then from the page's title. Rule pages begin with their
clause's heading ("§7 Fouls"), so the edition line (or an older edition's notice) comes
first, and the result reads "§7 Fouls · Edition 2, in force".
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lvl_rules.faces.site import Edition, edition_label, editions_label, page_title

IN_FORCE_BOOST = 2.0  # the edition in force first in search results
OLDER_BOOST = 0.5  # then older editions
ABOUT_EDITIONS_BOOST = 0.5  # and the pages about every edition (what changed, notes)


def front_matter_lines(title: str, boost: float | None) -> str:
    """The page's ``title`` and ``search: boost`` front matter (JSON strings are YAML)."""
    lines = [f"title: {json.dumps(title, ensure_ascii=False)}"]
    if boost is not None:
        lines += ["search:", f"  boost: {boost}"]
    return "\n".join(lines)


def edition_line(label: str, target: str) -> str:
    """The Markdown line above a page's heading: its edition(s), linking to them. Not
    searched: the page's first section is its search entry, titled with the edition
    (build_scripts/pages/search_entries.py)."""
    return f"[{label}]({target})\n{{ .lvl-edition data-search-exclude }}"


def for_edition_page(
    edition: Edition, latest: str, name: str, *, search: bool = True
) -> dict[str, str]:
    """Template values of a page of ``edition`` called ``name`` in the navigation:
    ``meta`` (front matter lines) and ``edition_line`` (Markdown)."""
    label = edition_label(edition, latest)
    boost = (IN_FORCE_BOOST if edition.id == latest else OLDER_BOOST) if search else None
    return {
        "meta": front_matter_lines(page_title(name, label), boost),
        "edition_line": edition_line(label, "index.md"),
    }


def for_page_about_editions(editions: Sequence[Edition], name: str) -> dict[str, str]:
    """Template values of a page about every edition (``rules/<page>.md``)."""
    label = editions_label(editions)
    return {
        "meta": front_matter_lines(page_title(name, label), ABOUT_EDITIONS_BOOST),
        "edition_line": edition_line(label, "index.md"),
    }
