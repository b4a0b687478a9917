"""The whole site, as a host would publish it: the one build `make site`, the tests and
the build benchmark all use. Each step runs once, in this order:

    .venv/bin/python -m build_scripts.build_site [SITE_DIR]     # default: site

1. `python -m mkdocs build --strict` (the hook generates every page, publishes the engine
   and gives the theme its Content-Security-Policy);
2. each edition's printable page printed to data/<edition>.pdf by Chromium, from the site
   served with the production headers, and each edition's chart as a one-page poster
   (data/<edition>-poster-a4.pdf, -a3.pdf); each answer of My division's page's picture
   and poster (lookup/<division>/preview.png, poster-a4.pdf);
3. the host files (precompressed copies, the service worker, which lists the PDFs too,
   and _headers).

Prints what MkDocs printed, then one line of timings. Exits non-zero if a step fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from build_scripts.publish.host_files import write_host_files
from build_scripts.publish.pdf import write_pdfs, write_posters
from build_scripts.publish.previews import write_previews
from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from build_scripts.tools.serve import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent


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
    print_pdfs(site_dir)
    printed = time.perf_counter()
    host = write_host_files(site_dir)
    done = time.perf_counter()
    print(
        f"LVL Rules host files: build {host.version}, {host.compressed} compressed, "
        f"shell {host.shell_bytes / 1e6:.1f} MB, engine {host.engine_bytes / 1e6:.1f} MB, "
        f"{host.download_bytes / 1e6:.1f} MB to download",
        flush=True,
    )
    return {
        "mkdocs": built - started,
        "pdf": printed - built,
        "host files": done - printed,
        "total": done - started,
    }


def print_pdfs(site_dir: Path) -> list[Path]:
    """Serve the built site and print each edition's PDF into it with Debian's Chromium."""
    from playwright.sync_api import sync_playwright

    server, base_url = start_server(site_dir)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS
            )
            try:
                return (
                    write_pdfs(site_dir, base_url, browser)
                    + write_posters(site_dir, browser)
                    + write_previews(site_dir, base_url, browser)
                )
            finally:
                browser.close()
    finally:
        stop_server(server)


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
