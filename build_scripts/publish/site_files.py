"""The files of a built site, as the publish steps walk them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

SERVICE_WORKER = "sw.js"
HEADERS_FILE = "_headers"
NOT_FOUND_PAGE = "404.html"
# Files the engine worker loads: kept once a page that runs the engine loaded them.
ENGINE_DIR = "engine/"
SEARCH_INDEX = "search/search_index.json"
SITEMAP = "sitemap.xml"
# Precompressed siblings (build_scripts.publish.precompress): X.br and X.gz beside X.
COMPRESSED_SUFFIXES = (".br", ".gz")
# Never kept offline: source maps; lunr's language packs too while the search is English
# only (Material's search worker loads none for English).
SOURCE_MAPS = re.compile(r"\.map$")
LUNR = re.compile(r"^assets/javascripts/lunr/")


class SiteError(RuntimeError):
    """A built site that lacks what a publish step needs."""


def site_files(site_dir: Path) -> list[Path]:
    """Every file of the site, hidden ones left out, in a stable order."""
    return sorted(
        path
        for path in site_dir.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(site_dir).parts)
    )


def is_compressed_copy(path: Path) -> bool:
    """Whether ``path`` is the precompressed sibling of another file (``X.br`` or ``X.gz``
    of ``X``)."""
    return path.suffix in COMPRESSED_SUFFIXES and path.with_suffix("").exists()


def unused(site_dir: Path) -> Callable[[str], bool]:
    """Whether a file (path from the site root) is never fetched by a page."""
    index = site_dir / SEARCH_INDEX
    if not index.is_file():
        raise SiteError(f"the site has no {SEARCH_INDEX}: offline search needs it")
    config = json.loads(index.read_text(encoding="utf-8")).get("config", {})
    english_only = config.get("lang") == ["en"]
    return lambda relative: bool(
        SOURCE_MAPS.search(relative) or (english_only and LUNR.search(relative))
    )
