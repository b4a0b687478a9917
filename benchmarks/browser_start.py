"""Navigation to the first rendered answer, in headless Chromium: our pages vs bare Pyodide.

    .venv/bin/python -m benchmarks.browser_start [--runs 5]

Builds the site afresh (strict), adds two benchmark pages (benchmarks/pages/, below),
serves it all with Caddy (build_scripts/tools/serve.py: the production headers), a process of
its own, as any real server is (a server thread in this process shares its interpreter lock
with Playwright's client, which held responses up: cold visits measured ~0.09 s slower),
and for each run and page starts Chromium on a fresh profile (cold cache), then opens a
second tab in the same profile (repeat visit, once the service worker has cached
everything, i.e. "available offline"). The profile is an ordinary one on disk, as a
returning visitor's browser is. Playwright's new_context() is an incognito-style context
instead: there Chromium reads its cache of compiled JavaScript on the page's and the
engine's own threads (about 0.3 s of their time, seen in traces) rather than in the
background, and a repeat visit measures 0.3-0.4 s slower than any visitor's.

The benchmark pages:

- bare:    loadPyodide() on the main thread, the wheel unpacked, lvl_rules imported, one
           eligibility request answered: the baseline (Pyodide's files as it ships them,
           from the same server);
- bare-stdlib: the same on the engine's standard library (build_scripts/bundle/make_stdlib.mjs);
- engine:  the same request answered by our engine worker on a page with nothing else
           (no theme, no styles, no service worker): the floor for any page of ours, which
           separates what the engine costs from what the page around it costs.

Times come from the page itself: performance.now() (counted from navigation start) when
the first answer is in the page and painted:

- bare, engine: the benchmark page's answer;
- lookup:      the first technique row of /lookup/?edition=2&age=30&belt=purple&uniform=nogi;
- calculator:  the first log line of a match loaded from the URL (on a repeat visit, as
               the engine answered it last time: docs/assets/app/remembered.js).

Prints every run, the medians of each, the ratios bare / ours, and where the lookup's
time goes: the engine worker's own stage timings (ms from navigation). A benchmark, not a
test: exits non-zero only if a page fails, the CSP is violated or a request leaves the
origin.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import BrowserContext, Playwright, sync_playwright

from build_scripts.build_site import build_site
from build_scripts.bundle.manifest import manifest_element
from build_scripts.publish.code_folder import published_in
from build_scripts.publish.precompress import write_siblings
from build_scripts.publish.security import WORKER_POLICY
from build_scripts.tools.chromium import CHROMIUM, LAUNCH_ARGS
from build_scripts.tools.serve import Policies, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

EVENTS = [
    {"type": "score", "athlete": "A", "position": "guard-pass"},
    {"type": "penalty", "athlete": "B", "foul": "stalling"},
]
PAGES = {
    "lookup": "lookup/?edition=2&age=30&belt=purple&uniform=nogi",
    "calculator": "calculator/?edition=1&age=30&lvl=3&uniform=gi&events="
    + urllib.parse.quote(json.dumps(EVENTS)),
}
# Resolves window.__firstAnswer with performance.now() once an answer is in the page and
# a frame has been painted, and window.__engineAnswer once the engine's is. My division
# answers from its rules table alone (it loads no engine): both are that answer. The
# calculator, on a repeat visit, answers first with the board the engine gave last time
# (its log's data-source="remembered"), then with the engine's (its events are shown
# before either, waiting: not an answer); the bare page only from the engine.
# Injected by Playwright before any page script runs.
WATCH = """
(() => {
const painted = (selector) => new Promise((resolve) => {
  const found = () => document.querySelector(selector);
  const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
  if (found()) return done();
  new MutationObserver((_, observer) => {
    if (found()) { observer.disconnect(); done(); }
  }).observe(document, { subtree: true, childList: true, attributes: true });
});
window.__firstAnswer = painted(
  "#lookup-results:not([hidden]), #calc-log[data-source] li[data-event], body[data-done]");
window.__engineAnswer = painted(
  "#lookup-results:not([hidden]), #calc-log[data-source=engine] li[data-event], body[data-done]");
})();
"""


def build(site: Path) -> dict:
    """The site as `make site` builds it (with its service worker: repeat visits are
    served from what it kept), plus the bare page and what it needs."""
    build_site(site)
    return add_bench_pages(site)


def bare_query(manifest: dict, *, engine_stdlib: bool = False) -> str:
    """The bare page's query string: the same Pyodide and wheel files as our engine's, with
    Pyodide's own standard library (python_stdlib.zip, as Pyodide ships it: bare Pyodide)
    or, with ``engine_stdlib``, the engine's (cut and compiled: what that alone is worth)."""
    files = {
        "pyodide": f"/engine/{manifest['pyodide']['path']}",
        "wheel": f"/engine/{manifest['wheel']['path']}",
    }
    if engine_stdlib:
        files["stdlib"] = f"/engine/{manifest['stdlib']['path']}"
    return urllib.parse.urlencode(files)


def bare_urls(base: str, manifest: dict) -> dict[str, str]:
    """The two baselines: bare Pyodide, and bare Pyodide on the engine's standard library."""
    page = f"{base}bench/bare.html?"
    return {
        "bare": page + bare_query(manifest),
        "bare-stdlib": page + bare_query(manifest, engine_stdlib=True),
    }


def add_bench_pages(site: Path) -> dict:
    """Add benchmarks/pages/ to a built site as /bench/ (the bare page, and the engine
    page with the build's manifest) and what the bare page needs; return the manifest."""
    manifest = json.loads((site / "engine" / "manifest.json").read_text(encoding="utf-8"))
    shutil.copytree(ROOT / "benchmarks" / "pages", site / "bench")
    engine_page = site / "bench" / "engine.html"
    page = engine_page.read_text(encoding="utf-8")
    slot = re.search(r"<!-- lvl-engine-manifest:.*?-->", page, re.S)
    if slot is None:
        raise SystemExit(f"{engine_page}: no slot for the engine manifest")
    engine_page.write_text(
        page[: slot.start()] + manifest_element(manifest) + page[slot.end() :], encoding="utf-8"
    )
    # The pages name the engine's client by its path under docs/: this build's path instead.
    client = "assets/engine/engine-client.js"
    # A site built before the code folder (an A/B run against an older build) has it there.
    published = client if (site / client).is_file() else published_in(site, client)
    for name in ("engine.html", "engine.js"):
        bench = site / "bench" / name
        text = bench.read_text(encoding="utf-8")
        bench.write_text(text.replace(f"/{client}", f"/{published}"), "utf-8")
    runtime = site / "engine" / manifest["pyodide"]["path"]
    pyodide = ROOT / "node_modules" / "pyodide"
    # Only the bare page reads these: loadPyodide()'s lock file and standard library,
    # served as the engine's files are (with precompressed siblings).
    shutil.copyfile(pyodide / "pyodide-lock.json", runtime / "pyodide-lock.json")
    shutil.copyfile(pyodide / "python_stdlib.zip", runtime / "python_stdlib.zip")
    write_siblings(runtime / "python_stdlib.zip")
    return manifest


# The engine's stage timings, as ms from navigation (the worker counts from its own start).
ENGINE_STAGES = """async () => {
  const script = document.querySelector("script[src*=engine-client]");
  if (!script) return {};
  const { engine } = await import(script.src);
  await engine.ready;
  const stages = { "worker started": 0, ...engine.status.timings };
  return Object.fromEntries(
    Object.entries(stages).map(([stage, ms]) => [stage, ms + engine._startedAt]),
  );
}"""


@contextlib.contextmanager
def serving(site: Path, csp: Policies) -> Iterator[str]:
    """Serve ``site`` with Caddy (a process of its own); yields the base URL."""
    server, url = start_server(site, csp=csp, access_log=False)
    try:
        yield url
    finally:
        stop_server(server)


# A browser just launched is busy with itself: Chromium 156 loads its own WebUI (the
# omnibox's search box, in a renderer of its own) and uses both cores of this machine for
# its first ~0.8 s (system CPU sampled every 250 ms: 90, 80, 52, then 0-6%). A visitor's
# browser is running already, so each browser is left until the machine is quiet before
# it is given a page. Measured on one build, localhost, 5 cold visits each (engine
# answer painted, medians): calculator 2,492 ms with the browser's start-up in the
# window, 1,902 ms after it; lookup 2,197 vs 1,795 ms; bare Pyodide 4,538 vs 4,642 ms
# (its ~4.5 s start hides the browser's 0.8 s): the ratio bare / calculator 1.82x vs 2.44x.
QUIET_CPU = 0.15  # busy share of all cores below which the machine is quiet
QUIET_SAMPLES = 3  # of QUIET_SAMPLE_S each, in a row
QUIET_SAMPLE_S = 0.1
QUIET_CAP_S = 10.0
PROC_STAT = Path("/proc/stat")


def _cpu_times() -> tuple[int, int]:
    """(all, idle) jiffies of the machine since boot, from /proc/stat."""
    with PROC_STAT.open(encoding="ascii") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return sum(fields), fields[3] + fields[4]  # idle + iowait


def wait_until_quiet(context: BrowserContext) -> None:
    """Wait (on the browser's first page, so that Playwright keeps serving its events)
    until the machine's CPU has been quiet for QUIET_SAMPLES samples, or QUIET_CAP_S."""
    if not PROC_STAT.exists():
        return
    page = context.pages[0] if context.pages else context.new_page()
    quiet = 0
    before = _cpu_times()
    for _ in range(int(QUIET_CAP_S / QUIET_SAMPLE_S)):
        page.wait_for_timeout(QUIET_SAMPLE_S * 1000)
        now = _cpu_times()
        elapsed, idle = now[0] - before[0], now[1] - before[1]
        before = now
        quiet = quiet + 1 if elapsed and 1 - idle / elapsed < QUIET_CPU else 0
        if quiet >= QUIET_SAMPLES:
            return


@contextlib.contextmanager
def fresh_profile(playwright: Playwright) -> Iterator[BrowserContext]:
    """Chromium on a new, empty profile directory on disk, removed afterwards; once the
    machine is quiet again after its launch (see QUIET_CPU)."""
    with tempfile.TemporaryDirectory(prefix="lvl-bench-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS
        )
        try:
            context.add_init_script(WATCH)
            wait_until_quiet(context)
            yield context
        finally:
            context.close()


def visit(
    context: BrowserContext,
    url: str,
    problems: list[str],
    *,
    settle: bool = False,
    stages: dict[str, list[float]] | None = None,
) -> float:
    """One page view: milliseconds from navigation to the painted first answer.

    ``stages``: where to add the engine's stage timings (ms from navigation).
    ``settle``: then wait until the service worker has kept the page and the engine, as
    it has by the time a person comes back.
    """
    page = context.new_page()
    origin = urllib.parse.urlsplit(url)[:2]
    page.on(
        "console",
        lambda m: (
            problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" or "Content Security Policy" in m.text
            else None
        ),
    )
    page.on(
        "request",
        lambda r: (
            problems.append(f"another origin: {r.url}")
            if urllib.parse.urlsplit(r.url)[:2] != origin
            and not r.url.startswith(("data:", "blob:"))
            else None
        ),
    )
    page.goto(url)
    ms = page.evaluate("() => window.__firstAnswer")
    if stages is not None:
        for stage, at in page.evaluate(ENGINE_STAGES).items():
            stages.setdefault(stage, []).append(at)
    if settle:
        # What docs/assets/app/offline.js reports once the service worker has kept them.
        for kept in ("[data-lvl-offline~='page']", "[data-lvl-offline-engine='kept']"):
            page.wait_for_selector(kept, state="attached", timeout=120_000)
    error = page.get_attribute("body", "data-error")
    if error:
        problems.append(f"{url}: {error}")
    page.close()
    return float(ms)


def main(argv: list[str] | None = None) -> int:
    """Build, serve, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)

    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="lvl-bench-") as scratch:
        site = Path(scratch)
        manifest = build(site)
        # The bare page runs Pyodide on the page itself, which the page policy forbids
        # (ours runs it in the worker, whose own policy allows WebAssembly).
        with serving(site, csp={"/bench/bare.html": WORKER_POLICY}) as base:
            urls = (
                bare_urls(base, manifest)
                | {"engine": f"{base}bench/engine.html"}
                | {name: base + path for name, path in PAGES.items()}
            )
            times: dict[str, dict[str, list[float]]] = {k: {"cold": [], "repeat": []} for k in urls}
            stages: dict[str, dict[str, list[float]]] = {"cold": {}, "repeat": {}}
            with sync_playwright() as playwright:
                for number in range(1, args.runs + 1):
                    for name, url in urls.items():
                        watch = name == "lookup"
                        with fresh_profile(playwright) as context:
                            cold = visit(
                                context,
                                url,
                                problems,
                                settle=name in PAGES,
                                stages=stages["cold"] if watch else None,
                            )
                            repeat = visit(
                                context, url, problems, stages=stages["repeat"] if watch else None
                            )
                        times[name]["cold"].append(cold)
                        times[name]["repeat"].append(repeat)
                        print(
                            f"run {number} {name:10} cold {cold:6.0f} ms  repeat {repeat:6.0f} ms"
                        )
    medians = {k: {v: statistics.median(t) for v, t in by.items()} for k, by in times.items()}
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nmedians of {args.runs}, navigation -> first rendered answer (load {load}):")
    print(f"{'':12}{'cold':>9}{'repeat':>9}")
    for name, by in medians.items():
        print(f"{name:12}{by['cold']:7.0f}ms{by['repeat']:7.0f}ms")
    for baseline in ("bare", "bare-stdlib"):
        for name in ("engine", *PAGES):
            for kind in ("cold", "repeat"):
                ratio = medians[baseline][kind] / medians[name][kind]
                print(f"{baseline} / {name}, {kind}: {ratio:.1f}x faster")
    print("targets: lookup <= 1500 ms cold, <= 1000 ms repeat, >= 4x faster than bare")
    every = {**stages["repeat"], **stages["cold"]}
    order = sorted(every, key=lambda stage: statistics.median(every[stage]))
    width = max(map(len, [*order, "first answer painted"])) + 2
    print("\nlookup, engine stages (median ms from navigation):")
    print(f"  {'':{width}}{'cold':>7}{'repeat':>7}")
    for stage in order:
        cold, repeat = (statistics.median(stages[k].get(stage) or [float("nan")]) for k in stages)
        print(f"  {stage:{width}}{cold:7.0f}{repeat:7.0f}")
    print(
        f"  {'first answer painted':{width}}{medians['lookup']['cold']:7.0f}"
        f"{medians['lookup']['repeat']:7.0f}"
    )
    for problem in dict.fromkeys(problems):
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
