"""The site build's last step: the Content-Security-Policy in every page, the service worker
that keeps the site for offline use, and the headers file for a static host.

:func:`write_offline_files` runs once the pages and the engine are written (the MkDocs
hook's on_post_build) and, in this order:

1. puts the page policy of :mod:`build_scripts.security` into every HTML page, as a
   ``<meta http-equiv="Content-Security-Policy">`` right after ``<meta charset>`` (before
   any script or style), and checks that each page has exactly one, with that policy;
2. writes precompressed ``.br`` and ``.gz`` siblings next to every sizeable text file
   (pages, theme, search index; precompressed.py), as the engine step does for its
   files; ``make serve`` sends the one the browser accepts;
3. writes ``sw.js`` at the site root from ``templates/sw.js``: the list of every file that
   may be kept offline (URL, sha256, size, group, download bytes) and a version that is a
   hash of that list, so any changed file makes a new service worker and a new cache.
   Groups say when a file is kept (see sw.js): "core" (the theme, the 404 page, the
   search index and the sitemap, which every page uses) after the first page, "engine"
   once a lookup or calculator page loaded it, everything else ("page", "print", "data",
   "other") when visited, or all at once when the reader asks to keep everything;
4. writes ``_headers`` (Netlify / Cloudflare Pages format) with the headers serve.py
   sends: per header, rules whose paths never overlap, because both hosts join the
   values of a header that several matching rules set (two CSPs are both enforced).

Manual run: ``python build_scripts/offline.py SITE_DIR``.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_scripts import security
from build_scripts.precompressed import ENCODINGS, compress, decompress, write_siblings
from build_scripts.serve import CACHE_FOREVER, cache_control

TEMPLATE = Path(__file__).resolve().parent / "templates" / "sw.js"
BUILD_MARKER = "/* BUILD */ {}"
SERVICE_WORKER = "sw.js"
HEADERS_FILE = "_headers"
NOT_FOUND_PAGE = "404.html"
# Files the engine worker loads: kept once a page that runs the engine loaded them.
ENGINE_DIR = "engine/"
COMPRESSED_SUFFIXES = tuple(ENCODINGS.values())
# Never kept offline: source maps; lunr's language packs too while the search is English
# only (Material's search worker loads none for English).
SOURCE_MAPS = re.compile(r"\.map$")
LUNR = re.compile(r"^assets/javascripts/lunr/")
SEARCH_INDEX = "search/search_index.json"
SITEMAP = "sitemap.xml"
GZIP_SUFFIXES = (".html", ".js", ".css", ".json", ".xml", ".svg", ".txt")
GZIP_MIN_BYTES = 1024

META = '<meta http-equiv="Content-Security-Policy" content="{}">'
META_ANY = re.compile(r"<meta\s+http-equiv=[\"']?content-security-policy[\"']?[^>]*>", re.I)
CHARSET = re.compile(r"<meta\s+charset=[\"']?[\w-]+[\"']?\s*/?>", re.I)
HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.I)


class OfflineError(RuntimeError):
    """A page the policy cannot be put into, or a missing input."""


def write_offline_files(site_dir: Path) -> dict[str, object]:
    """Policy into every page, .gz siblings, ``sw.js`` and ``_headers``; return a summary."""
    site_dir = Path(site_dir)
    if not TEMPLATE.is_file():
        raise OfflineError(f"{TEMPLATE} is missing")
    pages = put_policy_in_pages(site_dir)
    compressed = precompress(site_dir)
    files = precache_list(site_dir)
    version = build_version(files)
    build = {"version": version, "notFound": NOT_FOUND_PAGE, "files": files}
    template = TEMPLATE.read_text(encoding="utf-8")
    if template.count(BUILD_MARKER) != 1:
        raise OfflineError(f"{TEMPLATE} must contain {BUILD_MARKER!r} exactly once")
    script = template.replace(BUILD_MARKER, json.dumps(build, separators=(",", ":"))).encode()
    (site_dir / SERVICE_WORKER).write_bytes(script)
    # Browsers fetch it on every visit (a 304 when nothing changed): send it compressed.
    write_siblings(site_dir / SERVICE_WORKER)
    (site_dir / HEADERS_FILE).write_text(host_headers(site_dir), encoding="utf-8")

    def size(group: str) -> int:
        return sum(entry[1] for entry in files.values() if entry[2] == group)

    return {
        "version": version,
        "pages": pages,
        "compressed": compressed,
        "shell_files": sum(1 for entry in files.values() if entry[2] != "engine"),
        "shell_bytes": sum(size(group) for group in GROUPS if group != "engine"),
        "engine_files": sum(1 for entry in files.values() if entry[2] == "engine"),
        "engine_bytes": size("engine"),
        "download_bytes": sum(entry[3] for entry in files.values()),
    }


def put_policy_in_pages(site_dir: Path) -> int:
    """Give every HTML page the page policy as its first ``<meta>`` after the charset."""
    policy = security.meta_policy()
    if '"' in policy:
        raise OfflineError(f"a policy with a double quote cannot go in a <meta>: {policy}")
    meta = META.format(html.escape(policy, quote=False))
    count = 0
    for page in sorted(site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        found = META_ANY.findall(text)
        if found == [meta]:
            count += 1
            continue  # already there (a second run over the same site)
        if found:
            raise OfflineError(
                f"{page.relative_to(site_dir)}: has its own Content-Security-Policy <meta>; "
                "the policy lives in build_scripts/security.py"
            )
        anchor = CHARSET.search(text) or HEAD.search(text)
        if anchor is None:
            raise OfflineError(
                f"{page.relative_to(site_dir)}: no <head> to put the Content-Security-Policy in"
            )
        text = f"{text[: anchor.end()]}\n{meta}{text[anchor.end() :]}"
        page.write_text(text, encoding="utf-8")
        stale = page.with_name(page.name + ".gz")
        if stale.exists():
            stale.unlink()  # remade by precompress()
        count += 1
    return count


def precompress(site_dir: Path) -> int:
    """Write ``X.br`` and ``X.gz`` next to each sizeable text file outside the engine, and
    remake any sibling that no longer matches its file; return how many were written."""
    count = 0
    unused = _unused(site_dir)
    for path in _site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative.startswith(ENGINE_DIR) or unused(relative) or _is_sibling(path):
            continue  # the engine step compresses its own files
        if relative in (SERVICE_WORKER, HEADERS_FILE):
            continue  # written afterwards
        siblings = {e: path.with_name(path.name + suffix) for e, suffix in ENCODINGS.items()}
        if not any(s.exists() for s in siblings.values()) and (
            path.suffix not in GZIP_SUFFIXES or path.stat().st_size < GZIP_MIN_BYTES
        ):
            continue
        data = path.read_bytes()
        for encoding, target in siblings.items():
            if target.exists() and decompress(target.read_bytes(), encoding) == data:
                continue  # up to date (MkDocs writes sitemap.xml.gz itself)
            target.write_bytes(compress(data, encoding))
            count += 1
    return count


def _is_sibling(path: Path) -> bool:
    """A precompressed copy of a file next to it (``X.gz``, ``X.br``)."""
    return path.suffix in COMPRESSED_SUFFIXES and path.with_suffix("").exists()


def file_group(relative: str) -> str:
    """When the service worker keeps a file (see templates/sw.js)."""
    if relative.startswith(ENGINE_DIR):
        return "engine"
    if relative in (NOT_FOUND_PAGE, SEARCH_INDEX, SITEMAP) or relative.startswith("assets/"):
        return "core"  # every page uses them (Material reads the sitemap and the index)
    if "/print/" in f"/{relative}" or relative.endswith(".pdf"):
        return "print"
    if relative.endswith(".html"):
        return "page"
    if relative.startswith("data/"):
        return "data"
    return "other"


GROUPS = ("core", "page", "print", "data", "other", "engine")


def download_bytes(path: Path) -> int:
    """What a file costs to download: its smallest precompressed sibling, else itself."""
    sizes = [path.stat().st_size]
    sizes += [
        sibling.stat().st_size
        for suffix in COMPRESSED_SUFFIXES
        if (sibling := path.with_name(path.name + suffix)).exists()
    ]
    return min(sizes)


def precache_list(site_dir: Path) -> dict[str, list[object]]:
    """Every file that may be kept offline: ``{url: [sha256, size, group, download]}``, URLs
    relative to the site root (``rules/2/5/`` for ``rules/2/5/index.html``, ``./`` for the
    home page); ``download``: the bytes it costs over the network."""
    files: dict[str, list[object]] = {}
    unused = _unused(site_dir)
    for path in _site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative in (SERVICE_WORKER, HEADERS_FILE) or unused(relative):
            continue
        if _is_sibling(path):
            continue  # a precompressed sibling: the server sends it for the file itself
        data = path.read_bytes()
        files[page_url(relative)] = [
            hashlib.sha256(data).hexdigest(),
            len(data),
            file_group(relative),
            download_bytes(path),
        ]
    if NOT_FOUND_PAGE not in files:
        raise OfflineError(f"the site has no {NOT_FOUND_PAGE}, the page shown for what is missing")
    return files


def _unused(site_dir: Path) -> Callable[[str], bool]:
    """Whether a file (path from the site root) is never fetched by a page."""
    index = site_dir / SEARCH_INDEX
    if not index.is_file():
        raise OfflineError(f"the site has no {SEARCH_INDEX}: offline search needs it")
    config = json.loads(index.read_text(encoding="utf-8")).get("config", {})
    english_only = config.get("lang") == ["en"]
    return lambda relative: bool(
        SOURCE_MAPS.search(relative) or (english_only and LUNR.search(relative))
    )


def page_url(relative: str) -> str:
    """The URL (relative to the site root) a file is requested by."""
    if relative == "index.html":
        return "./"
    if relative.endswith("/index.html"):
        return relative.removesuffix("index.html")
    return relative


def build_version(files: dict[str, list[object]]) -> str:
    """A hash of every file kept offline: a new value for any change."""
    listing = json.dumps(sorted(files.items()), separators=(",", ":"))
    return hashlib.sha256(listing.encode()).hexdigest()[:16]


def response_headers(url_path: str) -> dict[str, str]:
    """The headers a host should send for ``url_path`` beyond its defaults: security
    headers, and Cache-Control where serve.py sets more than revalidation."""
    headers = security.headers_for(url_path)
    control = cache_control(url_path)
    if control == CACHE_FOREVER or url_path == security.SERVICE_WORKER_PATH:
        headers["Cache-Control"] = control
    return headers


def host_headers(site_dir: Path) -> str:
    """The ``_headers`` file: for each header, the fewest non-overlapping path rules."""
    urls = [
        "/" + path.relative_to(site_dir).as_posix()
        for path in _site_files(site_dir)
        if not _is_sibling(path) and path.name != HEADERS_FILE
    ]
    per_url = {url: response_headers(url) for url in urls}
    names = dict.fromkeys(name for headers in per_url.values() for name in headers)
    rules: dict[str, dict[str, str]] = {}
    for name in names:
        values = {url: headers.get(name) for url, headers in per_url.items()}
        for pattern, value in _collapse(_tree(values), "/"):
            rules.setdefault(pattern, {})[name] = value
    lines = [
        "# Written by build_scripts/offline.py from build_scripts/security.py: the headers",
        "# `make serve` sends. No two rules set the same header for one path.",
    ]
    for pattern in sorted(rules, key=lambda p: (p != "/*", p)):
        lines.append(pattern)
        lines.extend(f"  {name}: {value}" for name, value in rules[pattern].items())
    return "\n".join(lines) + "\n"


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
            rules.append((prefix + name, child))
            if name == "index.html":
                rules.append((prefix, child))  # the folder URL serves the same file
    return rules


def _site_files(site_dir: Path) -> list[Path]:
    return sorted(
        path
        for path in site_dir.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(site_dir).parts)
    )


def main(argv: list[str] | None = None) -> int:
    """Run the step on a built site directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    args = parser.parse_args(argv)
    print(json.dumps(write_offline_files(args.site_dir), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
