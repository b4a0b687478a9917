"""Publish the in-browser rules engine: Pyodide, the lvl_rules wheel and a memory snapshot.

:func:`build_bundle` runs in the MkDocs hook before any page is written (``npm ci`` has
run) and writes ``<site>/engine/``, which it owns entirely (it is emptied first). Every file a
page's manifest names is addressed by its content, so a page and the engine files it
names always come from one build (a pinned Pyodide version, or a hash in the name)::

    engine/manifest.json                 what the engine worker loads, with sha256 and sizes
    engine/pyodide/<version>/            verified copies of the pinned Pyodide files
    engine/stdlib-<hash>.zip             the engine's standard library (stdlib.py), compiled
    engine/wheels/<hash>/<wheel>         the lvl_rules wheel, installed by Pyodide's public
                                         loadPackage() from the manifest's lock file entry
    engine/snapshot-<hash>.bin           Pyodide's memory with lvl_rules imported and both
                                         editions loaded (made by make_snapshot.mjs in Node,
                                         on the same stdlib), its static data XORed with the
                                         WebAssembly's, without its all-zero pages
    engine/stdlib-<hash>.zip             (a second one) the part of the engine's standard
                                         library the snapshot has not imported: what a
                                         worker that restores it is given

Every large file has ``.br`` and ``.gz`` siblings (build_scripts.publish.precompress) and
the manifest gives each file's size in each encoding, for the progress a person sees.

Every Pyodide file is checked against ``pyodide-files.toml`` before it is copied; any
difference raises :class:`ChecksumError`. Expensive results (the snapshot, the stdlib list,
compressed copies) are cached under ``.cache/engine/`` keyed by the hashes of their
inputs, so a rebuild with nothing changed only hashes and copies files.

Why not pyodide-build: ``pyodide build`` downloads a cross-build environment (impossible
offline) and is for compiled packages; ``pyodide py-compile`` compiles for the host's
Python (3.11 here; Pyodide runs 3.14), so the standard library is compiled by Pyodide's
own Python under Node instead (make_snapshot.mjs ``--compile-stdlib``). Its ``pyodide
lockfile add-wheels`` works offline, but needs Python 3.12+, and the build runs on
Debian's 3.11: :func:`lock_entry` writes the same entry it writes for our wheel (the
fields and values of its output, checked by a test), which Pyodide's public
``loadPackage`` installs and checks against sha256.

The pages that start the engine carry its manifest (:mod:`.manifest`).

Manual run: ``python -m build_scripts.bundle.engine SITE_DIR [WHEEL]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

from build_scripts.bundle.manifest import lock_entry
from build_scripts.bundle.stdlib import engine_stdlib, not_imported
from build_scripts.bundle.wheel import browser_wheel
from build_scripts.publish.precompress import write_atomic, write_siblings

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PINS = HERE / "pyodide-files.toml"
SNAPSHOT_SCRIPT = HERE / "make_snapshot.mjs"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / ".cache" / "engine"

MANIFEST_FORMAT = 3
SNAPSHOT_FORMAT = 5  # bump to remake cached snapshots
PAGE_BYTES = 4096  # granularity of the zero pages dropped from the snapshot
# Published files worth precompressed siblings (text or highly compressible binary).
COMPRESSIBLE = (".mjs", ".js", ".wasm", ".json", ".zip", ".bin")
COMPRESS_MIN_BYTES = 1024
SNAPSHOT_TIMEOUT_SECONDS = 300
STDLIB = "python_stdlib.zip"
SNAPSHOT_STDLIB = "stdlib.zip"  # beside the cached snapshot: the library it has not imported
PACKAGE = "lvl-rules"  # the wheel's name in the lock file


class BundleError(RuntimeError):
    """The engine bundle cannot be built (missing input, failed snapshot)."""


class ChecksumError(BundleError):
    """A Pyodide file differs from the sha256 pinned in pyodide-files.toml."""


def build_bundle(
    site_dir: Path,
    wheel: Path,
    *,
    pyodide_dir: Path = NODE_PYODIDE,
    cache_dir: Path = CACHE,
) -> dict[str, Any]:
    """Write ``<site_dir>/engine/`` and return a summary (manifest, files, timings).

    Raises :class:`ChecksumError` when a Pyodide file does not match its pinned hash and
    :class:`BundleError` for any other missing or broken input.
    """
    started = time.perf_counter()
    site_dir, wheel = Path(site_dir), Path(wheel)
    pins = _read_pins()
    version = pins["version"]
    hashes = _verify_pyodide(pyodide_dir, pins)
    if not wheel.is_file():
        raise BundleError(f"wheel {wheel} does not exist")

    engine = site_dir / "engine"
    if engine.exists():
        shutil.rmtree(engine)
    engine.mkdir(parents=True)
    files: dict[str, dict[str, Any]] = {}

    def publish(source: Path, relative: str) -> dict[str, Any]:
        target = engine / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy(source, target)
        entry: dict[str, Any] = {"path": relative, "sha256": sha256_file(target)}
        if target.suffix in COMPRESSIBLE and target.stat().st_size >= COMPRESS_MIN_BYTES:
            entry["sizes"] = write_siblings(target, cache_dir / "compressed")
        else:
            entry["sizes"] = {"identity": target.stat().st_size}
        files[relative] = entry
        return entry

    runtime = f"pyodide/{version}/"
    for name in pins["publish"]:
        publish(pyodide_dir / name, runtime + name)

    wheel_key = _wheel_content_digest(wheel)
    used = _cached_stdlib_list(
        _digest(version, sorted(hashes.items()), wheel_key, sha256_file(SNAPSHOT_SCRIPT)),
        pyodide_dir,
        wheel,
        cache_dir,
    )
    sources = engine_stdlib(pyodide_dir / STDLIB, used)
    stdlib_file = _cached_compiled_stdlib(
        _digest(
            version,
            sorted(hashes.items()),
            hashlib.sha256(sources).hexdigest(),
            sha256_file(SNAPSHOT_SCRIPT),
        ),
        pyodide_dir,
        sources,
        cache_dir,
    )
    stdlib_sha = sha256_file(stdlib_file)
    stdlib = publish(stdlib_file, f"stdlib-{stdlib_sha[:16]}.zip")

    wheel_sha = sha256_file(wheel)
    published_wheel = publish(wheel, f"wheels/{wheel_sha[:16]}/{wheel.name}")

    snapshot_key = _digest(
        SNAPSHOT_FORMAT,
        version,
        sorted(hashes.items()),
        wheel_key,
        stdlib_sha,
        sha256_file(SNAPSHOT_SCRIPT),
    )
    packed_file, snapshot_info, cached = _cached_snapshot(
        snapshot_key, pyodide_dir, wheel, stdlib_file, cache_dir
    )
    packed_sha = sha256_file(packed_file)
    snapshot = publish(packed_file, f"snapshot-{packed_sha[:16]}.bin")
    snapshot_stdlib_file = packed_file.with_name(SNAPSHOT_STDLIB)
    snapshot_stdlib = publish(
        snapshot_stdlib_file, f"stdlib-{sha256_file(snapshot_stdlib_file)[:16]}.zip"
    )

    lock_info = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    manifest = {
        "format": MANIFEST_FORMAT,
        "pyodide": {
            "version": version,
            "path": runtime,
            "lockfile": {
                "info": lock_info,
                "packages": {PACKAGE: lock_entry(wheel, published_wheel["path"], wheel_sha)},
            },
        },
        "stdlib": stdlib,
        "wheel": published_wheel,
        "snapshot": {
            **snapshot,
            "raw_size": snapshot_info["raw_size"],
            "memory_offset": snapshot_info["memory_offset"],
            "segments": snapshot_info["segments"],
            "stdlib": snapshot_stdlib,
            "site_packages": snapshot_info["site_packages"],
            "python": snapshot_info["python"],
        },
        "runtime": [files[runtime + name] for name in pins["publish"]],
    }
    write_atomic(engine / "manifest.json", json.dumps(manifest, indent=2).encode() + b"\n")
    return {
        "engine_dir": str(engine),
        "manifest": manifest,
        "files": [*files, "manifest.json"],
        "snapshot_cached": cached,
        "seconds": round(time.perf_counter() - started, 3),
    }


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def pack_memory(memory: bytes, page: int = PAGE_BYTES) -> tuple[bytes, list[list[int]]]:
    """Drop the all-zero pages of a memory image (half of a fresh Pyodide heap, and most
    of its static data once make_snapshot.mjs has XORed it with the WebAssembly's).

    Returns the remaining bytes, concatenated, and ``[offset, length]`` of each run of
    kept pages; the worker writes the runs into a zero-filled buffer of the full size.
    """
    view = memoryview(memory)
    zero = bytes(page)
    segments: list[list[int]] = []
    for offset in range(0, len(memory), page):
        if view[offset : offset + page] == zero[: len(view[offset : offset + page])]:
            continue
        length = min(page, len(memory) - offset)
        if segments and segments[-1][0] + segments[-1][1] == offset:
            segments[-1][1] += length
        else:
            segments.append([offset, length])
    packed = b"".join(view[start : start + length] for start, length in segments)
    return packed, segments


def _read_pins() -> dict[str, Any]:
    pins = tomllib.loads(PINS.read_text(encoding="utf-8"))
    for key in ("version", "publish", "build"):
        if key not in pins:
            raise BundleError(f"{PINS.name}: key '{key}' is missing")
    return pins


def _verify_pyodide(pyodide_dir: Path, pins: dict[str, Any]) -> dict[str, str]:
    """Check the npm package's version and every pinned file; return name -> sha256."""
    package_json = pyodide_dir / "package.json"
    if not package_json.is_file():
        raise BundleError(f"{pyodide_dir} has no package.json; run `npm ci` first")
    installed = json.loads(package_json.read_text(encoding="utf-8")).get("version")
    if installed != pins["version"]:
        raise BundleError(
            f"{pyodide_dir} holds pyodide {installed}, but {PINS.name} pins "
            f"{pins['version']}; run `npm ci`"
        )
    hashes = {}
    for name, expected in {**pins["publish"], **pins["build"]}.items():
        path = pyodide_dir / name
        if not path.is_file():
            raise BundleError(f"{path} is missing; run `npm ci`")
        actual = sha256_file(path)
        if actual != expected:
            raise ChecksumError(
                f"{path}: sha256 {actual} differs from {expected} pinned in {PINS.name}"
            )
        hashes[name] = actual
    return hashes


def _wheel_content_digest(wheel: Path) -> str:
    """A digest of the wheel's member names and bytes, blind to zip timestamps."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            digest.update(info.filename.encode() + b"\0")
            digest.update(hashlib.sha256(archive.read(info)).digest())
    return digest.hexdigest()


def _node(arguments: list[str]) -> None:
    """Run make_snapshot.mjs with ``arguments``; raise BundleError if it fails."""
    node = shutil.which("node")
    if node is None:
        raise BundleError("`node` is not on PATH: the engine snapshot is made with Node.js")
    try:
        done = subprocess.run(
            [node, str(SNAPSHOT_SCRIPT), *arguments],
            capture_output=True,
            text=True,
            timeout=SNAPSHOT_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise BundleError(f"make_snapshot.mjs took over {error.timeout} s") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout)[-4000:]
        raise BundleError(f"make_snapshot.mjs failed (exit {done.returncode}):\n{tail}")


def _cached_stdlib_list(key: str, pyodide_dir: Path, wheel: Path, cache_dir: Path) -> list[str]:
    """The standard library files the engine's interpreter uses (stdlib.py)."""
    target = cache_dir / "stdlib-list" / f"{key}.json"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            listing = Path(scratch) / "used.json"
            _node(
                [
                    "--pyodide",
                    str(pyodide_dir),
                    "--wheel",
                    str(wheel),
                    "--list-stdlib",
                    str(listing),
                ]
            )
            write_atomic(target, listing.read_bytes())
    return json.loads(target.read_text(encoding="utf-8"))


def _cached_compiled_stdlib(key: str, pyodide_dir: Path, sources: bytes, cache_dir: Path) -> Path:
    """The engine's standard library compiled by Pyodide's own Python (make_snapshot.mjs
    --compile-stdlib): its zip of sourceless .pyc files, made only when the key is new."""
    target = cache_dir / "stdlib" / f"{key}.zip"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            source_zip, compiled = Path(scratch) / "sources.zip", Path(scratch) / "compiled.zip"
            source_zip.write_bytes(sources)
            _node(
                [
                    "--pyodide",
                    str(pyodide_dir),
                    "--stdlib",
                    str(source_zip),
                    "--compile-stdlib",
                    str(compiled),
                ]
            )
            write_atomic(target, compiled.read_bytes())
    return target


def _cached_snapshot(
    key: str, pyodide_dir: Path, wheel: Path, stdlib: Path, cache_dir: Path
) -> tuple[Path, dict[str, Any], bool]:
    """The packed snapshot and its description, made only when the key is new, with the
    part of ``stdlib`` its interpreter has not imported beside it (SNAPSHOT_STDLIB)."""
    folder = cache_dir / "snapshot" / key
    packed_file, info_file = folder / "snapshot.bin", folder / "snapshot.json"
    rest_file = folder / SNAPSHOT_STDLIB
    if packed_file.is_file() and info_file.is_file() and rest_file.is_file():
        return packed_file, json.loads(info_file.read_text(encoding="utf-8")), True
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        raw = Path(scratch) / "snapshot.bin"
        _node(
            [
                "--pyodide",
                str(pyodide_dir),
                "--wheel",
                str(wheel),
                "--stdlib",
                str(stdlib),
                "--out",
                str(raw),
            ]
        )
        info = json.loads(Path(f"{raw}.json").read_text(encoding="utf-8"))
        packed, info["segments"] = pack_memory(raw.read_bytes())
        write_atomic(packed_file, packed)
        write_atomic(rest_file, not_imported(stdlib, info["imported_stdlib"]))
    write_atomic(info_file, json.dumps(info, indent=2).encode() + b"\n")
    return packed_file, info, False


def _copy(source: Path, target: Path) -> None:
    """Hard-link when possible (cache and site on one disk), else copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    target.chmod(target.stat().st_mode | 0o444)  # readable by any web server


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def main(argv: list[str] | None = None) -> int:
    """Build ``SITE_DIR/engine/`` by hand and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("wheel", type=Path, nargs="?", help="default: the browser's wheel")
    args = parser.parse_args(argv)
    try:
        summary = build_bundle(args.site_dir, args.wheel or browser_wheel())
    except BundleError as error:
        print(f"engine bundle: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
