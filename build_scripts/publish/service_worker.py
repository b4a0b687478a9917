"""``sw.js`` at the site root, from the template ``sw.js`` beside this module: the list of
every file that may be kept offline (URL, sha256, size, group, download bytes) and a
version that is a hash of that list, so any changed file makes a new service worker and
a new cache.

Groups say when a file is kept (see sw.js): "core" (the theme, the 404 page, the search
index and the sitemap, which every page uses) after the first page, "engine" once a
calculator page loaded it, everything else ("page", "print", "data", "other": an app's
own modules among them) when visited, or all at once when the reader asks to keep
everything.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from build_scripts.pages.division_pages import FOLDER as DIVISIONS
from build_scripts.publish.code_folder import source_of
from build_scripts.publish.precompress import write_siblings
from build_scripts.publish.site_files import (
    COMPRESSED_SUFFIXES,
    ENGINE_DIR,
    HEADERS_FILE,
    NOT_FOUND_PAGE,
    SEARCH_INDEX,
    SERVICE_WORKER,
    SITEMAP,
    SiteError,
    is_compressed_copy,
    site_files,
    unused,
)

TEMPLATE = Path(__file__).resolve().parent / "sw.js"
LOOKUP_PAGE = DIVISIONS + "index.html"  # My division itself
# sha256, size, group (one of GROUPS), download bytes
Entry = tuple[str, int, str, int]
GROUPS = ("core", "page", "print", "data", "other", "engine")
BUILD_MARKER = "/* BUILD */ {}"


def write_service_worker(site_dir: Path) -> dict[str, Entry]:
    """Write ``sw.js`` (and its precompressed siblings) for the site as it is; return its
    file list."""
    files = precache_list(site_dir)
    build = {"version": build_version(files), "notFound": NOT_FOUND_PAGE, "files": files}
    template = TEMPLATE.read_text(encoding="utf-8")
    if template.count(BUILD_MARKER) != 1:
        raise SiteError(f"{TEMPLATE} must contain {BUILD_MARKER!r} exactly once")
    script = template.replace(BUILD_MARKER, json.dumps(build, separators=(",", ":"))).encode()
    (site_dir / SERVICE_WORKER).write_bytes(script)
    # Browsers fetch it on every visit (a 304 when nothing changed): send it compressed.
    write_siblings(site_dir / SERVICE_WORKER)
    return files


def precache_list(site_dir: Path) -> dict[str, Entry]:
    """Every file that may be kept offline: ``{url: (sha256, size, group, download)}``, URLs
    relative to the site root (``rules/2/5/`` for ``rules/2/5/index.html``, ``./`` for the
    home page); ``download``: the bytes it costs over the network."""
    files: dict[str, Entry] = {}
    never_fetched = unused(site_dir)
    for path in site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative in (SERVICE_WORKER, HEADERS_FILE) or never_fetched(relative):
            continue
        if answer_address(relative):
            continue
        if is_compressed_copy(path):
            continue  # the server sends it for the file itself
        data = path.read_bytes()
        files[request_url(relative)] = (
            hashlib.sha256(data).hexdigest(),
            len(data),
            file_group(relative),
            download_bytes(path),
        )
    if NOT_FOUND_PAGE not in files:
        raise SiteError(f"the site has no {NOT_FOUND_PAGE}, the page shown for what is missing")
    return files


def answer_address(relative: str) -> bool:
    """Whether a file belongs to an answer's own address (/lookup/<division>/: its page,
    link preview picture and poster, 3.9 MB for the 42 answers): for link previews and a
    shared link's first visit, which moves on to My division; never kept offline, not
    even when the visitor keeps the whole site (My division answers every one of them)."""
    return relative.startswith(DIVISIONS) and relative != LOOKUP_PAGE


# The modules every page runs (mkdocs.yml's extra_javascript, and page-life.js, which
# main.js imports: the reload into a new build is every page's); the other modules of an app,
# of the engine's client and of a third party are an app's own: kept once a page has
# loaded them, as a page is, never ahead (My division fetched the calculator's and the
# engine's 15 kB of scripts this way for a visit that may never come). By their paths
# under docs/: the build publishes them in its code folder (code_folder.py).
EVERY_PAGE_MODULES = ("assets/app/main.js", "assets/app/offline.js", "assets/app/page-life.js")
APP_MODULES = ("assets/app/", "assets/engine/", "assets/vendor/")


def file_group(relative: str) -> str:
    """When the service worker keeps a file (see sw.js)."""
    if relative.startswith(ENGINE_DIR):
        return "engine"
    source = source_of(relative) or relative
    if source.startswith(APP_MODULES) and source not in EVERY_PAGE_MODULES:
        return "other"
    if relative in (NOT_FOUND_PAGE, SEARCH_INDEX, SITEMAP) or relative.startswith("assets/"):
        return "core"  # every page uses them (Material reads the sitemap and the index)
    if "/print/" in f"/{relative}" or relative.endswith(".pdf"):
        return "print"
    if relative.endswith(".html"):
        return "page"
    if relative.startswith("data/"):
        return "data"
    return "other"


def download_bytes(path: Path) -> int:
    """What a file costs to download: its smallest precompressed sibling, else itself."""
    sizes = [path.stat().st_size]
    sizes += [
        sibling.stat().st_size
        for suffix in COMPRESSED_SUFFIXES
        if (sibling := path.with_name(path.name + suffix)).exists()
    ]
    return min(sizes)


def request_url(relative: str) -> str:
    """The URL (relative to the site root) a built file is requested by."""
    if relative == "index.html":
        return "./"
    if relative.endswith("/index.html"):
        return relative.removesuffix("index.html")
    return relative


def build_version(files: dict[str, Entry]) -> str:
    """A hash of every file kept offline: a new value for any change."""
    listing = json.dumps(sorted(files.items()), separators=(",", ":"))
    return hashlib.sha256(listing.encode()).hexdigest()[:16]
