"""How fast are the engines? Prints figures against the budgets; asserts nothing.

- Eligibility: the mean time of one query, ``check`` of one technique, over every query
  of both editions (ages 4-120 x every valid LVL or belt x Gi and No-Gi x, in Edition 2,
  no experience and each kind of experience), and of ``check_all`` per athlete.
- Scoring: the mean time to score one random valid match of 50 events, over 10,000
  matches (seeded, so every run scores the same matches; no event after an ending).

Budgets: 100 µs a query, 1 ms a match. Run with ``make bench``.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from lvl_rules import Division, check, check_all, division, load_edition, score_match
from lvl_rules.engines.division import ranks_at
from lvl_rules.engines.scoring import ladder_for
from lvl_rules.model import UNIFORMS

QUERY_BUDGET = 100e-6  # seconds, one eligibility query
MATCH_BUDGET = 1e-3  # seconds, one match of 50 events
MATCHES = 10_000
EVENTS_PER_MATCH = 50
SEED = 20_26
ROUNDS = 3  # each figure is the best of a few rounds, to dodge a busy machine


def every_division(edition_id: str) -> list[Division]:
    """Every valid athlete of an edition: each age, each rank that exists at that age (or
    none where it may be left out), each uniform, and each kind of prior experience."""
    edition = load_edition(edition_id)
    axis = edition.eligibility.axis
    experiences: list[list[str]] = [[], *([x] for x in edition.experiences)]
    out = []
    for age in range(4, 121):
        ranks: list[str | None] = list(ranks_at(edition, age))
        if age < edition.eligibility.rank_required_from:
            ranks.insert(0, None)
        for rank, uniform, experience in itertools.product(ranks, UNIFORMS, experiences):
            fields: dict[str, Any] = {"age": age, "uniform": uniform, "experience": experience}
            if rank is not None:
                fields[axis] = rank
            out.append(division(edition, **fields))
    return out


def best_of(run: Callable[[], None]) -> float:
    """The shortest wall time of a few rounds of ``run``, in seconds."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


class MatchMaker:
    """Random valid matches: no disqualification before the end, legal holds only."""

    def __init__(self, rng: random.Random, athletes: list[Division]) -> None:
        self.rng = rng
        self.athletes = athletes
        self.legal = {
            id(athlete): [a.technique.id for a in check_all(athlete) if a.legal]
            for athlete in athletes
        }

    def match(self) -> tuple[Division, list[dict[str, Any]]]:
        rng = self.rng
        athlete = rng.choice(self.athletes)
        rules = athlete.edition
        positions = list(rules.positions)
        reasons = list(rules.advantages)
        fouls = [f.id for f in rules.fouls.values() if f.on_ladder]
        rulings = [*positions, "advantage", "none"]
        safe = len(ladder_for(athlete).steps) - 1  # penalties short of disqualification
        penalties = {"A": 0, "B": 0}
        legal = self.legal[id(athlete)]
        events: list[dict[str, Any]] = []
        while len(events) < EVENTS_PER_MATCH - 1:
            who = rng.choice("AB")
            roll = rng.random()
            if roll < 0.35:
                position = rng.choice(positions)
                event: dict[str, Any] = {"type": "score", "athlete": who, "position": position}
                variants = list(rules.positions[position].variants)
                if variants and rng.random() < 0.3:
                    event["variant"] = rng.choice(variants)
            elif roll < 0.50:
                event = {"type": "advantage", "athlete": who, "reason": rng.choice(reasons)}
            elif roll < 0.58:
                event = {"type": "submission-escaped", "athlete": who, "locked": rng.random() < 0.5}
            elif roll < 0.78:
                both = rng.random() < 0.2
                targets = "AB" if both else who
                if any(penalties[t] >= safe for t in targets):
                    continue
                for target in targets:
                    penalties[target] += 1
                foul = "stalling" if both else rng.choice(fouls)
                event = {"type": "penalty", "athlete": "both" if both else who, "foul": foul}
                if foul == "jump-guard":
                    event["defending"] = rng.random() < 0.5
            elif roll < 0.90:
                event = {"type": "panel", "athlete": who, "rulings": rng.sample(rulings, 3)}
            else:
                if not legal:
                    continue
                event = {"type": "technique", "athlete": who, "technique": rng.choice(legal)}
            events.append(event)
        events.append({"type": "end", "referee_decision": rng.choice("AB")})
        return athlete, events


def main() -> None:
    """Measure and print."""
    editions = {edition_id: load_edition(edition_id) for edition_id in ("1", "2")}
    athletes = {edition_id: every_division(edition_id) for edition_id in editions}
    everyone = [athlete for group in athletes.values() for athlete in group]
    queries = [(a, t) for a in everyone for t in a.edition.techniques]

    def run_checks() -> None:
        for athlete, technique in queries:
            check(athlete, technique)

    def run_check_alls() -> None:
        for athlete in everyone:
            check_all(athlete)

    per_check = best_of(run_checks) / len(queries)
    per_check_all = best_of(run_check_alls) / len(everyone)

    rng = random.Random(SEED)
    maker = MatchMaker(rng, everyone)
    matches = [maker.match() for _ in range(MATCHES)]
    for athlete, events in matches[:100]:  # the generated matches are valid: check a few
        if score_match(athlete, events[:-1]).result.ended:
            raise SystemExit("a generated match ended before its last event")
    times = []
    for athlete, events in matches:
        start = time.perf_counter()
        score_match(athlete, events)
        times.append(time.perf_counter() - start)
    per_match = statistics.fmean(times)

    techniques = len(queries) / len(everyone)  # every technique of the catalogue
    rows = [
        ("eligibility: check (one query)", len(queries), per_check, QUERY_BUDGET),
        (
            f"eligibility: check_all ({techniques:.0f} queries)",
            len(everyone),
            per_check_all,
            QUERY_BUDGET * techniques,
        ),
        ("  the same, per technique", len(queries), per_check_all / techniques, QUERY_BUDGET),
        (f"scoring: one match of {EVENTS_PER_MATCH} events", MATCHES, per_match, MATCH_BUDGET),
    ]
    counts = ", ".join(f"Edition {e}: {len(a)} athletes" for e, a in athletes.items())
    print(f"LVL Rules engine benchmark ({counts}; {len(queries)} queries)")
    print(f"{'what':<40} {'samples':>9} {'mean':>11} {'budget':>9} {'ratio':>7}")
    for what, samples, mean, budget in rows:
        print(
            f"{what:<40} {samples:>9,} {mean * 1e6:>8.1f} µs {budget * 1e6:>6.0f} µs "
            f"{mean / budget:>7.2f}"
        )
    p95 = statistics.quantiles(times, n=20)[-1]
    print(f"scoring: 95th percentile {p95 * 1e6:.1f} µs a match; ratio 1.00 = exactly on budget")


if __name__ == "__main__":
    main()
