"""Precompressed siblings of published files: ``X.br`` (brotli) and ``X.gz`` (gzip) next to
``X``, which build_scripts/tools/serve.py sends by the request's ``Accept-Encoding`` (and
static hosts that serve precompressed files, e.g. nginx ``brotli_static``/``gzip_static``
or Caddy ``precompressed br gzip``, likewise). Browsers decode either before any script
sees the bytes, so a host that sends plain gzip, or the file itself, still works.

The engine bundle (:mod:`build_scripts.bundle.engine`) writes its files' siblings with
:func:`write_siblings`; :func:`precompress`, a step of the host files, writes them for every
sizeable text file of the shell (pages, theme, search index): the service worker keeps
every page a visitor opens, and ``make serve`` sends these.

Measured on the engine's files (bytes): WebAssembly 9,597,892 -> gzip 3,528,872 / brotli
2,739,076; pyodide.asm.mjs 1,250,259 -> 259,953 / 207,278; the engine's standard library
(stored zip) 3.2 MB -> 771 kB / 596 kB. Both are made once per content (cached by its
sha256).
"""

from __future__ import annotations

import gzip
import hashlib
import tempfile
from pathlib import Path

import brotli

from build_scripts.publish.site_files import (
    ENGINE_DIR,
    HEADERS_FILE,
    SERVICE_WORKER,
    is_compressed_copy,
    site_files,
    unused,
)

ENCODINGS = {"br": ".br", "gzip": ".gz"}  # Content-Encoding -> file suffix
BROTLI_QUALITY = 11  # the densest; made once per content, so the time does not matter
TEXT_SUFFIXES = (".html", ".js", ".css", ".json", ".xml", ".svg", ".txt")
MIN_BYTES = 1024


def precompress(site_dir: Path) -> int:
    """Write ``X.br`` and ``X.gz`` next to each sizeable text file outside the engine, and
    remake any sibling that no longer matches its file; return how many were written."""
    count = 0
    never_fetched = unused(site_dir)
    for path in site_files(site_dir):
        relative = path.relative_to(site_dir).as_posix()
        if relative.startswith(ENGINE_DIR) or never_fetched(relative) or is_compressed_copy(path):
            continue  # the engine bundle compresses its own files
        if relative in (SERVICE_WORKER, HEADERS_FILE):
            continue  # written afterwards
        siblings = {e: path.with_name(path.name + suffix) for e, suffix in ENCODINGS.items()}
        if not any(s.exists() for s in siblings.values()) and (
            path.suffix not in TEXT_SUFFIXES or path.stat().st_size < MIN_BYTES
        ):
            continue
        data = path.read_bytes()
        for encoding, target in siblings.items():
            if target.exists() and decompress(target.read_bytes(), encoding) == data:
                continue  # up to date (MkDocs writes sitemap.xml.gz itself)
            target.write_bytes(compress(data, encoding))
            count += 1
    return count


def compress(data: bytes, encoding: str) -> bytes:
    """``data`` in one HTTP content coding (``br`` or ``gzip``), deterministically."""
    if encoding == "br":
        return brotli.compress(data, quality=BROTLI_QUALITY)
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    raise ValueError(f"unknown content coding {encoding!r}")


def decompress(data: bytes, encoding: str) -> bytes:
    """The bytes ``compress(…, encoding)`` was given."""
    if encoding == "br":
        return brotli.decompress(data)
    if encoding == "gzip":
        return gzip.decompress(data)
    raise ValueError(f"unknown content coding {encoding!r}")


def write_siblings(path: Path, cache_dir: Path | None = None) -> dict[str, int]:
    """Write ``path.br`` and ``path.gz``; return every encoding's size, ``identity`` too.

    With ``cache_dir``, each compressed form is kept there under the file's sha256.
    """
    data = path.read_bytes()
    sizes = {"identity": len(data)}
    digest = hashlib.sha256(data).hexdigest() if cache_dir else ""
    for encoding, suffix in ENCODINGS.items():
        cached = cache_dir / encoding / (digest + suffix) if cache_dir else None
        if cached is not None and cached.is_file():
            packed = cached.read_bytes()
        else:
            packed = compress(data, encoding)
            if cached is not None:
                write_atomic(cached, packed)
        path.with_name(path.name + suffix).write_bytes(packed)
        sizes[encoding] = len(packed)
    return sizes


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file (readable by any server)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as stream:
        stream.write(data)
    temporary = Path(stream.name)
    temporary.chmod(0o644)
    temporary.replace(target)
