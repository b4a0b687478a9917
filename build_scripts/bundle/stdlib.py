"""The engine's standard library: the part of Pyodide's ``python_stdlib.zip`` that the
rules engine's interpreter can still import.

Decided by measurement, at every build (``make_snapshot.mjs --list-stdlib``): Pyodide
boots on the whole library, installs the wheel, does everything the snapshot does
(``lvl_rules.load_all()`` and one request of each kind) and imports every module of the
wheel, the CLI included, so that a module lvl_rules imports only inside a function is
seen too. The files of the modules then loaded are kept (147 of 614 files for Pyodide
314.0.8 and lvl_rules 1.0.0; as sources, 3.0 MB uncompressed and 0.56 MB as brotli,
against 2.5 MB for the whole library, which is stored deflated and gains nothing from
compression).

Kept files are *stored*, not deflated: the HTTP content coding then compresses the whole
archive at once (brotli across files: 596 kB, against 817 kB for per-file deflate), and
zipimport reads them without inflating. The snapshot is made on this archive: a restored
interpreter's zipimport remembers where each file sits in the zip it was made with.

Everything a fresh interpreter needs to boot is kept, so Python started without the
snapshot works on this archive too. Published compiled: engine.py has Pyodide's own Python
turn each source into a sourceless .pyc (make_snapshot.mjs ``--compile-stdlib``), since
Pyodide's interpreter imports 145 of these modules at every start without the snapshot.
The 16 frozen modules (``os``, ``io``, ``site``, ``importlib._bootstrap``, ...) are left
out: the interpreter carries them in itself and never reads them from the zip (147 files
kept; 977 -> 877 kB as brotli).

An interpreter restored from the snapshot has imported nearly all of it already: a worker
that restores it gets only the rest, :func:`not_imported` (for Pyodide 314.0.8 and
lvl_rules 1.0.0, ``argparse`` and ``gettext``, which only the CLI imports: 44 kB as
brotli).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from pathlib import Path

FIXED_DATE = (2000, 1, 1, 0, 0, 0)  # the same bytes for the same files


class StdlibError(RuntimeError):
    """A file the interpreter used is not in Pyodide's standard library."""


def engine_stdlib(full_zip: Path, used: Iterable[str]) -> bytes:
    """A zip of the files ``used`` (names inside ``full_zip``), stored, in a fixed order."""
    wanted = sorted(set(used))
    buffer = io.BytesIO()
    with zipfile.ZipFile(full_zip) as source, zipfile.ZipFile(buffer, "w") as target:
        names = set(source.namelist())
        missing = [name for name in wanted if name not in names]
        if missing:
            raise StdlibError(f"not in {full_zip.name}: {', '.join(missing)}")
        for name in wanted:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            target.writestr(info, source.read(name))
    return buffer.getvalue()


def not_imported(compiled_zip: Path, imported: Iterable[str]) -> bytes:
    """A zip of the files of ``compiled_zip`` that are not in ``imported`` (the files of
    the modules a snapshot's interpreter has imported), stored, in the same order."""
    done = set(imported)
    buffer = io.BytesIO()
    with zipfile.ZipFile(compiled_zip) as source, zipfile.ZipFile(buffer, "w") as target:
        names = set(source.namelist())
        unknown = sorted(done - names)
        if unknown:
            raise StdlibError(f"imported, but not in {compiled_zip.name}: {', '.join(unknown)}")
        for info in source.infolist():
            if info.filename not in done:
                target.writestr(info, source.read(info))
    return buffer.getvalue()
