"""Precompressed siblings of published files: ``X.br`` (brotli) and ``X.gz`` (gzip) next to
``X``, which build_scripts/serve.py sends by the request's ``Accept-Encoding`` (and static
hosts that serve precompressed files, e.g. nginx ``brotli_static``/``gzip_static`` or
Caddy ``precompressed br gzip``, likewise). Browsers decode either before any script
sees the bytes, so a host that sends plain gzip, or the file itself, still works.

Measured on the engine's files (bytes): WebAssembly 9,597,892 -> gzip 3,528,872 / brotli
2,739,076; pyodide.asm.mjs 1,250,259 -> 259,953 / 207,278; the engine's standard library
(stored zip) 3.2 MB -> 771 kB / 596 kB. Both are made once per content (cached by its sha256).
"""

from __future__ import annotations

import gzip
import hashlib
import tempfile
from pathlib import Path

import brotli

ENCODINGS = {"br": ".br", "gzip": ".gz"}  # Content-Encoding -> file suffix
BROTLI_QUALITY = 11  # the densest; made once per content, so the time does not matter


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
