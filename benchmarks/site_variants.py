"""Variants of a built site, to measure what one part of the engine is worth.

    .venv/bin/python -m benchmarks.site_variants SITE OUT VARIANT

VARIANT:

- ``search-at-once``: every page's Material configuration names Material's own search
  worker again, instead of ours that waits while the engine starts
  (build_scripts/pages/search_worker.py): what waiting is worth on the engine pages.
- ``share-small-modules``: the engine worker with the former patch of the global
  ``WebAssembly.Module`` (benchmarks/pages/share-small-modules.js: each of the ~260
  tiny modules Pyodide's linker compiles is compiled once per distinct byte string):
  what that patch was worth.
- ``compile-early``: the engine worker with the former patches of the global ``fetch``
  and ``WebAssembly.instantiateStreaming`` (benchmarks/pages/compile-early.js: the
  WebAssembly compiled from the worker's early download, the module handed to Pyodide):
  what those patches were worth.

Then measure side by side, interleaved::

    .venv/bin/python -m benchmarks.network --site site=SITE --site variant=OUT

The offline files are written again for the variant (its service worker lists its files).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

from build_scripts.bundle.manifest import MANIFEST_ELEMENT_ID, manifest_element
from build_scripts.pages.search_worker import imported_by_ours
from build_scripts.publish.code_folder import published_in
from build_scripts.publish.host_files import write_host_files
from build_scripts.publish.security import WORKER_SOURCE

ROOT = Path(__file__).resolve().parent.parent

# A page's Material configuration names our search worker:
# "search": ".../search-when-free.<hash>.js"
OUR_SEARCH_WORKER = re.compile(
    r'(?<="search": ")(?P<folder>[^"]*/workers/)search-when-free\.[0-9a-f]+\.js"'
)


def rewrite_manifest(site_dir: Path, manifest: dict[str, object], *, mark: str = "") -> int:
    """Write ``manifest`` as a built site's engine/manifest.json and into every page that
    carries one, with ``mark`` before their ``</head>``, and drop those pages' stale
    precompressed siblings; for benchmarks and tests that change a built site's engine
    (run ``build_scripts.publish.host_files.write_host_files`` afterwards). Returns how
    many pages changed."""
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


def with_search_at_once(site: Path) -> None:
    """Every page's configuration names Material's search worker instead of ours."""
    changed = 0
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        at_once = OUR_SEARCH_WORKER.sub(rf'\g<folder>{imported_by_ours()}"', text)
        if at_once != text:
            changed += 1
            page.write_text(at_once, encoding="utf-8")
    if not changed:
        raise SystemExit("search-at-once: no page names search-when-free.js any more")


def with_shared_small_modules(site: Path) -> None:
    """The engine worker runs the former WebAssembly.Module patch before anything else."""
    _patch_worker(site, "share-small-modules.js")


def with_early_compile(site: Path) -> None:
    """The engine worker runs the former fetch and instantiateStreaming patches first."""
    _patch_worker(site, "compile-early.js")


def _patch_worker(site: Path, patch_name: str) -> None:
    worker = site / published_in(site, WORKER_SOURCE)  # changed in place, for measuring only
    patch = (ROOT / "benchmarks" / "pages" / patch_name).read_text("utf-8")
    worker.write_text(patch + "\n" + worker.read_text("utf-8"), encoding="utf-8")


VARIANTS = {
    "search-at-once": with_search_at_once,
    "share-small-modules": with_shared_small_modules,
    "compile-early": with_early_compile,
}


def main(argv: list[str] | None = None) -> int:
    """Copy SITE to OUT and apply VARIANT."""
    site, out, variant = (argv if argv is not None else sys.argv[1:])[:3]
    shutil.copytree(site, out)
    VARIANTS[variant](Path(out))
    for stale in [*Path(out).rglob("*.html.*"), *Path(out).rglob("engine-worker.js.*")]:
        if stale.suffix in (".gz", ".br"):
            stale.unlink()  # remade from the changed pages
    write_host_files(Path(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
