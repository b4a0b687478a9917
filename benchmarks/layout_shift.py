"""Layout shift on a phone: how far a page's content moves while it loads, per site.

    .venv/bin/python -m benchmarks.layout_shift [--site LABEL=DIR ...] [--runs 3]
                                                 [--profiles "4G 4xCPU"] [--window 8]

Serves each built site (``make site``'s folder; without ``--site``, this tree is built
first) with the production headers, and opens each page cold on a 390x844 phone in
Debian's Chromium, under the network profiles of benchmarks/network.py (its Throttle:
4G and the page's CPU slowed 4 times, by default). A PerformanceObserver registered before
the page's first script counts every 'layout-shift' entry not caused by recent input
(hadRecentInput), from the first paint until ``--window`` seconds after the page settled
(loaded; on the calculator, its engine ready too): the cumulative layout shift (CLS, the
sum; Google's "good" is at most 0.1, our target 0.02), and what moved in the largest shift
(its sources' nodes and how far).

Pages: a rule section (rules/2/5/), My division opened (lookup/) and from a shared link (an
adult's: every field asked; a 13-year-old's: none), the calculator from a link (a match in
Edition 1). Each run also gives the first contentful paint (what a wait for the form's
state before the first paint costs).
Several ``--site`` are measured interleaved, run by run: a before/after comparison.
A benchmark, not a test: it prints figures and exits non-zero only when a page fails.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from benchmarks.browser_start import PAGES
from benchmarks.network import PROFILES, Throttle
from build_scripts.build_site import build_site
from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from build_scripts.tools.serve import start_server, stop_server

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TARGETS = {
    "rule section": "rules/2/5/",
    "my division": "lookup/",
    "my division link": PAGES["lookup"],
    "my division child": "lookup/?edition=2&age=13&belt=white&uniform=gi",
    "calculator link": PAGES["calculator"],
}
# What "settled" means beyond the load event: the calculator's engine ready.
SETTLED = {"calculator link": "[data-engine-status][hidden]"}
SETTLE_TIMEOUT_MS = 240_000
# Before any script of the page: every layout shift, with what moved.
OBSERVER = """
window.__layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__layoutShifts.push({
      at: Math.round(entry.startTime),
      value: entry.value,
      moved: (entry.sources || []).map((source) => {
        const node = source.node;
        const name = node ? node.nodeName.toLowerCase() + (node.id ? "#" + node.id : "")
          + (typeof node.className === "string" && node.className
            ? "." + node.className.trim().split(/\\s+/).join(".") : "") : "?";
        const was = source.previousRect;
        if (!was.width && !was.height) return `${name} into view`;
        return `${name} ${Math.round(source.currentRect.y - was.y)} px`;
      }),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def shifts(browser: Browser, url: str, profile: str, settled: str | None, window_s: float) -> dict:
    """One cold visit: {"fcp": ms to the first contentful paint, "cls": the sum, "largest":
    the largest shift's entry or None}."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.add_init_script(OBSERVER)
        Throttle(context, page, PROFILES[profile])
        page.goto(url, wait_until="load", timeout=SETTLE_TIMEOUT_MS)
        if settled:
            page.wait_for_selector(settled, state="attached", timeout=SETTLE_TIMEOUT_MS)
        page.wait_for_timeout(window_s * 1000)  # a benchmark's window, not a test's wait
        found = page.evaluate("window.__layoutShifts")
        painted = page.evaluate(
            "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN"
        )
    finally:
        context.close()
    return {
        "fcp": float(painted),
        "cls": sum(entry["value"] for entry in found),
        "largest": max(found, key=lambda entry: entry["value"], default=None),
    }


def main(argv: list[str] | None = None) -> int:
    """Serve, visit, print every run and the medians side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", action="append", default=[], metavar="LABEL=DIR")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profiles", default="4G 4xCPU")
    parser.add_argument("--window", type=float, default=8.0, help="seconds after settling")
    parser.add_argument("--pages", default=",".join(TARGETS))
    args = parser.parse_args(argv)
    profiles = [name.strip() for name in args.profiles.split(",")]
    pages = [name.strip() for name in args.pages.split(",")]
    results: dict[tuple[str, str, str], list[float]] = {}
    paints: dict[tuple[str, str, str], list[float]] = {}
    failed = 0
    with contextlib.ExitStack() as stack:
        sites: dict[str, str] = {}
        for label, folder in [item.split("=", 1) for item in args.site] or [("this tree", "")]:
            site = Path(folder)
            if not folder:
                site = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "site"
                build_site(site)
            server, base = start_server(site)
            stack.callback(stop_server, server)
            sites[label] = base
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        stack.callback(browser.close)
        for profile in profiles:
            for number in range(1, args.runs + 1):
                order = list(sites.items())
                for name in pages:
                    for label, base in order if number % 2 else order[::-1]:
                        try:
                            run = shifts(
                                browser, base + TARGETS[name], profile, SETTLED.get(name),
                                args.window,
                            )  # fmt: skip
                        except PlaywrightError as error:
                            failed += 1
                            print(f"FAILED {label}: {profile} {name}: {error}".splitlines()[0])
                            continue
                        results.setdefault((profile, name, label), []).append(run["cls"])
                        paints.setdefault((profile, name, label), []).append(run["fcp"])
                        largest = run["largest"]
                        said = (
                            f"largest {largest['value']:.3f} at {largest['at']} ms: "
                            + ", ".join(largest["moved"][:4])
                            if largest
                            else "nothing moved"
                        )
                        print(
                            f"{label[:12]:12} {profile:9} run {number} {name:18} "
                            f"FCP {run['fcp']:5.0f} ms  CLS {run['cls']:.3f}  {said}",
                            flush=True,
                        )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    labels = list(sites)
    print(f"\nmedians, 390x844 phone (load at the end {load}): cumulative layout shift")
    print("(target 0.02) and first contentful paint (ms)")
    heads = "".join(f"{label[:10] + ' CLS':>15}{'FCP':>7}" for label in labels)
    print(f"{'profile':10}{'page':20}{heads}")
    for profile in profiles:
        for name in pages:
            cells = ""
            for label in labels:
                shifted, painted = (
                    results.get((profile, name, label)),
                    paints.get((profile, name, label)),
                )
                cells += (
                    f"{statistics.median(shifted):15.3f}{statistics.median(painted):7.0f}"
                    if shifted and painted
                    else f"{'-':>15}{'-':>7}"
                )
            print(f"{profile:10}{name:20}{cells}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
