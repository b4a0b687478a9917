"""Third-party modules the pages import, published from their pinned npm packages
(package.json pins the version, package-lock.json the tarball's integrity) and checked
here against their sha256: the build refuses any other file. Each is published under a
name that carries its version, so that a page and the module it imports always match.

- qrcode-generator (MIT, Kazuhiko Arase): the match sheet's QR code of its replay link
  (docs/assets/app/sheet.js), made in the page since the link is the match's own.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
QR_VERSION = "2.0.4"
QR_SHA256 = "ea91d7118a5395289170da848b7c6758b996163bfbccf312591ab65a4911b7c0"
QR_SOURCE = ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs"
QR_MODULE = f"assets/vendor/qrcode-generator-{QR_VERSION}.mjs"


def add(files: Files, config: Any) -> None:
    """Publish each module, once its bytes are the ones pinned here."""
    if not QR_SOURCE.is_file():
        raise SystemExit(f"LVL Rules: {QR_SOURCE} is missing: run `npm ci` (make does)")
    content = QR_SOURCE.read_bytes()
    actual = hashlib.sha256(content).hexdigest()
    if actual != QR_SHA256:
        raise SystemExit(
            f"LVL Rules: {QR_SOURCE} has sha256 {actual}, not the pinned {QR_SHA256} "
            f"of qrcode-generator {QR_VERSION}: check package.json and package-lock.json"
        )
    files.append(File.generated(config, QR_MODULE, content=content))
