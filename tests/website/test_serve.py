"""build_scripts/tools/serve.py answers every request, never serves a file outside the site
folder, sends precompressed files by Accept-Encoding, and caches as immutable only files
whose name carries a content hash or version (raw sockets where a client library would
refuse to send the request). Slow clients time out, connections beyond the limit are
refused at once, and running out of file descriptors neither stops it nor spins it:
with small limits and timeouts given to the server, never hundreds of sockets."""

from __future__ import annotations

import gzip
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import brotli
import pytest

from build_scripts.publish.headers import CACHE_FOREVER, CACHE_REVALIDATE
from build_scripts.tools.connections import DESCRIPTORS_PER_CONNECTION
from build_scripts.tools.serve import SiteHandler, SiteServer, start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]
BODY = b"<!doctype html><title>home</title>" + b"x" * 2000
GET = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
HALF_A_REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n"  # the blank line never comes
# The server's timeout in the tests of slow clients: short, yet long enough for a request
# sent whole to be read on a loaded machine.
SERVER_WAIT_S = 1.0
# Only bounds what a broken server would make a test wait; no assertion is about time.
CLIENT_WAIT_S = 20.0


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A small site: a page with .br/.gz siblings, hashed and versioned engine files, a
    symlink out of the folder, and a secret next to the folder."""
    base = tmp_path_factory.mktemp("serve")
    root = base / "site"
    (root / "engine" / "pyodide" / "314.0.8").mkdir(parents=True)
    (root / "index.html").write_bytes(BODY)
    (root / "index.html.gz").write_bytes(gzip.compress(BODY))
    (root / "index.html.br").write_bytes(brotli.compress(BODY))
    (root / "404.html").write_text("<!doctype html><title>missing</title>", "utf-8")
    (root / "engine" / "snapshot-0123456789abcdef.bin").write_bytes(b"\0" * 100)
    (root / "engine" / "pyodide" / "314.0.8" / "pyodide.mjs").write_text("//", "utf-8")
    (base / "secret.txt").write_text("not for the web", "utf-8")
    (root / "leak.txt").symlink_to(base / "secret.txt")
    return root


@pytest.fixture(scope="module")
def server(site):
    server, _url = start_server(site)
    yield server
    stop_server(server)


def raw(server, request: bytes) -> tuple[str, dict[str, str]]:
    """Send bytes as they are; return the status line and the headers of the answer."""
    with connect(server) as connection:
        connection.sendall(request)
        return answer(connection)


def connect(server) -> socket.socket:
    return socket.create_connection(server.server_address[:2], timeout=CLIENT_WAIT_S)


def answer(connection: socket.socket) -> tuple[str, dict[str, str]]:
    """The status line and headers read from ``connection`` ("" if it closed first)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            break
        received += chunk
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
    return head[0], headers


def status(line: str) -> int:
    return int(line.split()[1]) if line.startswith("HTTP/1.1 ") else 0


def served_once_free(server) -> str:
    """GET / again while it is refused (503: every connection taken); the status line of
    the first other answer."""
    deadline = time.monotonic() + CLIENT_WAIT_S
    line, _ = raw(server, GET)
    while status(line) == 503 and time.monotonic() < deadline:
        time.sleep(0.05)
        line, _ = raw(server, GET)
    return line


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
        (b"GET http://[/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET /" + b"b" * 5000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"c" * 70_000 + b"\r\n\r\n", 431),
        (b"HELLO\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
        (b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
        (b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /index.html%00.txt HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /%ED%A0%80 HTTP/1.1\r\nHost: x\r\n\r\n", 404),
    ],
    ids=[
        "url-over-64k",
        "http-9.9",
        "bad-ipv6-host",
        "5000-byte-name",
        "huge-header",
        "garbage",
        "post",
        "unknown-method",
        "nul-byte",
        "nul-byte-in-a-name",
        "unpaired-surrogate",
    ],
)
def test_every_request_gets_an_answer_with_its_headers(server, request_bytes, status, capsys):
    """Each malformed or refused request is answered: a status line and the site's
    headers, and no traceback (a path holding %00 was dropped with one)."""
    line, headers = raw(server, request_bytes)
    assert line.startswith(f"HTTP/1.1 {status} ")
    assert "Content-Security-Policy" in headers
    if status == 405:
        assert "GET, HEAD" == headers["Allow"]
    assert "" == capsys.readouterr().err


class FailingHandler(SiteHandler):
    def send_head(self):
        raise RuntimeError("a bug of the server")


class FailingServer(SiteServer):
    handler_class = FailingHandler


def test_a_failure_of_the_server_is_answered_500(site):
    """A bug of the server still answers, 500 with the site's headers, and is logged."""
    server, _url = start_server(site, server_class=FailingServer)
    try:
        line, headers = raw(server, GET)
    finally:
        stop_server(server)
    assert line.startswith("HTTP/1.1 500 ")
    assert "Content-Security-Policy" in headers


def test_a_symlink_out_of_the_site_folder_is_not_followed(server):
    """A link to a file outside the site folder answers 404, not the file."""
    line, _ = raw(server, b"GET /leak.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert line.startswith("HTTP/1.1 404 ")


@pytest.mark.parametrize(
    ("accept", "encoding"),
    [
        ("br, gzip", "br"),
        ("gzip, deflate", "gzip"),
        ("identity", None),
        ("*", "br"),
        ("br;q=0, gzip", "gzip"),
    ],
)
def test_precompressed_siblings_by_accept_encoding(server, accept, encoding):
    """Brotli first, then gzip, else the file itself; every answer varies by encoding."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.server_address[1]}/", headers={"Accept-Encoding": accept}
    )
    with urllib.request.urlopen(request) as response:
        body = response.read()
        assert encoding == response.headers.get("Content-Encoding")
        assert "Accept-Encoding" == response.headers["Vary"]
    decode = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding]
    assert BODY == decode(body)


@pytest.mark.parametrize(
    ("path", "control"),
    [
        ("/engine/snapshot-0123456789abcdef.bin", CACHE_FOREVER),
        ("/engine/pyodide/314.0.8/pyodide.mjs", CACHE_FOREVER),
        ("/?v=1", CACHE_REVALIDATE),
        ("/index.html?v=0123456789abcdef", CACHE_REVALIDATE),
    ],
)
def test_immutable_only_for_names_with_a_hash_or_version(server, path, control):
    """A query string never makes an answer immutable; a hashed or versioned name does."""
    url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    with urllib.request.urlopen(url) as response:
        assert control == response.headers["Cache-Control"]


def test_a_taken_port_is_one_line(server, site):
    """Serving on a port in use says so in one line and exits 2, with no traceback."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "build_scripts.tools.serve",
            str(site),
            "--port",
            str(server.server_address[1]),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert 2 == done.returncode
    assert 1 == len(done.stderr.strip().splitlines())
    assert "cannot listen on" in done.stderr


def test_missing_file_is_404_not_an_error(server):
    """A missing file gets the site's 404 page."""
    url = f"http://127.0.0.1:{server.server_address[1]}/no/such/file.js"
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url)
    caught.value.close()
    assert 404 == caught.value.code


def test_connections_beyond_the_limit_are_refused_at_once(site):
    """With every connection held by a slow client, another is answered 503 (with the
    site's headers and Retry-After) at once instead of waiting for them."""
    server, _url = start_server(site, timeout=CLIENT_WAIT_S, max_connections=2)
    slow = [connect(server) for _ in range(2)]
    try:
        for connection in slow:
            connection.sendall(HALF_A_REQUEST)
        line, headers = raw(server, GET)
        assert line.startswith("HTTP/1.1 503 ")
        assert ("1", True) == (headers.get("Retry-After"), "Content-Security-Policy" in headers)
    finally:
        for connection in slow:
            connection.close()
        stop_server(server)


@pytest.mark.parametrize(
    ("sent", "expected"),
    [(HALF_A_REQUEST, "HTTP/1.1 408 "), (b"", "")],
    ids=["half-a-request", "idle"],
)
def test_a_slow_client_times_out_and_frees_its_connection(site, sent, expected):
    """A request not all there within the timeout is answered 408 and closed; a connection
    that sends nothing is closed. Either way the next client is served."""
    server, _url = start_server(site, timeout=SERVER_WAIT_S, max_connections=1)
    try:
        with connect(server) as slow:
            slow.sendall(sent)
            line, _ = answer(slow)
            assert expected == line[: len(expected)]
            assert bool(expected) == bool(line)
            while slow.recv(65536):  # the rest of the answer, until the server closes
                pass
        assert served_once_free(server).startswith("HTTP/1.1 200 ")
    finally:
        stop_server(server)


def test_a_request_trickling_in_is_cut_off(site):
    """A client sending its headers a byte at a time, each within the timeout, still has
    the whole timeout for the request, not for each byte: 408."""
    server, _url = start_server(site, timeout=SERVER_WAIT_S)
    try:
        with connect(server) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
            give_up = time.monotonic() + CLIENT_WAIT_S
            answered = False
            while not answered and time.monotonic() < give_up:
                slow.sendall(b"x")  # one byte every fifth of the timeout
                answered = bool(select.select([slow], [], [], SERVER_WAIT_S / 5)[0])
            line, _ = answer(slow)
    finally:
        stop_server(server)
    assert line.startswith("HTTP/1.1 408 ")


def test_a_client_that_does_not_read_frees_its_connection(site, tmp_path):
    """A client that asks for a large file and never reads it is dropped once a write has
    waited the timeout: the next client is served."""
    (tmp_path / "big.bin").write_bytes(b"")
    with (tmp_path / "big.bin").open("r+b") as big:
        big.truncate(256 * 1024 * 1024)  # sparse: no disk used
    server, _url = start_server(tmp_path, timeout=SERVER_WAIT_S, max_connections=1)
    try:
        with socket.socket() as reader:
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.settimeout(CLIENT_WAIT_S)
            reader.connect(server.server_address[:2])
            reader.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            assert served_once_free(server).startswith("HTTP/1.1 404 ")  # no index.html
    finally:
        stop_server(server)


def test_a_burst_of_connections_waits_in_the_backlog(site):
    """Forty connections made before the server accepts any all connect (a backlog of 5
    made the seventh wait a second for its SYN to be sent again) and are all answered."""
    server = SiteServer(site, "127.0.0.1", 0)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    clients: list[socket.socket] = []
    try:
        for _ in range(40):
            clients.append(socket.create_connection(server.server_address[:2], timeout=2))
        serving.start()
        for client in clients:
            client.settimeout(CLIENT_WAIT_S)
            client.sendall(GET)
        assert ["HTTP/1.1 200 "] * 40 == [answer(client)[0][:13] for client in clients]
    finally:
        for client in clients:
            client.close()
        if serving.is_alive():
            server.shutdown()
        server.server_close()


# A server whose process may open 64 files, almost all of them taken by the rest of the
# process (as a test runner's or a browser's would be): four free. It prints its port.
SHORT_OF_DESCRIPTORS = """
import os, resource, sys
from pathlib import Path
from build_scripts.tools.serve import SiteServer

resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
server = SiteServer(Path(sys.argv[1]), "127.0.0.1", 0, timeout=float(sys.argv[2]))
taken = []
while True:
    try:
        taken.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        break
for _ in range(4):
    os.close(taken.pop())
print(server.server_address[1], server.max_connections, flush=True)
server.serve_forever()
"""


def test_running_out_of_file_descriptors_refuses_and_recovers(site):
    """With almost no file descriptor free, the connections it cannot take are answered
    503 at once (the old server stopped answering and spun on accept()), those it holds
    time out with 408, and then it serves again."""
    with subprocess.Popen(
        [sys.executable, "-c", SHORT_OF_DESCRIPTORS, str(site), str(SERVER_WAIT_S)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            port, most = map(int, process.stdout.readline().split())
            assert most * DESCRIPTORS_PER_CONNECTION < 64  # what it takes on fits the limit
            server = type("Address", (), {"server_address": ("127.0.0.1", port)})
            slow = [connect(server) for _ in range(12)]
            for connection in slow:
                connection.sendall(HALF_A_REQUEST)
            statuses = sorted(status(answer(connection)[0]) for connection in slow)
            for connection in slow:
                connection.close()
            assert {408, 503} == set(statuses), statuses
            assert served_once_free(server).startswith("HTTP/1.1 200 ")
        finally:
            process.kill()
