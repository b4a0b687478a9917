"""Where every generated page and clause lives. These URLs are printed by officials: stable.

Paths here are MkDocs source paths (``rules/2/5.md``); with ``use_directory_urls``
a page ``rules/2/5.md`` is served at ``/rules/2/5/``.
"""

from __future__ import annotations

import posixpath

from lvl_rules.faces.site import Clause, Edition

FRONT_PAGE_CLAUSES = ("preamble", "reading-guide")


def edition_page(edition_id: str) -> str:
    """The front page of an edition."""
    return f"rules/{edition_id}/index.md"


def clause_page(edition_id: str, clause: Clause) -> str:
    """The page a clause is printed on: its section's page (front matter has its own)."""
    if clause.id in FRONT_PAGE_CLAUSES:
        return edition_page(edition_id)
    return f"rules/{edition_id}/{clause.section}.md"


def page_url(src: str) -> str:
    """The site URL path (no leading slash) MkDocs gives a source page."""
    if src.endswith("index.md"):
        return src[: -len("index.md")]
    return src[: -len(".md")] + "/"


def cite_path(edition_id: str, clause_id: str) -> str:
    """The permalink's URL path (no leading slash): ``cite/2/5.4/``."""
    return f"cite/{edition_id}/{clause_id}/"


def md_link(from_src: str, to_src: str, anchor: str | None = None) -> str:
    """A relative Markdown link target from one source page to another (MkDocs checks it)."""
    target = posixpath.relpath(to_src, posixpath.dirname(from_src) or ".")
    return f"{target}#{anchor}" if anchor else target


def href(from_src: str, to_url: str) -> str:
    """A relative HTML href from a source page's served URL to a site URL path."""
    here = page_url(from_src)
    relative = posixpath.relpath(to_url or ".", here or ".")
    if to_url.endswith("/") and not relative.endswith("/"):
        relative += "/"
    return relative


def sections(edition: Edition) -> list[Clause]:
    """The numbered top-level sections, in order."""
    return [c for c in edition.clauses.values() if c.numbered and c.depth == 1]
