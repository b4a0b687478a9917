"""How many connections the site server holds, and for how long.

:class:`BoundedServer` is a threading HTTP server that cannot be starved by slow clients
or run out of file descriptors:

- at most ``max_connections`` connections are served at once, each by its own thread;
  a connection beyond them is answered ``503 Service Unavailable`` (with ``Retry-After``)
  and closed at once, so it neither waits nor holds a thread;
- the limit never exceeds what the process's file-descriptor limit allows
  (:func:`connection_limit`: Debian's default 1,024 allows the default 128);
- should ``accept()`` still find every descriptor taken (other parts of the process
  hold them), the one spare descriptor kept for this is freed to accept the waiting
  connection and answer it 503, instead of returning to a listening socket that stays
  readable, which would spin a core;
- the listen backlog is :data:`LISTEN_BACKLOG`, not socketserver's 5, so that a burst of
  connections (a page and its assets, several tabs) waits in the kernel instead of
  retrying after a second.

:class:`DeadlineReader` gives the handler its request bytes: a request's line and
headers must all arrive within ``timeout`` seconds of the wait for it starting (a client
trickling one byte at a time is cut off too), and a connection idle that long between
requests is closed. Each write may wait ``timeout`` seconds for the client to read.
"""

from __future__ import annotations

import contextlib
import errno
import io
import math
import os
import resource
import socket
import threading
import time
from http.server import ThreadingHTTPServer

DEFAULT_TIMEOUT_S = 15.0
DEFAULT_MAX_CONNECTIONS = 128
LISTEN_BACKLOG = 128
# Descriptors a connection may hold: its socket and the file being sent.
DESCRIPTORS_PER_CONNECTION = 2
# Descriptors kept for the rest of the process: standard streams, the listening socket,
# its selector, imports, the spare one.
RESERVED_DESCRIPTORS = 32
# How long to wait before accepting again when even the spare descriptor is gone.
ACCEPT_PAUSE_S = 0.1
OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def connection_limit(wanted: int) -> int:
    """``wanted``, or fewer if the process's file-descriptor limit cannot hold them."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, (soft - RESERVED_DESCRIPTORS) // DESCRIPTORS_PER_CONNECTION))


class DeadlineReader(io.RawIOBase):
    """A socket's bytes, each read waiting only until the current request's deadline."""

    def __init__(self, connection: socket.socket, write_timeout: float) -> None:
        super().__init__()
        self.connection = connection
        self.write_timeout = write_timeout
        self.deadline = math.inf
        self.received = 0  # bytes received since the current request began
        self.timed_out = False

    def start_request(self, timeout: float) -> None:
        """A new request begins: its line and headers must arrive within ``timeout`` s."""
        self.deadline = time.monotonic() + timeout
        self.received = 0
        self.timed_out = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            self.timed_out = True
            raise TimeoutError("the request did not arrive in time")
        self.connection.settimeout(remaining)
        try:
            count = self.connection.recv_into(buffer)
        except TimeoutError:
            self.timed_out = True
            raise
        finally:
            self.connection.settimeout(self.write_timeout)  # what writes may wait
        self.received += count
        return count


class BoundedServer(ThreadingHTTPServer):
    """A threading HTTP server serving at most ``max_connections`` connections at once,
    each with ``timeout`` (see the module's docstring)."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(
        self,
        address: tuple[str, int],
        handler: object,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self.client_timeout = timeout
        self.max_connections = connection_limit(max_connections)
        self._slots = threading.BoundedSemaphore(self.max_connections)
        self._spare: int | None = None  # server_close() runs if the address is taken
        super().__init__(address, handler)
        self._spare = _spare_descriptor()

    def refusal_headers(self) -> dict[str, str]:
        """Headers of the 503 that refuses a connection beyond the limit (a subclass
        adds those every answer of its site carries)."""
        return {"Retry-After": "1"}

    def get_request(self) -> tuple[socket.socket, object]:
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in OUT_OF_DESCRIPTORS:
                self._refuse_waiting_connection()
            raise  # socketserver drops a failed accept() and waits for the next one

    def process_request(self, request: socket.socket, client_address: object) -> None:
        if not self._slots.acquire(blocking=False):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()  # no thread started to release it
            raise

    def process_request_thread(self, request: socket.socket, client_address: object) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def server_close(self) -> None:
        super().server_close()
        if self._spare is not None:
            os.close(self._spare)
            self._spare = None

    def _refuse(self, request: socket.socket) -> None:
        """Answer 503 without reading the request, and close: never blocks."""
        with contextlib.suppress(OSError):
            request.setblocking(False)
            request.sendall(_status_only(503, "Service Unavailable", self.refusal_headers()))
            request.recv(65536)  # what the client sent: closed unread, it would be reset
        self.shutdown_request(request)

    def _refuse_waiting_connection(self) -> None:
        """accept() found no free descriptor: the connection stays queued and the
        listening socket readable. Free the spare descriptor to take it and refuse it."""
        if self._spare is not None:
            os.close(self._spare)
            try:
                request, _address = self.socket.accept()
            except OSError:
                pass
            else:
                self._refuse(request)
            self._spare = _spare_descriptor()
        if self._spare is None:
            time.sleep(ACCEPT_PAUSE_S)  # not even one descriptor: wait for one to close


def _spare_descriptor() -> int | None:
    try:
        return os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None


def _status_only(code: int, reason: str, headers: dict[str, str]) -> bytes:
    lines = [
        f"HTTP/1.1 {code} {reason}",
        "Content-Length: 0",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
