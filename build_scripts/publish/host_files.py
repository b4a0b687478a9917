"""The last step of a build: the files a host serves beside the pages.

:func:`write_host_files` runs once every page, the engine and the PDFs are written
(``build_scripts.build_site``), and in this order:

1. precompressed ``.br`` and ``.gz`` beside each sizeable text file (:mod:`.precompress`);
2. ``sw.js``, the service worker that keeps the whole site for offline use
   (:mod:`.service_worker`); it lists every file, so it comes after all of them;
3. ``_headers`` for a static host (:mod:`.headers`).

The tests run it again after changing a built site, as a new build would.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from build_scripts.publish.headers import write_host_headers
from build_scripts.publish.precompress import precompress
from build_scripts.publish.service_worker import build_version, write_service_worker


@dataclass(frozen=True, kw_only=True, slots=True)
class HostFiles:
    """What the step wrote: the service worker's build version and what it may keep
    (bytes as files; ``download_bytes``: all of it as sent over the network)."""

    version: str
    compressed: int
    shell_bytes: int
    engine_bytes: int
    download_bytes: int


def write_host_files(site_dir: Path) -> HostFiles:
    """Precompressed copies, ``sw.js`` and ``_headers``; return a summary."""
    site_dir = Path(site_dir)
    compressed = precompress(site_dir)
    files = write_service_worker(site_dir)
    write_host_headers(site_dir)
    return HostFiles(
        version=build_version(files),
        compressed=compressed,
        shell_bytes=sum(size for _, size, group, _ in files.values() if group != "engine"),
        engine_bytes=sum(size for _, size, group, _ in files.values() if group == "engine"),
        download_bytes=sum(download for *_, download in files.values()),
    )
