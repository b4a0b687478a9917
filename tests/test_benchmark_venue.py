"""The venue benchmark's pieces that need no server: it connects to loopback addresses
only, reads every kind of response whole, plans the phones' visits from a site folder, and
prints percentiles and ratios right (benchmarks/venue.py, benchmarks/loopback_http.py)."""

from __future__ import annotations

import asyncio
import math
import random

import pytest

from benchmarks.loopback_http import (
    Connection,
    NotLoopbackError,
    RequestFailedError,
    Response,
    loopback,
    open_socket,
    read_response,
)
from benchmarks.venue import (
    CALCULATOR,
    SitePlan,
    markdown_table,
    page_assets,
    percentile,
    plan_visits,
)
from benchmarks.venue_load import Visit


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1"])
def test_loopback_addresses_are_accepted(host):
    """127.0.0.0/8 and ::1 are loopback."""
    assert host == loopback(host)


@pytest.mark.parametrize(
    "host",
    ["10.0.0.1", "192.168.1.20", "8.8.8.8", "2001:db8::1", "0.0.0.0", "localhost", ""],  # noqa: S104
)
def test_any_other_host_is_refused(host):
    """A network or public address, the any-address, or a name: refused."""
    with pytest.raises(NotLoopbackError):
        loopback(host)


def test_no_socket_is_opened_to_another_address():
    """A connection to a network address is refused before any socket is made."""
    with pytest.raises(NotLoopbackError):
        Connection("10.0.0.1", 80, timeout=1)
    with pytest.raises(NotLoopbackError):
        asyncio.run(open_socket("10.0.0.1", 80, timeout=1))


def _read(raw: bytes) -> Response:
    async def read() -> Response:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return await read_response(reader, timeout=1)

    return asyncio.run(read())


def test_a_response_with_a_length_is_read_to_its_end():
    """Content-Length: the body counted, the connection kept."""
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
    assert Response(status=200, head_bytes=len(head), body_bytes=5, keep_alive=True) == _read(
        head + b"hello"
    )


def test_a_chunked_response_is_read_with_its_trailer():
    """Transfer-Encoding: chunked, extensions and trailer fields included."""
    head = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
    body = b"3;x=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n"
    assert 13 == _read(head + body).body_bytes


def test_a_response_without_length_ends_when_the_server_closes():
    """Neither length nor chunks: the body runs to the close, the connection is done."""
    response = _read(b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 1\r\n\r\nbusy")
    assert (503, 4, False) == (response.status, response.body_bytes, response.keep_alive)


def test_connection_close_and_bodiless_statuses():
    """Connection: close is honoured; a 304 has no body whatever its length says."""
    response = _read(
        b"HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\nConnection: close\r\n\r\n"
    )
    assert (304, 0, False) == (response.status, response.body_bytes, response.keep_alive)


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "closed"),
        (b"HTTP/1.1 200 OK\r\nContent-Le", "closed"),
        (b"", "closed"),
        (b"SSH-2.0-OpenSSH\r\n\r\n", "malformed"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "malformed"),
    ],
)
def test_an_incomplete_or_foreign_answer_is_a_failure_of_its_kind(raw, kind):
    """A response cut short, or not HTTP at all, fails with what went wrong."""
    with pytest.raises(RequestFailedError) as failure:
        _read(raw)
    assert kind == failure.value.kind


def test_percentiles_interpolate_between_ranks():
    """p50 of 1..100 is 50.5; one value is every percentile; none is NaN."""
    values = [float(v) for v in range(1, 101)]
    assert 50.5 == percentile(values, 50)
    assert 99.01 == pytest.approx(percentile(values, 99))
    assert 7.0 == percentile([7.0], 95)
    assert math.isnan(percentile([], 50))


def test_a_page_asks_its_own_stylesheets_and_scripts(tmp_path):
    """Relative links resolve against the page; links to read and other origins are not
    fetched."""
    page = tmp_path / "rules" / "x" / "y" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        '<link rel="stylesheet" href="../../../assets/a.css">'
        '<link rel="canonical" href="https://example.org/">'
        '<link rel="modulepreload" href="/assets/m.js">'
        '<script src="../../../assets/b.js"></script><script>inline()</script>'
        '<script src="https://cdn.example/c.js"></script><a href="../z/">next</a>',
        "utf-8",
    )
    assert ("/assets/a.css", "/assets/m.js", "/assets/b.js") == page_assets(tmp_path, "/rules/x/y/")


def test_a_phone_fetches_an_asset_once_and_the_engine_after_the_calculator():
    """Assets are cached across visits; an engine phone starts at the calculator."""
    plan = SitePlan(
        rule_pages=("/rules/x/1/",),
        engine=("/engine/big.wasm",),
        assets={
            "/rules/x/1/": ("/a.css",),
            "/lookup/": ("/a.css", "/l.js"),
            CALCULATOR: ("/c.js",),
        },
    )
    visits = plan_visits(random.Random(1), plan, visits=4, engine=True)  # noqa: S311
    assert Visit(CALCULATOR, ("/c.js", "/engine/big.wasm")) == visits[0]
    fetched = [path for visit in visits for path in visit.then]
    assert len(fetched) == len(set(fetched))


def test_the_table_puts_servers_side_by_side_with_ratios():
    """Each server a column, each one's ratio to the first; a figure one lacks is 0."""
    table = markdown_table(
        {"old": {"done": 100.0, "errors, HTTP 503": 40.0}, "new": {"done": 150.0}}
    )
    assert [
        "| figure | old | new | new / old |",
        "|---|---|---|---|",
        "| done | 100 | 150 | 1.50 |",
        "| errors, HTTP 503 | 40 | 0 | 0.00 |",
    ] == table.splitlines()
