"""build_scripts/tools/serve.py answers every request, never serves a file outside the site
folder, sends precompressed files by Accept-Encoding, and caches as immutable only files
whose name carries a content hash or version (raw sockets where a client library would
refuse to send the request)."""

from __future__ import annotations

import gzip
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import brotli
import pytest

from build_scripts.publish.headers import CACHE_FOREVER, CACHE_REVALIDATE
from build_scripts.tools.serve import SiteHandler, SiteServer, start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]
BODY = b"<!doctype html><title>home</title>" + b"x" * 2000
GET = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
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
