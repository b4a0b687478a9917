"""The site build's engine step: a fresh lvl_rules wheel, then the Pyodide bundle, whose
manifest then goes into each page that starts the engine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from build_scripts.pyodide_bundle import build_bundle

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
PACKAGE = ROOT / "lvl_rules"
# The id engine-client.js looks for.
MANIFEST_ELEMENT_ID = "lvl-engine-manifest"


def current_wheel() -> Path:
    """The wheel in dist/ for the package as it is now, rebuilt with `python -m build`
    when missing or when any packaged file differs from the source tree."""
    wheels = sorted(DIST.glob("lvl_rules-*-py3-none-any.whl"))
    if len(wheels) == 1 and _matches_source(wheels[0]):
        return wheels[0]
    for stale in wheels:
        stale.unlink()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(DIST),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = DIST.glob("lvl_rules-*-py3-none-any.whl")
    return wheel


def _matches_source(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        packaged = {n for n in archive.namelist() if n.startswith("lvl_rules/")}
        sources = {
            p.relative_to(ROOT).as_posix()
            for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        if packaged != sources:
            return False
        return all(archive.read(name) == (ROOT / name).read_bytes() for name in packaged)


def publish_engine(site_dir: Path) -> dict[str, object]:
    """Write <site>/engine/ (Pyodide, the wheel, the snapshot) and return its summary."""
    return build_bundle(site_dir, current_wheel())


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


def rewrite_manifest(site_dir: Path, manifest: dict[str, object], *, mark: str = "") -> int:
    """Write ``manifest`` as a built site's engine/manifest.json and into every page that
    carries one, with ``mark`` before their ``</head>``, and drop those pages' stale
    precompressed siblings; for benchmarks and tests that change a built site's engine
    (run the offline step afterwards). Returns how many pages changed."""
    site_dir = Path(site_dir)
    (site_dir / "engine" / "manifest.json").write_text(
        json.dumps(manifest, indent=2) + "\n", encoding="utf-8"
    )
    element = re.compile(
        rf'<script type="application/json" id="{MANIFEST_ELEMENT_ID}">.*?</script>', re.S
    )
    changed = 0
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if MANIFEST_ELEMENT_ID not in text:
            continue
        text = element.sub(lambda _: manifest_element(manifest), text)
        page.write_text(text.replace("</head>", mark + "</head>", 1), encoding="utf-8")
        for suffix in (".gz", ".br"):
            page.with_name(page.name + suffix).unlink(missing_ok=True)
        changed += 1
    return changed
