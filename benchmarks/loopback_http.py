"""A raw HTTP/1.1 client on asyncio streams that talks to loopback addresses only: the
phones of benchmarks/venue.py.

Every connection is opened by :meth:`Connection.open`, which refuses any host but a
literal loopback address (127.0.0.0/8 or ::1; a name is never resolved) and checks the
peer it reached again. Connecting and every read and write wait at most ``timeout``
seconds. Responses are read whole (Content-Length, chunked, or until the server closes)
and counted, not kept. A :class:`Pace` makes a slow client: its request sent in pieces,
its response read a few kilobytes at a time through a small receive buffer, so that the
server's writes wait for it as they would for a phone on a poor link.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
LOOPBACK_ONLY = "load goes to loopback addresses only (127.0.0.0/8, ::1)"
HEAD_LIMIT = 64 * 1024
SLOW_HEAD_LIMIT = 16 * 1024  # a response head longer than this fails as "malformed"
READ_SIZE = 64 * 1024
NO_BODY = frozenset({204, 304})


class NotLoopbackError(ValueError):
    """A host that is not a literal loopback address."""


class RequestFailedError(Exception):
    """A request that got no complete response: ``kind`` says how (``refused``,
    ``reset``, ``closed``, ``timeout (connect)``, ``timeout (response)``, ``malformed``);
    ``answered`` whether any byte of a response had arrived."""

    def __init__(self, kind: str, *, answered: bool = False) -> None:
        super().__init__(kind)
        self.kind = kind
        self.answered = answered


def loopback(host: str) -> str:
    """``host`` itself when it is a loopback address literal, else NotLoopbackError."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise NotLoopbackError(f"{host!r} is not an IP address: {LOOPBACK_ONLY}") from None
    if not address.is_loopback:
        raise NotLoopbackError(f"{host} is not a loopback address: {LOOPBACK_ONLY}")
    return host


def host_header(host: str, port: int) -> str:
    """The Host header's value for a literal address and port."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def request_bytes(path: str, host: str, port: int) -> bytes:
    """A GET as a phone's browser sends it (brotli or gzip accepted, kept alive)."""
    return (
        f"GET {path} HTTP/1.1\r\n"
        f"Host: {host_header(host, port)}\r\n"
        "User-Agent: lvl-venue-benchmark\r\n"
        "Accept: */*\r\n"
        "Accept-Encoding: br, gzip\r\n"
        "Connection: keep-alive\r\n\r\n"
    ).encode("ascii")


@dataclass(frozen=True, kw_only=True, slots=True)
class Pace:
    """A slow client: the request in ``pieces`` sent ``send_gap_s`` apart, the response
    read ``read_size`` bytes at a time at ``read_rate`` bytes per second."""

    pieces: int = 4
    send_gap_s: float = 0.5
    read_size: int = 4096
    read_rate: float = 32_000.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Response:
    """What arrived: the status, the bytes of the head and of the body (as sent), and
    whether the connection may carry another request."""

    status: int
    head_bytes: int
    body_bytes: int
    keep_alive: bool


async def _within(awaitable: Awaitable[T], timeout: float, kind: str, *, answered: bool) -> T:
    try:
        async with asyncio.timeout(timeout):
            return await awaitable
    except TimeoutError:
        raise RequestFailedError(kind, answered=answered) from None
    except asyncio.IncompleteReadError:
        raise RequestFailedError("closed", answered=answered) from None
    except asyncio.LimitOverrunError:
        raise RequestFailedError("malformed", answered=True) from None
    except (ConnectionError, OSError):
        raise RequestFailedError("reset", answered=answered) from None


async def _read_body(
    reader: asyncio.StreamReader, size: int | None, timeout: float, pace: Pace | None
) -> int:
    """Read ``size`` bytes (None: until the server closes); return how many came."""
    got = 0
    chunk = pace.read_size if pace else READ_SIZE
    while size is None or got < size:
        wanted = chunk if size is None else min(chunk, size - got)
        data = await _within(reader.read(wanted), timeout, "timeout (response)", answered=True)
        if not data:
            if size is None:
                return got
            raise RequestFailedError("closed", answered=True)
        got += len(data)
        if pace:
            await asyncio.sleep(len(data) / pace.read_rate)
    return got


async def _read_chunked(reader: asyncio.StreamReader, timeout: float, pace: Pace | None) -> int:
    got = 0
    while True:
        line = await _within(
            reader.readuntil(b"\r\n"), timeout, "timeout (response)", answered=True
        )
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise RequestFailedError("malformed", answered=True) from None
        if size == 0:
            while (
                await _within(
                    reader.readuntil(b"\r\n"), timeout, "timeout (response)", answered=True
                )
                != b"\r\n"
            ):
                pass  # a trailer field
            return got
        got += await _read_body(reader, size, timeout, pace)
        end = await _within(reader.readexactly(2), timeout, "timeout (response)", answered=True)
        if end != b"\r\n":
            raise RequestFailedError("malformed", answered=True)


async def read_response(
    reader: asyncio.StreamReader, *, timeout: float, pace: Pace | None = None
) -> Response:
    """Read one whole response to a GET from ``reader``."""
    head = await _within(
        reader.readuntil(b"\r\n\r\n"), timeout, "timeout (response)", answered=False
    )
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise RequestFailedError("malformed", answered=True)
    version, status = parts[0], int(parts[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if colon:
            key = name.strip().lower()
            headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    connection = headers.get("connection", "").lower()
    keep_alive = "close" not in connection and (version != "HTTP/1.0" or "keep-alive" in connection)
    if status in NO_BODY or 100 <= status < 200:
        body = 0
    elif "chunked" in headers.get("transfer-encoding", "").lower():
        body = await _read_chunked(reader, timeout, pace)
    elif headers.get("content-length", "").strip().isdigit():
        body = await _read_body(reader, int(headers["content-length"]), timeout, pace)
    else:
        body = await _read_body(reader, None, timeout, pace)
        keep_alive = False
    return Response(status=status, head_bytes=len(head), body_bytes=body, keep_alive=keep_alive)


async def open_socket(
    host: str, port: int, *, timeout: float, receive_buffer: int | None = None
) -> socket.socket:
    """A socket connected to a loopback ``host``, or RequestFailedError."""
    loopback(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setblocking(False)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    try:
        async with asyncio.timeout(timeout):
            await asyncio.get_running_loop().sock_connect(sock, (host, port))
        loopback(sock.getpeername()[0])
    except TimeoutError:
        sock.close()
        raise RequestFailedError("timeout (connect)") from None
    except ConnectionRefusedError:
        sock.close()
        raise RequestFailedError("refused") from None
    except OSError:
        sock.close()
        raise RequestFailedError("reset") from None
    return sock


class Connection:
    """One keep-alive connection to a loopback server, opened again when the server
    closed it; :meth:`get` retries once, on a fresh connection, a request that a reused
    connection lost before any answer (a browser does the same)."""

    def __init__(self, host: str, port: int, *, timeout: float, pace: Pace | None = None) -> None:
        self.host, self.port = loopback(host), port
        self.timeout = timeout
        self.pace = pace
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._used = 0  # requests answered on the current connection

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._streams is None:
            buffer = self.pace.read_size if self.pace else None
            sock = await open_socket(
                self.host, self.port, timeout=self.timeout, receive_buffer=buffer
            )
            # asyncio reads ahead up to twice the limit: a slow client's stays small.
            limit = SLOW_HEAD_LIMIT if self.pace else HEAD_LIMIT
            self._streams = await asyncio.open_connection(sock=sock, limit=limit)
            self._used = 0
        return self._streams

    async def _send(self, writer: asyncio.StreamWriter, request: bytes) -> None:
        pieces = self.pace.pieces if self.pace else 1
        step = -(-len(request) // pieces)
        for start in range(0, len(request), step):
            if start and self.pace:
                await asyncio.sleep(self.pace.send_gap_s)
            writer.write(request[start : start + step])
            await _within(writer.drain(), self.timeout, "timeout (response)", answered=False)

    async def _once(self, path: str) -> Response:
        reader, writer = await self._open()
        try:
            await self._send(writer, request_bytes(path, self.host, self.port))
        except RequestFailedError as failure:
            # A server may answer (503, 408) and close before the request is all sent.
            try:
                return await read_response(reader, timeout=1.0)
            except RequestFailedError:
                raise failure from None
        return await read_response(reader, timeout=self.timeout, pace=self.pace)

    async def get(self, path: str) -> Response:
        """GET ``path``: the whole response, or RequestFailedError."""
        try:
            response = await self._once(path)
        except RequestFailedError as failure:
            reused = self._used > 0
            await self.close()
            if not (reused and not failure.answered and failure.kind in ("closed", "reset")):
                raise
            try:
                response = await self._once(path)
            except RequestFailedError:
                await self.close()
                raise
        self._used += 1
        if not response.keep_alive:
            await self.close()
        return response

    async def close(self) -> None:
        """Close the connection, if open (a later get opens another)."""
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            try:
                async with asyncio.timeout(1):
                    await writer.wait_closed()
            except (TimeoutError, OSError):
                pass
