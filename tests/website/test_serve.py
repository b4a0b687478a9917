"""Caddy, as build_scripts/tools/serve.py configures it, sends for every kind of path of a
real build the headers ``_headers`` gives a static host; refuses hidden paths; sends
precompressed files by Accept-Encoding and caches as immutable only versioned names; and
neither a slow client nor hundreds of half-open connections keep a visitor from being
answered (raw sockets on loopback, with a short timeout given to the server)."""

from __future__ import annotations

import gzip
import http.client
import socket
import subprocess
import sys
import time
from pathlib import Path

import brotli
import pytest
from headers_file import on_cloudflare, on_netlify, parse_host_headers
from timeline_names import IN_FORCE

from build_scripts.publish import security
from build_scripts.publish.code_folder import published_in
from build_scripts.publish.headers import CACHE_FOREVER, CACHE_REVALIDATE
from build_scripts.tools import venue
from build_scripts.tools.serve import start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]
BODY = b"<!doctype html><title>home</title>" + b"x" * 2000
MISSING = b"<!doctype html><title>missing</title>"
GET = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
HALF_A_REQUEST_LINE = b"GET /index.ht"  # the rest never comes
# The server's read timeout in the tests of slow clients: short, yet long enough for a
# request sent whole to be read on a loaded machine.
SERVER_WAIT_S = 1.0
# Only bounds what a broken server would make a test wait; no assertion is about time.
CLIENT_WAIT_S = 20.0
HALF_OPEN = 300  # connections a client opens and leaves idle (130 stopped the old server)
SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A small site: a page with .br/.gz siblings, hashed and versioned engine files, a
    folder, the site's 404 page, and what must never be served: a .git folder, a hidden
    file, the host's _headers."""
    root = tmp_path_factory.mktemp("serve") / "site"
    (root / "engine" / "pyodide" / "314.0.8").mkdir(parents=True)
    (root / "rules").mkdir()
    (root / ".git").mkdir()
    (root / "index.html").write_bytes(BODY)
    (root / "index.html.gz").write_bytes(gzip.compress(BODY))
    (root / "index.html.br").write_bytes(brotli.compress(BODY))
    (root / "rules" / "index.html").write_bytes(BODY)
    (root / "404.html").write_bytes(MISSING)
    (root / "engine" / "snapshot-0123456789abcdef.bin").write_bytes(b"\0" * 100)
    (root / "engine" / "pyodide" / "314.0.8" / "pyodide.mjs").write_text("//", "utf-8")
    (root / ".git" / "config").write_text("[remote]", "utf-8")
    (root / "rules" / ".hidden").write_text("hidden", "utf-8")
    (root / ".hidden").write_text("hidden", "utf-8")
    (root / "_headers").write_text("/*\n  X-Frame-Options: DENY\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def server(site):
    server, _url = start_server(site, timeout=SERVER_WAIT_S)
    yield server
    stop_server(server)


def request(
    server, path: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lowercase names) and body of one request; redirects not followed."""
    connection = http.client.HTTPConnection(*server.server_address, timeout=CLIENT_WAIT_S)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        return response.status, {n.lower(): v for n, v in response.getheaders()}, body
    finally:
        connection.close()


def connect(server) -> socket.socket:
    return socket.create_connection(server.server_address, timeout=CLIENT_WAIT_S)


def status_line(connection: socket.socket) -> str:
    """The status line read from ``connection`` ("" if it closed first)."""
    received = b""
    while b"\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            break
        received += chunk
    return received.split(b"\r\n", 1)[0].decode("latin-1")


@pytest.mark.parametrize("path", ["/.git/config", "/.hidden", "/rules/.hidden", "/_headers"])
def test_hidden_paths_and_the_hosts_file_are_missing(server, path):
    """A path with a segment starting with "." (a .git folder left in the site) and
    _headers answer the site's 404 page, as a missing file does (the old server sent
    /.git/config)."""
    assert (404, MISSING) == request(server, path)[::2]
    assert (404, MISSING) == request(server, "/no/such/file.js")[::2]


def test_only_get_and_head(server):
    """Another method is refused 405, saying which are allowed, with the site's headers."""
    status, headers, _ = request(server, "/", method="POST")
    assert (405, "GET, HEAD") == (status, headers["allow"])
    assert security.PAGE_POLICY == headers["content-security-policy"]


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"c" * 70_000 + b"\r\n\r\n", 431),
        (b"HELLO\r\n\r\n", 400),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
        (b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        (b"GET /" + b"b" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 404),
    ],
    ids=["huge-header", "garbage", "http-9.9", "nul-byte", "5000-byte-name"],
)
def test_malformed_requests_are_answered(server, request_bytes, status):
    """Each malformed request gets a status line, a name no file can have a 404."""
    with connect(server) as connection:
        connection.sendall(request_bytes)
        assert status_line(connection).startswith(f"HTTP/1.1 {status} ")


@pytest.mark.parametrize(
    ("accept", "encoding"),
    [("br, gzip", "br"), ("gzip, deflate", "gzip"), ("identity", None), ("br;q=0, gzip", "gzip")],
)
def test_precompressed_siblings_by_accept_encoding(server, accept, encoding):
    """Brotli first, then gzip, else the file itself; every answer varies by encoding."""
    status, headers, body = request(server, "/", headers={"Accept-Encoding": accept})
    assert (200, encoding, "Accept-Encoding") == (
        status,
        headers.get("content-encoding"),
        headers["vary"],
    )
    decode = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding]
    assert BODY == decode(body)


@pytest.mark.parametrize(
    ("path", "control"),
    [
        ("/engine/snapshot-0123456789abcdef.bin", CACHE_FOREVER),
        ("/engine/pyodide/314.0.8/pyodide.mjs", CACHE_FOREVER),
        ("/engine/pyodide/314.0.8/missing.mjs", CACHE_REVALIDATE),  # a 404
        ("/?v=1", CACHE_REVALIDATE),
        ("/index.html?v=0123456789abcdef", CACHE_REVALIDATE),
    ],
)
def test_immutable_only_for_names_with_a_hash_or_version(server, path, control):
    """A query string never makes an answer immutable, nor a 404; a versioned name does."""
    assert control == request(server, path)[1]["cache-control"]


def test_a_folder_without_its_slash_is_redirected(server):
    """/rules answers a redirect to /rules/, which answers its index.html."""
    status, headers, _ = request(server, "/rules")
    assert (308, "/rules/") == (status, headers["location"])
    assert (200, BODY) == request(server, "/rules/")[::2]


def test_a_taken_port_is_one_line(server, site):
    """Serving on a port in use says so in one line and exits 2, with no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "build_scripts.tools.serve", str(site), "--port", str(server.port)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert 2 == done.returncode
    assert 1 == len(done.stderr.strip().splitlines())
    assert "cannot listen on" in done.stderr


def test_servers_run_side_by_side_each_on_a_free_port(site):
    """Three servers at once (no admin port they would share), each answering."""
    servers = [start_server(site)[0] for _ in range(3)]
    try:
        assert 3 == len({s.port for s in servers})
        assert [200] * 3 == [request(s, "/")[0] for s in servers]
    finally:
        for started in servers:
            stop_server(started)


def test_a_slow_client_is_closed_and_others_are_answered_meanwhile(server):
    """Half a request line, then nothing: the connection is closed once the read timeout
    is over, and a visitor asking meanwhile is answered at once."""
    with connect(server) as slow:
        slow.sendall(HALF_A_REQUEST_LINE)
        assert (200, BODY) == request(server, "/")[::2]
        slow.settimeout(CLIENT_WAIT_S)
        received = b""
        while chunk := slow.recv(65536):  # "" once the server closes
            received += chunk
    assert not received.startswith(b"HTTP/1.1 200")


def test_half_open_connections_do_not_keep_a_visitor_waiting(site):
    """A client holds 300 connections open, sending nothing or half a request: a visitor's
    GETs are all answered (the old server answered 503 once 130 were held)."""
    server, _url = start_server(site, timeout=CLIENT_WAIT_S)
    held = []
    try:
        for number in range(HALF_OPEN):
            held.append(connect(server))
            if number % 2:
                held[-1].sendall(HALF_A_REQUEST_LINE)
        answers = [request(server, path)[0] for path in ("/", "/rules/", "/404.html") * 2]
        assert [200] * 6 == answers
    finally:
        for connection in held:
            connection.close()
        stop_server(server)


def kinds_of_path(site: Path) -> list[tuple[str, str, dict[str, str], int]]:
    """(what, URL path, request headers, status) for every kind of path of a build."""
    worker = "/" + published_in(site, security.WORKER_SOURCE)
    client = "/" + published_in(site, "assets/engine/engine-client.js")
    (theme,) = list((site / "assets" / "stylesheets").glob("main.*.min.css"))
    page = f"/rules/{IN_FORCE}/5/"
    assert (site / f"rules/{IN_FORCE}/5/index.html.br").is_file()
    return [
        ("a page", page + "index.html", {}, 200),
        ("a folder", page, {}, 200),
        ("a page as brotli", page, {"Accept-Encoding": "br, gzip"}, 200),
        ("a page as gzip", page, {"Accept-Encoding": "gzip"}, 200),
        ("a page as it is", page, {"Accept-Encoding": "identity"}, 200),
        ("a versioned theme file", "/" + theme.relative_to(site).as_posix(), {}, 200),
        ("a script in the code folder", client, {}, 200),
        ("the engine worker", worker, {"Accept-Encoding": "br"}, 200),
        ("the service worker", "/sw.js", {}, 200),
        ("the search index", "/search/search_index.json", {"Accept-Encoding": "gzip"}, 200),
        ("a missing page", "/no/such/page/", {}, 404),
        ("a missing file by the worker", worker.replace("worker", "nothing"), {}, 404),
        ("a folder without its slash", page.rstrip("/"), {}, 308),
    ]


def test_caddy_sends_what_the_headers_file_gives_every_kind_of_path(built_site):
    """For every kind of path of a real build (GET and HEAD), Caddy's security headers and
    Cache-Control are what _headers gives that URL as Cloudflare Pages and Netlify read it
    (Cache-Control: revalidate where _headers leaves it to the host, and for a 404, which
    its folder's rule would make immutable), and a precompressed answer is the encoding
    asked for."""
    rules = parse_host_headers((built_site.site / "_headers").read_text(encoding="utf-8"))
    server, _url = start_server(built_site.site)
    differ = {}
    try:
        for what, path, asked, expected_status in kinds_of_path(built_site.site):
            for method in ("GET", "HEAD"):
                status, headers, _ = request(server, path, method, asked)
                names = [*SECURITY_HEADERS, "Cache-Control"]
                sent = {name: headers.get(name.lower()) for name in names}
                for host in (on_cloudflare, on_netlify):
                    given = host(rules, path)
                    wanted = {name: given.get(name.lower()) for name in names}
                    wanted["Cache-Control"] = wanted["Cache-Control"] or CACHE_REVALIDATE
                    if expected_status == 404:  # never a missing file cached for a year
                        wanted["Cache-Control"] = CACHE_REVALIDATE
                    if (status, sent) != (expected_status, wanted):
                        differ[(what, method, host.__name__)] = (status, sent, wanted)
                coding = asked.get("Accept-Encoding", "").split(",")[0]
                file = built_site.site / path.lstrip("/")
                file = file / "index.html" if file.is_dir() else file
                suffix = {"br": ".br", "gzip": ".gz"}.get(coding, "")
                if status == 200 and suffix and file.with_name(file.name + suffix).is_file():
                    assert (coding, "Accept-Encoding") == (
                        headers.get("content-encoding"),
                        headers.get("vary"),
                    ), what
    finally:
        stop_server(server)
    assert {} == differ


def test_the_access_log_names_each_answer(site):
    """The server's log file has one JSON line per answer: path, status, bytes."""
    import json

    server, _url = start_server(site)
    try:
        request(server, "/", headers={"Accept-Encoding": "br"})
        request(server, "/.git/config")
        deadline = time.monotonic() + CLIENT_WAIT_S
        while time.monotonic() < deadline and len(server.log_file.read_text().splitlines()) < 2:
            time.sleep(0.05)
        entries = [json.loads(line) for line in server.log_file.read_text().splitlines()]
    finally:
        stop_server(server)
    assert [("/", 200, len(brotli.compress(BODY))), ("/.git/config", 404, len(MISSING))] == [
        (e["request"]["uri"], e["status"], e["size"]) for e in entries
    ]


def test_a_venue_is_told_the_address_phones_open(capsys):
    """Serving every address prints this machine's own IPv4 addresses, none a loopback
    one, each with the port, and a QR code; a loopback host prints none. Read from the
    interfaces: nothing is sent anywhere."""
    for address in venue.addresses("0.0.0.0"):  # noqa: S104 (no server: a name only)
        assert 4 == len(address.split("."))
        assert not address.startswith("127.")
    assert [] == venue.addresses("127.0.0.1")
    assert ["192.0.2.7"] == venue.addresses("192.0.2.7")
    venue.print_addresses("192.0.2.7", 8000)
    printed = capsys.readouterr().out
    assert "http://192.0.2.7:8000/" in printed
    assert "█" in printed  # the QR code
