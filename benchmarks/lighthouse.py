"""Lighthouse scores and page weight for each kind of page, served like production.

    .venv/bin/python -m benchmarks.lighthouse [--runs 3] [--site site] [--only home,chart]

Serves the built site (``make site``) with Caddy (build_scripts/tools/serve.py: the
production headers: CSP, precompressed files where they exist) and runs the pinned Lighthouse
(npm devDependency) with Debian's Chromium, mobile preset (Lighthouse's default:
a mid-range phone, simulated slow 4G), ``--runs`` times per page type. Prints the
median of each figure: the four category scores, and the bytes transferred, in all,
by resource type, and the engine's share (Pyodide, its library, the wheel: everything
under /engine/), and how far the text files would shrink if every one were served
gzipped (``gzip -9`` of the file behind each request not already served compressed).

Targets: performance >= 95 on rule pages and >= 90 on the lookup and calculator,
accessibility, best practices and SEO 100; a rule page moves <= 200 KB compressed,
engine excluded, and no engine byte at all on pages without a calculator.

``--precompress`` serves a copy of the site with a .gz beside every text file, to show
what serving compressed text would change. A benchmark, not a test: it exits non-zero
only when Lighthouse itself fails.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from build_scripts.tools.serve import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM_FLAGS = " ".join(LAUNCH_ARGS)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
EVENTS = [
    {"type": "score", "athlete": "A", "position": "guard-pass"},
    {"type": "penalty", "athlete": "B", "foul": "stalling"},
]
PAGES = {
    "home": "",
    "rule section": "rules/2/5/",
    "chart": "rules/2/techniques/",
    "changes": "rules/changes/",
    "lookup": "lookup/?edition=2&age=14&belt=white&uniform=gi",
    "calculator": "calculator/?edition=1&age=30&lvl=3&uniform=gi&events="
    + urllib.parse.quote(json.dumps(EVENTS, separators=(",", ":"))),
}
ENGINE_PAGES = {"lookup", "calculator"}
PERFORMANCE_TARGET = {"lookup": 90, "calculator": 90}  # 95 for every other page
RULE_PAGE_BYTES = 200 * 1024
TEXT_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".txt", ".map"}


def lighthouse(url: str) -> dict:
    """One Lighthouse run: its JSON report."""
    done = subprocess.run(
        [
            "node",
            str(LIGHTHOUSE),
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROMIUM_FLAGS}",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse on {url}: {report['runtimeError']}")
    return report


def figures(report: dict, site: Path, base: str) -> dict[str, float]:
    """Scores (0-100) and bytes from one report."""
    out = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    requests = report["audits"]["network-requests"]["details"]["items"]
    out["bytes"] = sum(r.get("transferSize", 0) for r in requests)
    out["engine"] = sum(r.get("transferSize", 0) for r in requests if "/engine/" in r["url"])
    out["engine requests"] = sum(1 for r in requests if "/engine/" in r["url"])
    for item in report["audits"]["resource-summary"]["details"]["items"]:
        if item["resourceType"] not in ("total", "third-party") and item["transferSize"]:
            out[f"  {item['resourceType']}"] = item["transferSize"]
    out["if gzipped"] = sum(_gzipped(r, site, base) for r in requests)
    out["if gzipped, no engine"] = sum(
        _gzipped(r, site, base) for r in requests if "/engine/" not in r["url"]
    )
    for metric in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time"):
        out[metric] = report["audits"][metric]["numericValue"]
    out["cumulative-layout-shift"] = report["audits"]["cumulative-layout-shift"]["numericValue"]
    return out


def _gzipped(request: dict, site: Path, base: str) -> int:
    """What the request would move if every text file were served with gzip -9."""
    sent = request.get("transferSize", 0)
    if not request["url"].startswith(base):
        return sent
    path = urllib.parse.urlsplit(request["url"]).path.lstrip("/")
    file = site / path
    if not path or path.endswith("/"):
        file = file / "index.html"
    if file.suffix not in TEXT_SUFFIXES or not file.is_file() or sent == 0:
        return sent
    body = file.read_bytes()
    headers = max(sent - request.get("resourceSize", len(body)), 0)
    return min(sent, headers + len(gzip.compress(body, compresslevel=9, mtime=0)))


def precompressed_copy(site: Path, into: Path) -> Path:
    """A copy of the site with a .gz beside every text file of 1 KB or more."""
    copy = into / "site"
    shutil.copytree(site, copy)
    for file in copy.rglob("*"):
        gz = file.with_name(file.name + ".gz")
        if file.suffix in TEXT_SUFFIXES and file.stat().st_size >= 1024 and not gz.exists():
            gz.write_bytes(gzip.compress(file.read_bytes(), compresslevel=9, mtime=0))
    return copy


def print_table(medians: dict[str, dict[str, float]]) -> None:
    names = list(medians)
    rows = list(dict.fromkeys(k for m in medians.values() for k in m))
    print(f"{'':26}" + "".join(f"{n:>14}" for n in names))
    for row in rows:
        cells = []
        for name in names:
            value = medians[name].get(row)
            if value is None:
                cells.append(f"{'':>14}")
            elif row in CATEGORIES:
                cells.append(f"{value:>14.0f}")
            elif row.endswith(("paint", "time")):
                cells.append(f"{value:>12.0f}ms")
            elif row == "cumulative-layout-shift":
                cells.append(f"{value:>14.3f}")
            elif row == "engine requests":
                cells.append(f"{value:>14.0f}")
            else:
                cells.append(f"{value / 1024:>12.1f}KB")
        print(f"{row:26}" + "".join(cells))


def verdicts(medians: dict[str, dict[str, float]]) -> list[str]:
    """Each target missed, in words."""
    missed = []
    for name, m in medians.items():
        floor = PERFORMANCE_TARGET.get(name, 95)
        if m["performance"] < floor:
            missed.append(f"{name}: performance {m['performance']:.0f} < {floor}")
        missed += [
            f"{name}: {c} {m[c]:.0f} < 100" for c in CATEGORIES[1:] if m[c] < 100
        ]  # fmt: skip
        if name not in ENGINE_PAGES:
            if m["engine"] > 0:
                missed.append(f"{name}: {m['engine']:.0f} engine bytes on a page without one")
            if m["bytes"] > RULE_PAGE_BYTES:
                missed.append(
                    f"{name}: {m['bytes'] / 1024:.0f} KB transferred > 200 KB"
                    f" ({m['if gzipped'] / 1024:.0f} KB if all text were served gzipped)"
                )
    return missed


def main(argv: list[str] | None = None) -> int:
    """Serve, run Lighthouse on each page type, print the medians and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--only", help="comma-separated page types (default: all)")
    parser.add_argument("--precompress", action="store_true", help="gzip every text file")
    parser.add_argument("--json", type=Path, help="also write the medians here")
    parser.add_argument("--reports", type=Path, help="keep each run's full report here")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"lighthouse: no site in {args.site}: run `make site` first", file=sys.stderr)
        return 2
    if not LIGHTHOUSE.is_file():
        print("lighthouse: not installed: run `npm ci`", file=sys.stderr)
        return 2
    pages = {k: v for k, v in PAGES.items() if not args.only or k in args.only.split(",")}
    with tempfile.TemporaryDirectory(prefix="lvl-lighthouse-") as scratch:
        site = precompressed_copy(args.site, Path(scratch)) if args.precompress else args.site
        server, base = start_server(site)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in pages}
        try:
            for number in range(1, args.runs + 1):
                for name, path in pages.items():
                    report = lighthouse(base + path)
                    if args.reports:
                        args.reports.mkdir(parents=True, exist_ok=True)
                        slug = name.replace(" ", "-")
                        out = args.reports / f"{slug}-{number}.json"
                        out.write_text(json.dumps(report), encoding="utf-8")
                    result = figures(report, site, base)
                    runs[name].append(result)
                    scores = " ".join(f"{c} {result[c]:.0f}" for c in CATEGORIES)
                    print(f"run {number} {name:13} {scores}, {result['bytes'] / 1024:.0f} KB")
        finally:
            stop_server(server)
    medians = {
        name: {
            key: statistics.median(r.get(key, 0) for r in results)
            for key in dict.fromkeys(k for r in results for k in r)
        }
        for name, results in runs.items()
    }
    served = "every text file gzipped" if args.precompress else "as built"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nmedians of {args.runs} Lighthouse runs, mobile preset, site {served} (load {load}):")
    print_table(medians)
    if args.json:
        args.json.write_text(json.dumps(medians, indent=1), encoding="utf-8")
    missed = verdicts(medians)
    print("\ntargets: " + ("all met" if not missed else "MISSED"))
    for line in missed:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
