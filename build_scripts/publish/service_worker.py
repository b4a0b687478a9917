"""``sw.js`` at the site root, from the template ``sw.js`` beside this module: the list of
every file to keep offline (URL, sha256, size, group "shell" or "engine") and a version
that is a hash of that list, so any changed file makes a new service worker and a new
cache."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from build_scripts.publish.site_files import (
    ENGINE_DIR,
    HEADERS_FILE,
    NOT_FOUND_PAGE,
    SERVICE_WORKER,
    SiteError,
    is_compressed_copy,
    site_files,
    unused,
)

TEMPLATE = Path(__file__).resolve().parent / "sw.js"
# sha256, size, group ("shell" or "engine")
Entry = tuple[str, int, str]
BUILD_MARKER = "/* BUILD */ {}"


def write_service_worker(site_dir: Path) -> dict[str, Entry]:
    """Write ``sw.js`` (and its ``.gz``) for the site as it is; return its file list."""
    files = precache_list(site_dir)
    build = {"version": build_version(files), "notFound": NOT_FOUND_PAGE, "files": files}
    template = TEMPLATE.read_text(encoding="utf-8")
    if template.count(BUILD_MARKER) != 1:
        raise SiteError(f"{TEMPLATE} must contain {BUILD_MARKER!r} exactly once")
    script = template.replace(BUILD_MARKER, json.dumps(build, separators=(",", ":"))).encode()
    (site_dir / SERVICE_WORKER).write_bytes(script)
    # Browsers fetch it on every visit (a 304 when nothing changed): send it compressed.
    (site_dir / (SERVICE_WORKER + ".gz")).write_bytes(gzip.compress(script, mtime=0))
    return files


def precache_list(site_dir: Path) -> dict[str, Entry]:
    """Every file to keep offline: ``{url: [sha256, size, group]}``, URLs relative to the
    site root (``rules/2/5/`` for ``rules/2/5/index.html``, ``./`` for the home page)."""
    files: dict[str, Entry] = {}
    never_fetched = unused(site_dir)
    for path in site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative in (SERVICE_WORKER, HEADERS_FILE) or never_fetched(relative):
            continue
        if is_compressed_copy(path):
            continue  # the server sends it for the file itself
        data = path.read_bytes()
        group = "engine" if relative.startswith(ENGINE_DIR) else "shell"
        files[request_url(relative)] = (hashlib.sha256(data).hexdigest(), len(data), group)
    if NOT_FOUND_PAGE not in files:
        raise SiteError(f"the site has no {NOT_FOUND_PAGE}, the page shown for what is missing")
    return files


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
