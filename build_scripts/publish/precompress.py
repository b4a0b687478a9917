"""A precompressed ``X.gz`` beside every sizeable text file of the shell (pages, theme,
search index), as the engine bundle does for Pyodide: the service worker downloads
every page once, and ``make serve`` sends these."""

from __future__ import annotations

import gzip
from pathlib import Path

from build_scripts.publish.site_files import (
    ENGINE_DIR,
    HEADERS_FILE,
    SERVICE_WORKER,
    site_files,
    unused,
)

GZIP_SUFFIXES = (".html", ".js", ".css", ".json", ".xml", ".svg", ".txt")
GZIP_MIN_BYTES = 1024


def precompress(site_dir: Path) -> int:
    """Write ``X.gz`` next to each sizeable text file of the shell, and remake any ``.gz``
    sibling that no longer matches its file; return how many were written."""
    count = 0
    never_fetched = unused(site_dir)
    for path in site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative.startswith(ENGINE_DIR) or never_fetched(relative) or path.suffix == ".gz":
            continue  # the engine bundle compresses its own files
        if relative in (SERVICE_WORKER, HEADERS_FILE):
            continue  # written afterwards
        target = path.with_name(path.name + ".gz")
        if not target.exists() and (
            path.suffix not in GZIP_SUFFIXES or path.stat().st_size < GZIP_MIN_BYTES
        ):
            continue
        data = path.read_bytes()
        if target.exists() and gzip.decompress(target.read_bytes()) == data:
            continue  # up to date (MkDocs writes sitemap.xml.gz itself)
        target.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        count += 1
    return count
