"""The venue benchmark's clients: phones, slow clients and half-open connections against
one server on loopback, and what each kind got. What they do is told in
benchmarks/venue.py's docstring; how fast and how many, in the constants below."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.loopback_http import Connection, Pace, RequestFailedError, loopback, open_socket

PHONE_CONNECTIONS = 2
RAMP_S = 2.0
THINK_MAX_S = 2.0
SLOW_PACE = Pace()
HALF_REQUEST = b"GET /rules/"  # half a request line
HALF_OPEN_REOPEN_S = 1.0
HALF_OPEN_OPEN_S = 10.0  # at most this long to open them all before the others start
HALF_OPEN_SETTLE_S = 1.0  # then this long for the server to refuse those it refuses


@dataclass(frozen=True, slots=True)
class Visit:
    """A page, then what it fetches once it has arrived (in parallel)."""

    page: str
    then: tuple[str, ...]


def requests_in(visits: Sequence[Visit]) -> int:
    """How many requests ``visits`` make."""
    return sum(1 + len(visit.then) for visit in visits)


@dataclass(slots=True)
class Tally:
    """What one kind of client got."""

    planned: int = 0
    done: int = 0
    bytes: int = 0
    seconds: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    async def fetch(self, connection: Connection, path: str) -> None:
        """GET ``path`` and count how it went."""
        start = time.monotonic()
        try:
            response = await connection.get(path)
        except RequestFailedError as failure:
            self.errors[failure.kind] += 1
            return
        if not 200 <= response.status < 400:
            self.errors[f"HTTP {response.status}"] += 1
            return
        self.seconds.append(time.monotonic() - start)
        self.done += 1
        self.bytes += response.head_bytes + response.body_bytes


@dataclass(slots=True)
class HalfOpen:
    """The half-open connections: how many are held now, how many were ever opened, how
    often the server closed one (or answered it), how often one could not connect."""

    held: int = 0
    opened: int = 0
    closed_by_server: int = 0
    failed: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class Load:
    """The traffic of one run, the same for every server."""

    host: str
    phones: list[list[Visit]]
    slow: list[list[Visit]]
    half_open: int
    timeout: float
    deadline: float


async def _phone(load: Load, port: int, visits: list[Visit], tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, RAMP_S))
    connections = [
        Connection(load.host, port, timeout=load.timeout) for _ in range(PHONE_CONNECTIONS)
    ]

    async def fetch_all(connection: Connection, queue: list[str]) -> None:
        while queue:
            await tally.fetch(connection, queue.pop(0))

    try:
        for number, visit in enumerate(visits):
            if number:
                await asyncio.sleep(rng.uniform(0, THINK_MAX_S))
            await tally.fetch(connections[0], visit.page)
            queue = list(visit.then)
            await asyncio.gather(*(fetch_all(c, queue) for c in connections))
    finally:
        for connection in connections:
            await connection.close()


async def _slow(load: Load, port: int, visits: list[Visit], tally: Tally) -> None:
    connection = Connection(load.host, port, timeout=load.timeout, pace=SLOW_PACE)
    try:
        for visit in visits:
            for path in (visit.page, *visit.then):
                await tally.fetch(connection, path)
    finally:
        await connection.close()


async def _hold(load: Load, port: int, number: int, stop: asyncio.Event, held: HalfOpen) -> None:
    while not stop.is_set():
        try:
            sock = await open_socket(load.host, port, timeout=load.timeout)
        except RequestFailedError:
            held.failed += 1
        else:
            reader, writer = await asyncio.open_connection(sock=sock)
            try:
                if number % 2:
                    writer.write(HALF_REQUEST)
                held.held += 1
                held.opened += 1
                closed = asyncio.ensure_future(reader.read(1))
                stopped = asyncio.ensure_future(stop.wait())
                await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
                held.held -= 1
                if closed.done():
                    held.closed_by_server += 1
                    closed.exception()  # a reset is a close too: retrieved, not raised
                for task in (closed, stopped):
                    task.cancel()
            except (ConnectionError, OSError):
                held.closed_by_server += 1
            finally:
                writer.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), HALF_OPEN_REOPEN_S)


@dataclass(kw_only=True, slots=True)
class Result:
    """One server's figures."""

    phones: Tally
    slow: Tally
    half_open: HalfOpen
    held_at_start: int
    seconds: float


async def run_load(load: Load, port: int) -> Result:
    """The whole load on the server at ``port``: hold the half-open connections, run the
    phones and slow clients until done or the deadline, release the held connections."""
    loopback(load.host)
    phones = Tally(planned=sum(requests_in(v) for v in load.phones))
    slow = Tally(planned=sum(requests_in(v) for v in load.slow))
    held = HalfOpen()
    stop = asyncio.Event()
    holders = [asyncio.create_task(_hold(load, port, n, stop, held)) for n in range(load.half_open)]
    opening = time.monotonic() + HALF_OPEN_OPEN_S
    while held.opened + held.failed < load.half_open and time.monotonic() < opening:
        await asyncio.sleep(0.05)
    await asyncio.sleep(HALF_OPEN_SETTLE_S)
    held_at_start = held.held
    start = time.monotonic()
    clients = [_phone(load, port, v, phones, seed) for seed, v in enumerate(load.phones)]
    clients += [_slow(load, port, v, slow) for v in load.slow]
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(load.deadline):
            await asyncio.gather(*clients)
    seconds = time.monotonic() - start
    stop.set()
    await asyncio.gather(*holders, return_exceptions=True)
    return Result(
        phones=phones, slow=slow, half_open=held, held_at_start=held_at_start, seconds=seconds
    )
