"""What a response carries beyond its file: the security headers of
:mod:`build_scripts.publish.security` and Cache-Control. ``make serve`` sends them
(:mod:`build_scripts.tools.serve`); ``_headers`` gives them to a static host (Netlify /
Cloudflare Pages format)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from build_scripts.publish import security
from build_scripts.publish.site_files import HEADERS_FILE, is_compressed_copy, site_files

CACHE_FOREVER = "public, max-age=31536000, immutable"
CACHE_REVALIDATE = "no-cache"
# /engine/pyodide/314.0.8/..., /engine/wheels/0123456789abcdef/..., snapshot-<hash>.bin,
# stdlib-<hash>.zip, our scripts in /assets/code-<hash>/ (code_folder.py), theme bundles
# such as main.6f8fd8b1.min.js: the name changes whenever the content does. (A
# precompressed sibling is sent for the same URL.) A query string makes nothing
# immutable: the server ignores it when it picks the file.
VERSIONED = re.compile(
    r"^/engine/pyodide/\d+\.\d+\.\d+[^/]*/"
    r"|^/engine/wheels/[0-9a-f]{16,64}/"
    r"|^/assets/code-[0-9a-f]{10}/"
    r"|[-.][0-9a-f]{8,64}\.(?:min\.)?(?:js|css|bin|zip)$"
)


def cache_control(path: str) -> str:
    """Long-lived for files whose name changes with their content, revalidate for the rest
    (the service worker always: browsers look for a new one on every visit)."""
    if path == security.SERVICE_WORKER_PATH:
        return CACHE_REVALIDATE
    if VERSIONED.search(path):
        return CACHE_FOREVER
    return CACHE_REVALIDATE


def response_headers(url_path: str) -> dict[str, str]:
    """The headers a host should send for ``url_path`` beyond its defaults: security
    headers, and Cache-Control where the server sets more than revalidation."""
    headers = security.headers_for(url_path)
    control = cache_control(url_path)
    if control == CACHE_FOREVER or url_path == security.SERVICE_WORKER_PATH:
        headers["Cache-Control"] = control
    return headers


# A pattern every URL matches, one with no file included (a 404, a folder's URL without
# its slash, which is redirected): its headers are those of a path nothing singles out.
EVERY_URL = "/*"
# Cloudflare Pages: a header line "! Name" removes the value an earlier matching rule gave.
DETACH = "! "


def write_host_headers(site_dir: Path) -> None:
    """Write ``<site>/_headers`` (see :func:`host_headers`)."""
    (site_dir / HEADERS_FILE).write_text(host_headers(site_dir), encoding="utf-8")


def host_headers(site_dir: Path) -> str:
    """The ``_headers`` file: the headers the server sends, for every URL.

    ``/*`` gives every URL what a URL with no file gets (a 404, a folder's redirect): the
    page policy, nosniff, no referrer. A path that gets another value of one of them (the
    engine worker's policy) has a rule after it that replaces it: both hosts apply the
    matching rules in their order, and a header set by two of them is joined by Cloudflare
    Pages (two policies, both enforced) unless the later one first detaches it (``!
    Name``), and replaced by Netlify (netlify-cli's headersForPath: the later rule wins),
    whose parser skips a line without a colon. Other headers (Cache-Control) have rules
    that never overlap: the fewest, each ``folder/*`` where all of a folder's files share
    a value. Cloudflare Pages reads at most 100 rules.
    """
    urls = [
        "/" + path.relative_to(site_dir).as_posix()
        for path in site_files(site_dir)
        if not is_compressed_copy(path) and path.name != HEADERS_FILE
    ]
    per_url = {url: response_headers(url) for url in urls}
    everywhere = response_headers(EVERY_URL)
    rules: dict[str, list[str]] = {EVERY_URL: [_line(n, v) for n, v in everywhere.items()]}
    names = dict.fromkeys(name for headers in per_url.values() for name in headers)
    for name in names:
        values = {url: headers.get(name) for url, headers in per_url.items()}
        if name in everywhere:
            overrides = [(url, value) for url, value in values.items() if value != everywhere[name]]
            for url, value in overrides:
                for pattern in _patterns(url):
                    rules.setdefault(pattern, []).append(f"  {DETACH}{name}")
                    if value is not None:
                        rules[pattern].append(_line(name, value))
            continue
        for pattern, value in _collapse(_tree(values), "/"):
            rules.setdefault(pattern, []).append(_line(name, value))
    lines = [
        "# Written by build_scripts/publish/headers.py from build_scripts/publish/security.py:",
        "# the headers `make serve` sends. /* comes first: a later rule replaces its value.",
    ]
    for pattern in sorted(rules, key=lambda p: (p != EVERY_URL, p)):
        lines.append(pattern)
        lines.extend(rules[pattern])
    return "\n".join(lines) + "\n"


def _line(name: str, value: str) -> str:
    return f"  {name}: {value}"


def _patterns(url: str) -> list[str]:
    """The URLs that serve a file: a folder's URL too for its index.html."""
    if url.endswith("/index.html"):
        return [url, url.removesuffix("index.html")]
    return [url]


def _tree(values: dict[str, str | None]) -> dict[str, object]:
    root: dict[str, object] = {}
    for url, value in values.items():
        *folders, name = url.strip("/").split("/")
        node = root
        for folder in folders:
            node = node.setdefault(folder + "/", {})  # type: ignore[assignment]
        node[name] = value
    return root


def _leaves(node: dict[str, object]) -> Iterable[object]:
    for child in node.values():
        if isinstance(child, dict):
            yield from _leaves(child)
        else:
            yield child


def _collapse(node: dict[str, object], prefix: str) -> list[tuple[str, str]]:
    """``(pattern, value)`` rules covering every file under ``node`` that has a value:
    ``prefix*`` when all of them share one, else one rule per file or subfolder."""
    values = set(_leaves(node))
    if len(values) == 1 and None not in values:
        return [(prefix + "*", str(values.pop()))]
    rules = []
    for name, child in sorted(node.items()):
        if isinstance(child, dict):
            rules.extend(_collapse(child, prefix + name))
        elif child is not None:
            rules.extend((pattern, child) for pattern in _patterns(prefix + name))
    return rules
