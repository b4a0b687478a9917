"""The whole site, as a host would publish it: the one build `make site`, the tests and
the build benchmark all use.

    .venv/bin/python -m build_scripts.build_site [SITE_DIR]     # default: site

1. `mkdocs build --strict` (the hook generates every page and publishes the engine);
2. each edition's printable page printed to data/<edition>.pdf by Chromium;
3. the offline files again (CSP meta, precompressed copies, service worker, _headers),
   so the service worker's list includes the PDFs.

Prints what MkDocs printed, then one line of timings. Exits non-zero if a step fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from build_scripts.offline import write_offline_files  # noqa: E402
from build_scripts.print_pdf import write_pdfs  # noqa: E402


def build_site(site_dir: Path) -> dict[str, float]:
    """Build into ``site_dir``; return the seconds each step took."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=True,
    )
    built = time.perf_counter()
    write_pdfs(site_dir)
    printed = time.perf_counter()
    write_offline_files(site_dir)
    done = time.perf_counter()
    return {
        "mkdocs": built - started,
        "pdf": printed - built,
        "offline": done - printed,
        "total": done - started,
    }


def main(argv: list[str] | None = None) -> int:
    """Build the site folder named on the command line."""
    args = sys.argv[1:] if argv is None else argv
    site_dir = Path(args[0] if args else ROOT / "site").resolve()
    try:
        seconds = build_site(site_dir)
    except subprocess.CalledProcessError as error:
        print(f"build_site: mkdocs build failed ({error.returncode})", file=sys.stderr)
        return 1
    print(
        "LVL Rules site build: "
        + ", ".join(f"{step} {value:.2f}s" for step, value in seconds.items()),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
