"""Publish the in-browser rules engine: Pyodide, the lvl_rules wheel and a memory snapshot.

:func:`build_bundle` runs in the MkDocs hook before any page is written (``npm ci`` has
run) and writes ``<site>/engine/``, which it owns entirely (it is emptied first)::

    engine/manifest.json                 what the engine worker loads, with sha256 and sizes
    engine/pyodide/<version>/            verified copies of the pinned Pyodide files,
                                         plus precompressed .gz siblings for the big ones
    engine/<lvl_rules wheel>             the wheel, installed by the worker after boot
    engine/snapshot-<hash>.bin.gz        Pyodide's memory with lvl_rules imported and both
                                         editions loaded (made by make_snapshot.mjs in Node)

Every Pyodide file is checked against ``pyodide-files.toml`` before it is copied; any
difference raises :class:`ChecksumError`. Expensive results (the snapshot, gzip output)
are cached under ``.cache/engine/`` keyed by the hashes of their inputs, so a rebuild
with nothing changed only hashes and copies files.

The pages that start the engine carry its manifest (:func:`manifest_element`).

Manual run: ``python -m build_scripts.bundle.engine SITE_DIR [WHEEL]``.
"""

from __future__ import annotations

import argparse
import gzip
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

from build_scripts.bundle.wheel import current_wheel

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PINS = HERE / "pyodide-files.toml"
SNAPSHOT_SCRIPT = HERE / "make_snapshot.mjs"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / ".cache" / "engine"

MANIFEST_FORMAT = 1
SNAPSHOT_FORMAT = 3  # bump to remake cached snapshots
PAGE_BYTES = 4096  # granularity of the zero pages dropped from the snapshot
# Published files worth a precompressed sibling (text or highly compressible binary).
GZIP_SUFFIXES = (".mjs", ".js", ".wasm", ".json")
GZIP_MIN_BYTES = 1024
SNAPSHOT_TIMEOUT_SECONDS = 300
# The id engine-client.js looks for.
MANIFEST_ELEMENT_ID = "lvl-engine-manifest"


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
    wheel_sha = sha256_file(wheel)

    engine = site_dir / "engine"
    if engine.exists():
        shutil.rmtree(engine)
    runtime_dir = engine / "pyodide" / version
    runtime_dir.mkdir(parents=True)
    published = []
    for name in pins["publish"]:
        _copy(pyodide_dir / name, runtime_dir / name)
        published.append(f"pyodide/{version}/{name}")
        if name.endswith(GZIP_SUFFIXES) and (pyodide_dir / name).stat().st_size >= GZIP_MIN_BYTES:
            _copy(
                _cached_gzip(pyodide_dir / name, hashes[name], cache_dir),
                runtime_dir / (name + ".gz"),
            )
            published.append(f"pyodide/{version}/{name}.gz")

    shutil.copyfile(wheel, engine / wheel.name)
    published.append(wheel.name)

    snapshot_key = _digest(
        SNAPSHOT_FORMAT,
        version,
        sorted(hashes.items()),
        _wheel_content_digest(wheel),
        sha256_file(SNAPSHOT_SCRIPT),
    )
    snapshot_gz, snapshot_info, cached = _cached_snapshot(
        snapshot_key, pyodide_dir, wheel, cache_dir
    )
    snapshot_sha = sha256_file(snapshot_gz)
    snapshot_name = f"snapshot-{snapshot_sha[:16]}.bin.gz"
    _copy(snapshot_gz, engine / snapshot_name)
    published.append(snapshot_name)

    lock_info = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    manifest = {
        "format": MANIFEST_FORMAT,
        "pyodide": {
            "version": version,
            "path": f"pyodide/{version}/",
            "lockfile": {"info": lock_info, "packages": {}},
        },
        "wheel": {
            "path": wheel.name,
            "sha256": wheel_sha,
            "size": wheel.stat().st_size,
        },
        "snapshot": {
            "path": snapshot_name,
            "sha256": snapshot_sha,
            "size": snapshot_gz.stat().st_size,
            "raw_size": snapshot_info["raw_size"],
            "packed_size": snapshot_info["packed_size"],
            "packed_sha256": snapshot_info["packed_sha256"],
            "segments": snapshot_info["segments"],
            "encoding": "gzip",
            "site_packages": snapshot_info["site_packages"],
            "python": snapshot_info["python"],
        },
    }
    _write_atomic(engine / "manifest.json", json.dumps(manifest, indent=2).encode() + b"\n")
    published.append("manifest.json")
    return {
        "engine_dir": str(engine),
        "manifest": manifest,
        "files": published,
        "snapshot_cached": cached,
        "seconds": round(time.perf_counter() - started, 3),
    }


def manifest_element(manifest: dict[str, object]) -> str:
    """The manifest as the JSON ``<script>`` element engine-client.js looks for.

    The pages that start the engine carry it (overrides/main.html, just before the
    client's script tag): the client sends it with the worker's start message at once,
    instead of after fetching manifest.json (which it still does where a page has none).
    Pages and engine files come from one build and are revalidated (or cached offline)
    together. Every "<" is escaped, so no text in it can end the element.
    """
    payload = json.dumps(manifest, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{MANIFEST_ELEMENT_ID}">{payload}</script>'


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def pack_memory(memory: bytes, page: int = PAGE_BYTES) -> tuple[bytes, list[list[int]]]:
    """Drop the all-zero pages of a memory image (half of a fresh Pyodide heap).

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


def _cached_gzip(source: Path, source_sha: str, cache_dir: Path) -> Path:
    target = cache_dir / "gzip" / f"{source_sha}.gz"
    if not target.is_file():
        _write_atomic(target, gzip.compress(source.read_bytes(), compresslevel=9, mtime=0))
    return target


def _cached_snapshot(
    key: str, pyodide_dir: Path, wheel: Path, cache_dir: Path
) -> tuple[Path, dict[str, Any], bool]:
    """The gzipped snapshot and its description, made only when the key is new."""
    folder = cache_dir / "snapshot" / key
    snapshot_gz, info_file = folder / "snapshot.bin.gz", folder / "snapshot.json"
    if snapshot_gz.is_file() and info_file.is_file():
        return snapshot_gz, json.loads(info_file.read_text(encoding="utf-8")), True
    node = shutil.which("node")
    if node is None:
        raise BundleError("`node` is not on PATH: the engine snapshot is made with Node.js")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        raw = Path(scratch) / "snapshot.bin"
        command = [
            node,
            str(SNAPSHOT_SCRIPT),
            "--pyodide",
            str(pyodide_dir),
            "--wheel",
            str(wheel),
            "--out",
            str(raw),
        ]
        try:
            done = subprocess.run(
                command,
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
        info = json.loads(Path(f"{raw}.json").read_text(encoding="utf-8"))
        packed, info["segments"] = pack_memory(raw.read_bytes())
        info["packed_size"] = len(packed)
        info["packed_sha256"] = hashlib.sha256(packed).hexdigest()
        _write_atomic(snapshot_gz, gzip.compress(packed, compresslevel=9, mtime=0))
    _write_atomic(info_file, json.dumps(info, indent=2).encode() + b"\n")
    return snapshot_gz, info, False


def _copy(source: Path, target: Path) -> None:
    """Hard-link when possible (cache and site on one disk), else copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    target.chmod(target.stat().st_mode | 0o444)  # readable by any web server


def _write_atomic(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as stream:
        stream.write(data)
    temporary = Path(stream.name)
    temporary.chmod(0o644)  # published files must be readable by any web server
    temporary.replace(target)


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def main(argv: list[str] | None = None) -> int:
    """Build ``SITE_DIR/engine/`` by hand and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("wheel", type=Path, nargs="?", help="default: the current dist/ wheel")
    args = parser.parse_args(argv)
    try:
        summary = build_bundle(args.site_dir, args.wheel or current_wheel())
    except BundleError as error:
        print(f"engine bundle: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
