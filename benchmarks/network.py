"""The site on a phone's network: time to the first answer and bytes, per network profile.

    .venv/bin/python -m benchmarks.network [--profiles localhost,4G,"4G 4xCPU","slow 4G"]
                                            [--pages bare,bare-stdlib,lookup,calculator,rule]
                                            [--runs 3] [--slow-runs 1] [--keep-offline]

Builds the whole site as ``make site`` does (PDFs included), adds the benchmark pages of
benchmarks/pages/ (the bare-Pyodide baselines, served from the same engine files), serves
it with Caddy (build_scripts/tools/serve.py), a process of its own whose access log gives
every answer's bytes (headers and encoded bodies, whatever the machine's load), and drives
Debian's Chromium, one fresh on-disk profile per run and page.

Network profiles go through the DevTools protocol's ``Network.emulateNetworkConditions``,
on the page (which covers its dedicated workers: checked, a worker's fetch of 400 kB takes
the throttled 2.2 s) and on every service worker of the profile (attached as its own
target: the page's emulation does not reach it). Each target is throttled on its own, so
a request a service worker forwards to the network does not share the page's link, as it
would on a phone: 153749e's engine worker, once that build's service worker controlled it,
got its library through it and so its 3.97 MB of engine in 3.3 s on 4G, 9.7 Mbit/s (9
emulated; the worker's resource timings, the library's with transferSize 0), where this
build's worker, which no service worker controls on a first visit, gets them in 3.9 s,
8 Mbit/s. Read a first visit's times with that in mind when builds route requests
differently.

- localhost: no emulation;
- 4G:        9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency;
- 4G 4xCPU:  4G, and the page's CPU slowed down 4 times (``Emulation.setCPUThrottlingRate``
             4), a mid-range phone. Chromium 156 throttles only the page's main thread:
             asked for a dedicated worker (the engine's), it answers "Operation is only
             supported for pages, not workers", and a busy loop there took as long with
             the page throttled as without (667 vs 820 ms, noise). So the engine itself
             runs at this machine's speed: its own time on a phone is larger than here;
- slow 4G:   1.6 Mbit/s down, 750 kbit/s up, 150 ms latency.

Pages, each visited cold (fresh profile), then once more in a second tab of the same
profile after the first visit's background work went quiet (repeat visit: what the first
visit loaded is kept offline, nothing more) and, with ``--keep-offline``, on the
calculator, once more after the reader asked to keep everything offline (a returning
official):

- bare:       loadPyodide() on the page, the wheel unpacked, lvl_rules imported, one
              request answered (benchmarks/pages/bare.js): the baseline, on Pyodide's
              files as it ships them (its python_stdlib.zip too), from the same server;
- bare-stdlib: the same on the engine's standard library (cut and compiled,
              build_scripts/bundle/make_stdlib.mjs): what that alone is worth;
- lookup:     navigation -> My division's answer painted, from the rules table in the
              page (it loads no engine: its "engine" figure is that answer too);
- calculator: navigation -> the engine's first log line painted (a match from the URL),
              i.e. the engine ready and answering;
- rule:       a rule page: the bytes sent within 60 s of its load (nothing to time).

"bytes" is what the server sent for the cold visit until the engine's answer (for rule:
within 60 s of load); "60 s" everything sent within 60 s of the cold visit's start (the
first run of each profile; bytes do not vary between runs), and its ratio to "bytes".
Prints every run, then medians. A benchmark, not a test: exits non-zero only when a page
fails.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from benchmarks.browser_start import PAGES, add_bench_pages, bare_urls, fresh_profile
from build_scripts.build_site import build_site
from build_scripts.publish.security import WORKER_POLICY
from build_scripts.tools.access_log import answers
from build_scripts.tools.serve import start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

MBIT = 1_000_000 / 8  # bytes per second
PROFILES: dict[str, dict[str, Any] | None] = {
    "localhost": None,
    "4G": {"latency": 60, "downloadThroughput": 9 * MBIT, "uploadThroughput": 1.5 * MBIT},
    "4G 4xCPU": {
        "latency": 60,
        "downloadThroughput": 9 * MBIT,
        "uploadThroughput": 1.5 * MBIT,
        "cpu": 4,
    },
    "slow 4G": {"latency": 150, "downloadThroughput": 1.6 * MBIT, "uploadThroughput": 0.75 * MBIT},
}
RULE_PAGE = "rules/2/5/"
RULE_WINDOW_S = 60
VISIT_WINDOW_S = 60  # what a first visit moves within this, answer and background work
QUIET_S = 8  # the server sent nothing for this long: the background work is over
QUIET_CAP_S = 300
ANSWER_TIMEOUT_MS = 240_000
# What the engine did with its memory snapshot on this visit ("used", "skipped: ...";
# builds before the snapshot was removed: a baseline), else nothing.
SNAPSHOT_USE = """async () => {
  const script = document.querySelector("script[src*=engine-client]");
  if (!script) return "";
  const { engine } = await import(script.src);
  return (await engine.ready).versions.snapshot ?? "";
}"""


OLD_WORKER = "assets/engine/engine-worker.js"


class Traffic:
    """What the server sent, read from its access log (build_scripts/tools/access_log.py:
    each answer's time is when it was done)."""

    def __init__(self, log_file: Path) -> None:
        self._log_file = log_file
        self._read = 0
        self.log: list[tuple[float, str, int]] = []

    def drain(self) -> None:
        new, self._read = answers(self._log_file, self._read)
        self.log.extend((a.time, a.path, a.size) for a in new if a.status)

    def since(self, start: float, until: float = float("inf")) -> list[tuple[float, str, int]]:
        self.drain()
        return [entry for entry in self.log if start <= entry[0] <= until]

    def wait_quiet(self, start: float, page: Page) -> float:
        """Wait until nothing was sent for QUIET_S; return when the last byte went. Waits
        on the page, so that Playwright keeps handling its events (Throttle's)."""
        while time.time() - start < QUIET_CAP_S:
            page.wait_for_timeout(1000)
            entries = self.since(start)
            last = max((entry[0] for entry in entries), default=start)
            if time.time() - last >= QUIET_S:
                return last
        return time.time()


@contextlib.contextmanager
def serving(site: Path) -> Iterator[tuple[str, Traffic]]:
    """Serve ``site`` with Caddy (a process of its own); yields its URL and its traffic."""
    # The bare page runs Pyodide on the page itself, which the page policy forbids.
    policies = {"/bench/bare.html": WORKER_POLICY}
    # A site built before the code folder (an A/B run against an older build) has its
    # engine worker at a fixed path, which this tree's server no longer knows as the worker.
    if (site / OLD_WORKER).is_file():
        policies[f"/{OLD_WORKER}"] = WORKER_POLICY
    server, url = start_server(site, csp=policies)
    try:
        yield url, Traffic(server.log_file)
    finally:
        stop_server(server)


class Throttle:
    """A profile's network conditions on a page (and so its dedicated workers) and on
    every service worker of the browser, as soon as it appears.

    A service worker is its own DevTools target, attached here (not flattened: Playwright's
    CDPSession cannot address a child session). Conditions set before its script ran do
    not hold (checked: a 400 kB fetch then took 40 ms, not 2.2 s), so they are set again
    when the target reports its script loaded.
    """

    def __init__(self, context: BrowserContext, page: Page, conditions: dict | None) -> None:
        self.conditions = conditions
        if conditions is None:
            return
        self.session = context.new_cdp_session(page)
        self.session.send("Network.emulateNetworkConditions", self._params())
        if conditions.get("cpu"):
            self.session.send("Emulation.setCPUThrottlingRate", {"rate": conditions["cpu"]})
        self._attached: set[str] = set()
        self._next_id = 1
        self.session.on("Target.targetCreated", self._created)
        self.session.on("Target.receivedMessageFromTarget", self._message)
        self.session.send("Target.setDiscoverTargets", {"discover": True})

    def _params(self) -> dict:
        network = {k: v for k, v in (self.conditions or {}).items() if k != "cpu"}
        return {"offline": False, **network}

    def _created(self, event: dict) -> None:
        info = event["targetInfo"]
        if info["type"] != "service_worker" or info["targetId"] in self._attached:
            return
        self._attached.add(info["targetId"])
        with contextlib.suppress(Exception):  # the page may be closing: nothing to throttle
            session_id = self.session.send(
                "Target.attachToTarget", {"targetId": info["targetId"], "flatten": False}
            )["sessionId"]
            self._throttle(session_id)

    def _message(self, event: dict) -> None:
        if '"Inspector.workerScriptLoaded"' in event.get("message", ""):
            with contextlib.suppress(Exception):
                self._throttle(event["sessionId"])

    def _throttle(self, session_id: str) -> None:
        for method, params in (
            ("Network.enable", {}),
            ("Network.emulateNetworkConditions", self._params()),
        ):
            self._next_id += 1
            message = {"id": self._next_id, "method": method, "params": params}
            self.session.send(
                "Target.sendMessageToTarget",
                {"sessionId": session_id, "message": json.dumps(message)},
            )


def answer_visit(
    context: BrowserContext, url: str, conditions: dict | None, traffic: Traffic
) -> tuple[dict[str, Any], float, Page]:
    """One visit to a page that answers: ({"first": ms to the first painted answer,
    "engine": ms to the engine's, "bytes": sent until the engine's, "snapshot": what the
    engine did with its snapshot, "" on the bare pages}, when the visit started, the page,
    still open: its DevTools session throttles)."""
    page = context.new_page()
    Throttle(context, page, conditions)
    started = time.time()
    page.goto(url, timeout=ANSWER_TIMEOUT_MS)
    first = _awaited(page, "__firstAnswer", "no first answer")
    engine = _awaited(page, "__engineAnswer", "no answer from the engine")
    answered = time.time()
    error = page.get_attribute("body", "data-error")
    if error:
        raise RuntimeError(f"{url}: {error}")
    sent = sum(entry[2] for entry in traffic.since(started, answered))
    snapshot = page.evaluate(SNAPSHOT_USE)
    return {"first": first, "engine": engine, "bytes": sent, "snapshot": snapshot}, started, page


def _awaited(page: Page, name: str, failure: str) -> float:
    """The page's promise ``window[name]``, awaited at most ANSWER_TIMEOUT_MS (a page that
    never answers fails its run instead of holding the benchmark for good)."""
    return float(
        page.evaluate(
            """([name, failure, ms]) => Promise.race([window[name], new Promise((_, fail) =>
                 setTimeout(() => fail(new Error(failure)), ms))])""",
            [name, failure, ANSWER_TIMEOUT_MS],
        )
    )


def returning_official(
    context: BrowserContext, page: Page, url: str, conditions: dict | None, traffic: Traffic
) -> dict[str, Any]:
    """On ``page`` (open, answered), ask to keep everything offline, wait until it is
    kept, then visit ``url`` again: that visit's figures (as answer_visit's)."""
    page.wait_for_selector("[data-lvl-offline~='page']", state="attached", timeout=120_000)
    page.locator("[data-lvl-offline-keep-all]").click()
    everything = "[data-lvl-offline~='everything']"
    page.wait_for_selector(everything, state="attached", timeout=QUIET_CAP_S * 1000)
    page.close()
    figures, _, again = answer_visit(context, url, conditions, traffic)
    again.close()
    return figures


def visits(
    context: BrowserContext,
    url: str,
    conditions: dict | None,
    traffic: Traffic,
    *,
    window: bool,
    keep_offline: bool,
) -> dict[str, Any]:
    """A cold visit, a repeat visit once the first went quiet and, with ``keep_offline``,
    a returning official's; with ``window``, the bytes sent within VISIT_WINDOW_S of the
    cold visit's start. Returns the figures and a line that says them."""
    cold, started, page = answer_visit(context, url, conditions, traffic)
    sent = None
    if window:
        end = started + VISIT_WINDOW_S
        page.wait_for_timeout(max(0.0, end - time.time()) * 1000)
        sent = sum(entry[2] for entry in traffic.since(started, end))
    else:
        traffic.wait_quiet(started, page)
    page.close()
    repeat, _, page = answer_visit(context, url, conditions, traffic)
    kept = returning_official(context, page, url, conditions, traffic) if keep_offline else None
    page.close()
    line = (
        f"cold {cold['first']:7.0f} / engine {cold['engine']:7.0f} ms {cold['bytes']:>11,} B"
        + (f" (60 s: {sent:>11,} B)" if sent is not None else "")
        + f"  repeat {repeat['first']:6.0f} / engine {repeat['engine']:6.0f} ms"
        f" {repeat['bytes']:>9,} B"
        + (f"  kept offline: engine {kept['engine']:6.0f} ms" if kept else "")
    )
    snapshots = [visit["snapshot"] for visit in (cold, repeat, kept) if visit]
    if cold["snapshot"]:
        line += "  snapshot: " + ", ".join(snapshots)
    return {
        "cold": cold["first"],
        "cold engine": cold["engine"],
        "bytes": cold["bytes"],
        "60 s": sent,
        "repeat": repeat["first"],
        "repeat engine": repeat["engine"],
        "repeat bytes": repeat["bytes"],
        "kept engine": kept and kept["engine"],
        "line": line,
    }


def rule_visit(
    context: BrowserContext, url: str, conditions: dict | None, traffic: Traffic, **_: bool
) -> dict[str, Any]:
    """A rule page, then RULE_WINDOW_S: the bytes within the window, and a line that says
    them by kind."""
    page = context.new_page()
    Throttle(context, page, conditions)
    started = time.time()
    page.goto(url, wait_until="load", timeout=ANSWER_TIMEOUT_MS)
    loaded = time.time()
    page.wait_for_timeout(max(0.0, loaded + RULE_WINDOW_S - time.time()) * 1000)
    entries = traffic.since(started, loaded + RULE_WINDOW_S)
    kinds: dict[str, int] = {}
    for _, path, sent in entries:
        kinds[_kind(path)] = kinds.get(_kind(path), 0) + sent
    page.close()
    detail = ", ".join(f"{kind} {sent:,}" for kind, sent in sorted(kinds.items()))
    return {
        "bytes": sum(kinds.values()),
        "line": f"rule page: {sum(kinds.values()):,} B ({detail})",
    }


def _kind(path: str) -> str:
    if path.startswith("/engine/"):
        return "engine"
    if path.endswith(".pdf"):
        return "pdf"
    if "/print/" in path:
        return "printable"
    return "pages and theme"


def main(argv: list[str] | None = None) -> int:
    """Build, serve, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("--pages", default="bare,bare-stdlib,lookup,calculator,rule")
    parser.add_argument("--runs", type=int, default=3, help="runs on localhost and 4G")
    parser.add_argument("--slow-runs", type=int, default=1, help="runs on slow 4G")
    parser.add_argument(
        "--keep-offline",
        action="store_true",
        help="on the calculator, a third visit after keeping everything offline",
    )
    parser.add_argument(
        "--site",
        action="append",
        default=[],
        metavar="LABEL=DIR",
        help="measure already built sites instead of building this tree (copies are served);"
        " several are measured interleaved, run by run: an A/B comparison",
    )
    args = parser.parse_args(argv)
    profiles = [name.strip() for name in args.profiles.split(",")]
    pages = [name.strip() for name in args.pages.split(",")]

    results: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    failed: list[str] = []
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="lvl-net-")))
        sites = {}
        for label, built in [item.split("=", 1) for item in args.site] or [("this tree", None)]:
            site = scratch / f"site-{len(sites)}"
            if built:
                shutil.copytree(built, site)
            else:
                build_site(site)
            manifest = add_bench_pages(site)
            base, traffic = stack.enter_context(serving(site))
            urls = (
                bare_urls(base, manifest)
                | {"rule": base + RULE_PAGE}
                | {name: base + path for name, path in PAGES.items()}
            )
            sites[label] = (urls, traffic)
        playwright = stack.enter_context(sync_playwright())
        for profile in profiles:
            conditions = PROFILES[profile]
            runs = args.slow_runs if profile == "slow 4G" else args.runs
            for number in range(1, runs + 1):
                for name in pages:
                    # The second of two cold visits in a row measured slower (bare Pyodide
                    # on localhost, one site served twice: 2.85 vs 3.38 s), so the sites
                    # take turns at going first.
                    order = list(sites.items())
                    for label, (urls, traffic) in order if number % 2 else order[::-1]:
                        figures = results.setdefault((label, profile, name), {})
                        try:
                            with fresh_profile(playwright) as context:
                                if name == "rule" and number > 1:
                                    continue  # 60 s each; bytes do not vary
                                run = (rule_visit if name == "rule" else visits)(
                                    context, urls[name], conditions, traffic,
                                    window=number == 1,
                                    keep_offline=args.keep_offline and name == "calculator",
                                )  # fmt: skip
                        except PlaywrightError as error:  # a visit that never answered
                            failed.append(f"{label}: {profile} run {number} {name}: {error}")
                            print(f"FAILED {failed[-1].splitlines()[0]}", flush=True)
                            continue
                        for key, value in run.items():
                            if isinstance(value, (int, float)):
                                figures.setdefault(key, []).append(value)
                        print(
                            f"{label}: {profile:9} run {number} {name:10} {run['line']}", flush=True
                        )
    print_table(results, profiles, pages)
    return 1 if failed else 0


def print_table(
    results: dict[tuple[str, str, str], dict[str, list[float]]],
    profiles: list[str],
    pages: list[str],
) -> None:
    """Medians, side by side: per profile, each page of each measured site."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    labels = list(dict.fromkeys(label for label, _, _ in results))
    print(f"\nmedians (load at the end {load}); bytes exact, as sent by the server")
    print("first: the first answer painted (the lookup's, from its rules table, is its only);")
    print("engine: the engine's answer painted; bytes: sent until then; 60 s: sent within")
    print("60 s of the visit's start (/ bytes); kept: the engine's answer after keep offline")
    print(
        f"{'profile':10}{'page':12}{'site':12}{'first ms':>9}{'engine ms':>10}{'bytes':>13}"
        f"{'60 s':>12}{'/ bytes':>8}{'repeat first':>13}{'engine':>8}{'repeat B':>11}"
        f"{'kept':>7}{'runs':>6}"
    )
    for profile in profiles:
        for name in pages:
            for label in labels:
                figures = results.get((label, profile, name))
                if not figures:
                    continue

                def median(key: str, figures: dict = figures) -> float:
                    values = figures.get(key)
                    return statistics.median(values) if values else float("nan")

                head = f"{profile:10}{name:12}{label[:11]:12}"
                if name == "rule":
                    print(f"{head}{'':>9}{median('bytes'):>13,.0f}  (within 60 s of load)")
                    continue
                print(
                    f"{head}{median('cold'):9.0f}{median('cold engine'):10.0f}"
                    f"{median('bytes'):>13,.0f}{median('60 s'):>12,.0f}"
                    f"{median('60 s') / median('bytes'):>7.2f}x"
                    f"{median('repeat'):13.0f}{median('repeat engine'):8.0f}"
                    f"{median('repeat bytes'):>11,.0f}{median('kept engine'):7.0f}"
                    f"{len(figures['cold']):6}"
                )
        for label in labels:
            for kind in ("cold engine", "repeat engine", "kept engine"):
                for baseline in ("bare", "bare-stdlib"):
                    bare = results.get((label, profile, baseline), {}).get(kind)
                    for name in ("calculator",):  # the lookup starts no engine
                        ours = results.get((label, profile, name), {}).get(kind)
                        if bare and ours:
                            ratio = statistics.median(bare) / statistics.median(ours)
                            print(f"{'':10}{label}: {baseline} / {name}, {kind}: {ratio:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
