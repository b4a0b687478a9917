"""Where every generated page and clause lives. These URLs are printed by officials: stable.
And whether the site's own address (MkDocs's ``site_url``, from ``LVL_SITE_URL``) is one a
phone can reach: the posters' QR code and the link previews' address need one.

Paths here are MkDocs source paths (``rules/2/5.md``); with ``use_directory_urls``
a page ``rules/2/5.md`` is served at ``/rules/2/5/``.
"""

from __future__ import annotations

import contextlib
import posixpath
import socket
from ipaddress import ip_address
from urllib.parse import urlsplit

from lvl_rules.faces.site import Clause, Edition

FRONT_PAGE_CLAUSES = ("preamble", "reading-guide")
# Names that never reach the public: this machine, a local network, a test.
LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".lan", ".home.arpa", ".test")


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


def public_address(address: str) -> str | None:
    """``address`` if a phone anywhere can reach it, else None: not http(s), a loopback,
    private or link-local address, a name without a dot or of a local network, or this
    machine's own name or address (the default ``http://127.0.0.1:8000/`` of a build made
    without ``LVL_SITE_URL``)."""
    parts = urlsplit(address)
    host = (parts.hostname or "").lower().rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        return None
    try:
        return address if ip_address(host).is_global else None
    except ValueError:
        pass  # a name, not an address
    if "." not in host or host.endswith(LOCAL_NAMES) or host in _this_machine():
        return None
    return address


def _this_machine() -> set[str]:
    """This machine's names and addresses (a build machine's address is no public one)."""
    name = socket.gethostname()
    found = {name.lower(), socket.getfqdn().lower()}
    with contextlib.suppress(OSError):  # a name this machine cannot look up
        found |= set(socket.gethostbyname_ex(name)[2])
    return found
