"""A venue: one laptop serves the site to every phone in the building. Hundreds of phones
at once against one server on loopback, for each server compared, in one run.

    .venv/bin/python -m benchmarks.venue [--site site] [--server NAME=SPEC ...]
        [--phones 300] [--slow 100] [--half-open 200] [--visits 3] [--engine-share 0.1]
        [--deadline 60] [--timeout 15] [--host 127.0.0.1]

Servers (``--server``, repeatable; default ``old=a44fd40`` and ``new=worktree``, the
home-made server before Caddy and this tree's): see benchmarks/servers.py. They run one
after another, each on the same traffic (the same seed), against a built site
(``make site``).

The traffic, all with ``Accept-Encoding: br, gzip`` as a browser sends it:

- phones: each makes ``--visits`` visits a think time apart (0 to 2 s), each a page (a rule
  page /rules/<edition>/<section>/ of an edition lvl_rules knows, or, one visit in four,
  My division /lookup/), then that page's stylesheets and scripts (those it has not
  fetched before) over its two keep-alive connections; a share of them
  (``--engine-share``) open the calculator first and fetch the engine's files (every
  file under /engine/), as a phone keeping the site offline does. They start spread
  over 2 s;
- slow clients: each makes one rule-page visit on one connection, sending each request in
  4 pieces 0.5 s apart and reading at 32 kB/s through a small receive buffer;
- half-open connections, opened before the others and held until they are done: half send
  nothing, half half a request line (``GET /rules/``); one the server closes is opened
  again a second later (so the server keeps facing as many).

Bounded: every connect, read and write waits at most ``--timeout`` seconds, the load on
each server stops at ``--deadline`` seconds whatever is left (counted as "cut by the
deadline"), and only loopback addresses are ever connected to (benchmarks/loopback_http.py
refuses any other). Figures, never assertions: per server, requests done, errors by kind
(refused, reset, closed, timeouts, HTTP statuses other than 2xx/3xx), throughput, and the
time to each whole response (p50/p95/p99) for phones and slow clients apart; then a
Markdown table of the servers side by side, with each one's ratio to the first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from benchmarks.loopback_http import loopback
from benchmarks.servers import (
    CADDY,
    ROOT,
    WORKTREE,
    ServerStartError,
    check,
    parse_server,
    serving,
)
from benchmarks.venue_load import PHONE_CONNECTIONS, Load, Result, Visit, run_load
from build_scripts.publish.site_files import ENGINE_DIR, is_compressed_copy, site_files
from lvl_rules import edition_ids

DEFAULT_SERVERS = ("old=a44fd40", f"new={WORKTREE}")
LOOKUP = "/lookup/"
CALCULATOR = "/calculator/"
LOOKUP_SHARE = 0.25  # of visits
PERCENTILES = (50, 95, 99)


class _Assets(HTMLParser):
    """The stylesheets and scripts a page makes the browser fetch."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.urls.append(values["src"] or "")
        elif tag == "link" and values.get("rel") in ("stylesheet", "modulepreload"):
            self.urls.append(values.get("href") or "")


def page_assets(site: Path, page: str) -> tuple[str, ...]:
    """The same-site stylesheets and scripts of ``page`` (a URL path ending in /), as
    URL paths."""
    parser = _Assets()
    parser.feed((site / page.strip("/") / "index.html").read_text("utf-8"))
    paths = []
    for url in parser.urls:
        absolute = urlsplit(urljoin(f"http://site.invalid{page}", url))
        if absolute.netloc == "site.invalid" and absolute.path not in paths:
            paths.append(absolute.path)
    return tuple(paths)


@dataclass(frozen=True, kw_only=True, slots=True)
class SitePlan:
    """What phones ask of a built site: its rule pages, the engine's files, each page's
    stylesheets and scripts."""

    rule_pages: tuple[str, ...]
    engine: tuple[str, ...]
    assets: dict[str, tuple[str, ...]]


def read_site(site: Path) -> SitePlan:
    """The plan of a built site folder."""
    rule_pages = tuple(
        f"/{index.parent.relative_to(site).as_posix()}/"
        for edition in edition_ids()
        for index in sorted((site / "rules" / edition).glob("*/index.html"))
    )
    if not rule_pages:
        raise SystemExit(f"venue: {site} has no rule pages; build the site first (make site)")
    engine = tuple(
        f"/{path.relative_to(site).as_posix()}"
        for path in site_files(site / ENGINE_DIR)
        if not is_compressed_copy(path)
    )
    pages = (*rule_pages, LOOKUP, CALCULATOR)
    return SitePlan(
        rule_pages=rule_pages, engine=engine, assets={p: page_assets(site, p) for p in pages}
    )


def plan_visits(rng: random.Random, plan: SitePlan, *, visits: int, engine: bool) -> list[Visit]:
    """One phone's visits; assets fetched on an earlier visit are cached (not fetched)."""
    cached: set[str] = set()
    planned = []
    for number in range(visits):
        if engine and number == 0:
            page = CALCULATOR
        elif rng.random() < LOOKUP_SHARE:
            page = LOOKUP
        else:
            page = rng.choice(plan.rule_pages)
        then = [asset for asset in plan.assets[page] if asset not in cached]
        cached.update(then)
        if engine and number == 0:
            then += plan.engine
        planned.append(Visit(page, tuple(then)))
    return planned


def percentile(values: Sequence[float], percent: int) -> float:
    """The ``percent``th percentile of ``values`` (linear between the nearest ranks;
    NaN for no values)."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def figures(result: Result) -> dict[str, float]:
    """The rows of the table for one server, in order."""
    rows: dict[str, float] = {}
    for label, tally in (("phones", result.phones), ("slow clients", result.slow)):
        rows[f"{label}: requests done"] = tally.done
        rows[f"{label}: errors"] = sum(tally.errors.values())
        for kind, count in sorted(tally.errors.items()):
            rows[f"{label}: errors, {kind}"] = count
        rows[f"{label}: cut by the deadline"] = (
            tally.planned - tally.done - sum(tally.errors.values())
        )
        for percent in PERCENTILES:
            rows[f"{label}: p{percent} ms, of those done"] = (
                percentile(tally.seconds, percent) * 1000
            )
    done = result.phones.done + result.slow.done
    megabytes = (result.phones.bytes + result.slow.bytes) / 1e6
    rows["all: seconds until done"] = result.seconds
    rows["all: requests done/s"] = done / result.seconds
    rows["all: MB received"] = megabytes
    rows["all: MB/s"] = megabytes / result.seconds
    rows["half-open: held when the phones start"] = result.held_at_start
    rows["half-open: closed by the server"] = result.half_open.closed_by_server
    rows["half-open: could not connect"] = result.half_open.failed
    return rows


def _cell(value: float | None) -> str:
    if value is None:
        return "0"
    if value != value:  # NaN: nothing measured
        return "–"
    return f"{value:,.0f}" if value == int(value) or value >= 100 else f"{value:,.1f}"


def _ratio(value: float, base: float) -> str:
    if not base or value != value or base != base:  # NaN: nothing measured
        return "–"
    return f"{value / base:.2f}"


def markdown_table(results: dict[str, dict[str, float]]) -> str:
    """The servers side by side, with each one's ratio to the first."""
    names = list(results)
    rows = list(dict.fromkeys(row for figures in results.values() for row in figures))
    head = ["figure", *names, *(f"{name} / {names[0]}" for name in names[1:])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        values = [results[name].get(row) for name in names]
        base = values[0] or 0
        ratios = [_ratio(value or 0, base) for value in values[1:]]
        lines.append("| " + " | ".join([row, *map(_cell, values), *ratios]) + " |")
    return "\n".join(lines)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def raise_file_limit(wanted: int) -> None:
    """Raise this process's open-file soft limit to ``wanted`` (at most the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def main(argv: list[str] | None = None) -> int:
    """Load each server in turn with the same traffic; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument(
        "--server",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help=f"SPEC: a commit, {WORKTREE} or {CADDY} (default: {' '.join(DEFAULT_SERVERS)})",
    )
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--slow", type=int, default=100, help="slow clients")
    parser.add_argument("--half-open", type=int, default=200, help="half-open connections held")
    parser.add_argument("--visits", type=int, default=3, help="visits per phone")
    parser.add_argument(
        "--engine-share", type=float, default=0.1, help="phones that fetch the engine"
    )
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds of load per server")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds per connect or read")
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address")
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args(argv)
    host = loopback(args.host)
    try:
        servers = [parse_server(text) for text in args.server or DEFAULT_SERVERS]
    except ValueError as error:
        parser.error(str(error))
    for server in servers:
        check(server)
    plan = read_site(args.site)
    rng = random.Random(args.seed)
    engine_phones = round(args.phones * args.engine_share)
    load = Load(
        host=host,
        phones=[
            plan_visits(rng, plan, visits=args.visits, engine=n < engine_phones)
            for n in range(args.phones)
        ],
        slow=[plan_visits(rng, plan, visits=1, engine=False) for _ in range(args.slow)],
        half_open=args.half_open,
        timeout=args.timeout,
        deadline=args.deadline,
    )
    raise_file_limit(2 * (args.phones * PHONE_CONNECTIONS + args.slow + args.half_open) + 256)
    print(
        f"venue: {args.phones} phones ({engine_phones} fetch the engine), {args.slow} slow"
        f" clients, {args.half_open} half-open connections on {host}; deadline"
        f" {args.deadline:.0f} s per server; {len(plan.rule_pages)} rule pages",
        flush=True,
    )
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="lvl-venue-") as scratch:
        for server in servers:
            try:
                with serving(server, args.site, host, Path(scratch)) as running:
                    server_cpu = running.cpu_seconds()
                    client_cpu = _cpu_seconds()
                    result = asyncio.run(run_load(load, running.port))
                    results[server.name] = figures(result) | {
                        "server CPU seconds": running.cpu_seconds() - server_cpu,
                        "benchmark CPU seconds": _cpu_seconds() - client_cpu,
                    }
            except ServerStartError as error:
                print(f"{server.name} ({server.spec}): {error}", flush=True)
                continue
            print(
                f"{server.name} ({server.spec}): {result.phones.done + result.slow.done} requests"
                f" in {result.seconds:.1f} s",
                flush=True,
            )
    if not results:
        return 1
    load_average = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average at the end: {load_average}; times are to the whole response\n")
    print(markdown_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
