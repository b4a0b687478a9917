"""How long from navigation to the first rendered answer: the engine vs bare Pyodide.

    .venv/bin/python benchmarks/pyodide_start.py [--runs 5] [--wheel dist/....whl]

Builds a scratch site (the engine bundle from build_scripts/pyodide_bundle.py, the engine
client from docs/assets/engine/, the pages in benchmarks/pages/), serves it with
build_scripts/serve.py (the site's CSP and caching headers) and drives headless Chromium.
Each run opens a fresh browser context (cold HTTP cache) and loads a page, then loads it
again in a new tab of the same context (repeat visit). Pages:

- bare:   loadPyodide() on the main thread, the wheel unpacked, lvl_rules imported, one
          eligibility request answered and rendered;
- engine: the engine client (worker + memory snapshot) answering the same request.

Prints every time, the medians and the ratio bare / engine. Exits non-zero if a page fails,
the CSP is violated or a request leaves the origin.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, ConsoleMessage, Request, sync_playwright  # noqa: E402

from build_scripts.pyodide_bundle import NODE_PYODIDE, build_bundle  # noqa: E402
from build_scripts.serve import start_server, stop_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE_TIMEOUT_MS = 60_000


def make_site(site: Path, wheel: Path) -> dict:
    """The scratch site: engine bundle, engine client, benchmark pages."""
    summary = build_bundle(site, wheel)
    shutil.copytree(ROOT / "docs" / "assets" / "engine", site / "assets" / "engine")
    shutil.copytree(ROOT / "benchmarks" / "pages", site / "bench")
    # Only the bare page needs Pyodide's own lock file (loadPyodide() fetches it).
    runtime = site / "engine" / summary["manifest"]["pyodide"]["path"]
    shutil.copyfile(NODE_PYODIDE / "pyodide-lock.json", runtime / "pyodide-lock.json")
    return summary


def page_urls(base: str, manifest: dict) -> dict[str, str]:
    """The two pages; the bare one is told where Pyodide and the wheel are."""
    query = urllib.parse.urlencode(
        {
            "pyodide": f"/engine/{manifest['pyodide']['path']}",
            "wheel": f"/engine/{manifest['wheel']['path']}",
        }
    )
    return {"bare": f"{base}bench/bare.html?{query}", "engine": f"{base}bench/engine.html"}


def visit(context: BrowserContext, url: str, problems: list[str]) -> dict:
    """Open url in a new tab, wait for the rendered answer, return the page's report."""
    page = context.new_page()
    origin = urllib.parse.urlsplit(url)[:2]

    def on_console(message: ConsoleMessage) -> None:
        text = message.text
        if message.type == "error" or "Content Security Policy" in text:
            problems.append(f"console {message.type}: {text}")

    def on_request(request: Request) -> None:
        if urllib.parse.urlsplit(request.url)[:2] != origin and not request.url.startswith(
            ("data:", "blob:")
        ):
            problems.append(f"request to another origin: {request.url}")

    page.on("console", on_console)
    page.on("request", on_request)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(url)
    page.wait_for_selector("body[data-done], body[data-error]", timeout=PAGE_TIMEOUT_MS)
    error = page.get_attribute("body", "data-error")
    if error:
        problems.append(f"{url}: {error}")
        report = {"ms": float("nan")}
    else:
        report = json.loads(page.get_attribute("body", "data-done"))
    page.close()
    return report


def run(base: str, manifest: dict, runs: int) -> tuple[dict[str, dict[str, list]], list[str]]:
    """Cold and repeat visits of each page, alternating, in fresh browser contexts."""
    urls = page_urls(base, manifest)
    times = {kind: {"cold": [], "repeat": []} for kind in urls}
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        for number in range(1, runs + 1):
            for kind, url in urls.items():
                context = browser.new_context()
                cold = visit(context, url, problems)
                repeat = visit(context, url, problems)
                context.close()
                times[kind]["cold"].append(cold["ms"])
                times[kind]["repeat"].append(repeat["ms"])
                detail = f"  worker stages {cold['timings']}" if "timings" in cold else ""
                print(
                    f"run {number} {kind:6} cold {cold['ms']:7.0f} ms  "
                    f"repeat {repeat['ms']:7.0f} ms{detail}",
                    flush=True,
                )
        browser.close()
    return times, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wheel", type=Path, help="default: the newest dist/lvl_rules-*.whl")
    args = parser.parse_args(argv)
    wheel = args.wheel or max(
        (ROOT / "dist").glob("lvl_rules-*.whl"), key=lambda p: p.stat().st_mtime, default=None
    )
    if wheel is None:
        print("no wheel in dist/: run `make wheel` first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="lvl-bench-") as scratch:
        site = Path(scratch)
        manifest = make_site(site, wheel)["manifest"]
        snapshot = manifest["snapshot"]
        print(
            f"pyodide {manifest['pyodide']['version']}; snapshot: memory "
            f"{snapshot['raw_size'] / 1e6:.1f} MB, without zero pages "
            f"{snapshot['packed_size'] / 1e6:.1f} MB, gzipped {snapshot['size'] / 1e6:.1f} MB; "
            f"{args.runs} runs"
        )
        server, base = start_server(site)
        try:
            times, problems = run(base, manifest, args.runs)
        finally:
            stop_server(server)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nmedians of {args.runs}, navigation -> first rendered answer (ms); load {load}:")
    print(f"{'':8}{'cold':>8}{'repeat':>8}")
    medians = {
        kind: {visit: statistics.median(values) for visit, values in by_visit.items()}
        for kind, by_visit in times.items()
    }
    for kind, by_visit in medians.items():
        print(f"{kind:8}{by_visit['cold']:8.0f}{by_visit['repeat']:8.0f}")
    for visit_kind in ("cold", "repeat"):
        ratio = medians["bare"][visit_kind] / medians["engine"][visit_kind]
        print(f"bare / engine, {visit_kind}: {ratio:.1f}x")
    for problem in dict.fromkeys(problems):
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
