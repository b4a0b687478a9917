"""Publish the in-browser rules engine: Pyodide, the engine's standard library and the
lvl_rules wheel.

:func:`build_bundle` runs in the MkDocs hook before any page is written (``npm ci`` has
run) and writes ``<site>/engine/``, which it owns entirely (it is emptied first). Every
file is addressed by its content (a pinned Pyodide version, or a hash in the name), so a
page and the engine files it names always come from one build::

    engine/manifest.json             what the engine worker loads: sha256 and sizes of each
    engine/pyodide/<version>/        verified copies of the pinned Pyodide files
    engine/stdlib-<hash>.zip         the engine's standard library, compiled (make_stdlib.mjs)
    engine/wheels/<hash>/<wheel>     lvl_rules, installed by Pyodide's public loadPackage()
                                     from the manifest's lock file entry

Each file has ``.br`` and ``.gz`` siblings (build_scripts.publish.precompress), and the
manifest gives its size in each encoding, for the progress a person sees. Every Pyodide
file is checked against ``pyodide-files.toml`` first (:class:`ChecksumError`). The
library is made once for its inputs, under ``.cache/engine/``. What pyodide-build would
do, and why it does not here: README.md, "What pyodide-build does".
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

from build_scripts.bundle.manifest import lock_entry
from build_scripts.publish.precompress import write_atomic, write_siblings

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PINS = HERE / "pyodide-files.toml"
MAKER = HERE / "make_stdlib.mjs"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / ".cache" / "engine"

MANIFEST_FORMAT = 4  # engine-worker.js reads this format only
NODE_TIMEOUT_SECONDS = 300
PACKAGE = "lvl-rules"  # the wheel's name in the lock file


class BundleError(RuntimeError):
    """The engine bundle cannot be built (missing input, failed standard library)."""


class ChecksumError(BundleError):
    """A Pyodide file differs from the sha256 pinned in pyodide-files.toml."""


def build_bundle(
    site_dir: Path, wheel: Path, *, pyodide_dir: Path = NODE_PYODIDE, cache_dir: Path = CACHE
) -> dict[str, Any]:
    """Write ``<site_dir>/engine/`` and return a summary (manifest, files, timings)."""
    started = time.perf_counter()
    site_dir, wheel = Path(site_dir), Path(wheel)
    pins = tomllib.loads(PINS.read_text(encoding="utf-8"))
    hashes = _verify_pyodide(pyodide_dir, pins)
    if not wheel.is_file():
        raise BundleError(f"wheel {wheel} does not exist")
    engine = site_dir / "engine"
    shutil.rmtree(engine, ignore_errors=True)
    engine.mkdir(parents=True)

    def publish(source: Path, relative: str) -> dict[str, Any]:
        target = engine / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)  # the cache and the site on one disk
        except OSError:
            shutil.copyfile(source, target)
        target.chmod(target.stat().st_mode | 0o444)  # readable by any web server
        sizes = write_siblings(target, cache_dir / "compressed")
        return {"path": relative, "sha256": sha256_file(target), "sizes": sizes}

    runtime = f"pyodide/{pins['version']}/"
    published_runtime = [publish(pyodide_dir / name, runtime + name) for name in pins["publish"]]
    key = _digest(pins["version"], hashes, _wheel_digest(wheel), sha256_file(MAKER))
    stdlib_file = cache_dir / "stdlib" / f"{key}.zip"
    cached = stdlib_file.is_file()
    _make(stdlib_file, ["--pyodide", str(pyodide_dir), "--wheel", str(wheel), "--stdlib-out"])
    wheel_sha = sha256_file(wheel)
    published_wheel = publish(wheel, f"wheels/{wheel_sha[:16]}/{wheel.name}")
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    manifest = {
        "format": MANIFEST_FORMAT,
        "pyodide": {
            "version": pins["version"],
            "path": runtime,
            "lockfile": {
                "info": lock["info"],
                "packages": {PACKAGE: lock_entry(wheel, published_wheel["path"], wheel_sha)},
            },
        },
        "runtime": published_runtime,
        "stdlib": publish(stdlib_file, f"stdlib-{sha256_file(stdlib_file)[:16]}.zip"),
        "wheel": published_wheel,
    }
    write_atomic(engine / "manifest.json", json.dumps(manifest, indent=2).encode() + b"\n")
    return {
        "engine_dir": str(engine),
        "manifest": manifest,
        "stdlib_cached": cached,
        "seconds": round(time.perf_counter() - started, 3),
    }


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _verify_pyodide(pyodide_dir: Path, pins: dict[str, Any]) -> dict[str, str]:
    """Check the npm package's version and every pinned file; return name -> sha256."""
    package_json = pyodide_dir / "package.json"
    if not package_json.is_file():
        raise BundleError(f"{pyodide_dir} has no package.json; run `npm ci` first")
    installed = json.loads(package_json.read_text(encoding="utf-8")).get("version")
    if installed != pins["version"]:
        raise BundleError(f"{pyodide_dir} holds pyodide {installed}, not {pins['version']}")
    hashes = {}
    for name, expected in {**pins["publish"], **pins["build"]}.items():
        path = pyodide_dir / name
        if not path.is_file():
            raise BundleError(f"{path} is missing; run `npm ci`")
        hashes[name] = sha256_file(path)
        if hashes[name] != expected:
            raise ChecksumError(f"{path}: sha256 {hashes[name]} is not {expected} ({PINS.name})")
    return hashes


def _wheel_digest(wheel: Path) -> str:
    """A digest of the wheel's member names and bytes, blind to zip timestamps."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            digest.update(info.filename.encode() + b"\0")
            digest.update(hashlib.sha256(archive.read(info)).digest())
    return digest.hexdigest()


def _make(target: Path, arguments: list[str]) -> None:
    """Unless ``target`` exists, run make_stdlib.mjs to write it (its last argument)."""
    if target.is_file():
        return
    node = shutil.which("node")
    if node is None:
        raise BundleError("`node` is not on PATH: the engine's library is made with Node.js")
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(target.name + ".part")
    try:
        done = subprocess.run(
            [node, str(MAKER), *arguments, str(scratch)],
            capture_output=True,
            text=True,
            timeout=NODE_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise BundleError(f"make_stdlib.mjs took over {error.timeout} s") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout)[-4000:]
        raise BundleError(f"make_stdlib.mjs failed (exit {done.returncode}):\n{tail}")
    scratch.replace(target)


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]
