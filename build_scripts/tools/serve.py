"""Serve a built site the way production should: CSP, precompressed files, sane caching.

    python -m build_scripts.tools.serve SITE_DIR --port 8000 --host 127.0.0.1

Every response carries the headers of ``build_scripts/publish/headers.py``: the page
Content-Security-Policy (no 'wasm-unsafe-eval'), except the engine worker script, whose
policy adds 'wasm-unsafe-eval' (a dedicated worker takes its policy from its own response
headers); ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``. The
same headers are in ``<site>/_headers`` for a static host; that file itself is not served.

A request for ``X`` is answered with ``X.br`` (``Content-Encoding: br``) or ``X.gz``
(``gzip``) when that file exists and the client accepts that coding, brotli first. Files
whose name carries a version or a content hash (Pyodide's versioned folder, the engine's
hashed files, the theme's bundles) are cached for a year; everything else (the service
worker ``/sw.js`` included) is revalidated, whatever the query string says.

Every request gets an answer: a malformed request line 400, an unknown method 501 and a
known one other than GET or HEAD 405, a URL over 64 KiB 414, headers too large 431, an
unsupported HTTP version 505, a path that cannot name a file (too long, holding a NUL
byte or an unpaired surrogate, outside the site folder through a symlink, hidden) 404, a
request whose line and headers do not all arrive within ``timeout`` seconds 408, a
connection beyond ``max_connections`` 503, and a failure of this server 500. Slow
clients and file-descriptor limits are the business of :mod:`.connections`. A port
already in use is reported in one line.

Tests start it in a background thread: ``server, base_url = start_server(site_dir)``,
then ``server.shutdown(); server.server_close()`` (or ``stop_server(server)``).
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http
import io
import os
import sys
import threading
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from http.client import HTTPMessage
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import BinaryIO, ClassVar, Literal

from build_scripts.publish import security
from build_scripts.publish.headers import CACHE_REVALIDATE, cache_control
from build_scripts.publish.precompress import ENCODINGS
from build_scripts.tools.connections import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_TIMEOUT_S,
    BoundedServer,
    DeadlineReader,
)

Policies = str | Mapping[str, str] | None
# Files in the site directory that are instructions for a host, not part of the site.
NOT_SERVED = frozenset({"_headers"})
TEXT = "; charset=utf-8"
CONTENT_TYPES = {
    ".html": "text/html" + TEXT,
    ".css": "text/css" + TEXT,
    ".js": "text/javascript" + TEXT,
    ".mjs": "text/javascript" + TEXT,
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain" + TEXT,
    ".md": "text/markdown" + TEXT,
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".bin": "application/octet-stream",
    ".toml": "application/toml",
    ".csv": "text/csv" + TEXT,
}
# Content codings of precompressed siblings, in the order they are preferred.
SIBLINGS = tuple(ENCODINGS.items())
ALLOWED = "GET, HEAD"
# What a folder's URL without its trailing slash is answered with: a redirect.
TO_FOLDER: Literal["to folder"] = "to folder"


@dataclass(frozen=True, slots=True)
class Found:
    """The file that answers a URL, as read before anything is sent."""

    path: Path  # the file the URL names: its type is the answer's
    served: Path  # what is sent: that file or a precompressed sibling
    coding: str | None  # the sibling's content coding
    stat: os.stat_result
    vary: bool  # there are siblings: the answer varies by Accept-Encoding


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files from one directory with the headers the site needs."""

    protocol_version = "HTTP/1.1"
    # Answers to requests whose version is missing or unreadable get a status line and
    # headers too (http.server's default, HTTP/0.9, would send a bare body).
    default_request_version = "HTTP/1.0"
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        **CONTENT_TYPES,
    }
    server: SiteServer

    def setup(self) -> None:
        self.timeout = self.server.client_timeout  # what each write may wait
        super().setup()
        self.rfile.close()  # http.server's own reader, unused: reads go through a deadline
        self.reader = DeadlineReader(self.connection, self.server.client_timeout)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        # Nothing of the previous request on this connection may describe this one.
        self.command, self.path, self.requestline = None, "", ""
        self.request_version = self.default_request_version
        self.answered = False
        self.reader.start_request(self.server.client_timeout)
        try:
            super().handle_one_request()
        except ConnectionError:
            raise  # the client went away: nobody to answer
        except Exception:  # a bug of this server: its traceback in the log, and a 500
            self.server.handle_error(self.request, self.client_address)
            self.close_connection = True
            if not self.answered:
                self.send_error(http.HTTPStatus.INTERNAL_SERVER_ERROR)
            return
        if self.reader.timed_out:
            self.close_connection = True
            if self.reader.received and not self.answered:  # not a connection left idle
                self.send_error(http.HTTPStatus.REQUEST_TIMEOUT)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.answered = True
        super().send_response(code, message)

    def end_headers(self) -> None:
        # Also for errors sent before the request line was understood (no path yet).
        for name, value in self.server.security_headers(_url_path(self)).items():
            self.send_header(name, value)
        super().end_headers()

    def _method_not_allowed(self) -> None:
        self.send_response(http.HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", ALLOWED)
        self.send_header("Content-Length", "0")
        self.close_connection = True
        self.end_headers()

    # The names http.server looks up for each method.
    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _method_not_allowed  # noqa: N815

    def send_head(self) -> BinaryIO | None:
        try:
            url = urllib.parse.urlsplit(self.path)
        except ValueError:
            self.send_error(http.HTTPStatus.BAD_REQUEST, "Malformed URL")
            return None
        try:
            found = self._find(url)
        except (OSError, ValueError) as error:
            # A name the file system cannot take: too long, a NUL byte (%00), an unpaired
            # surrogate (%ED%A0%80); or a file gone or unreadable since it was found.
            self.log_message("cannot serve %r: %s", self.path[:200], error)
            found = None
        if found is None:
            return self._not_found()
        if found == TO_FOLDER:
            location = urllib.parse.urlunsplit(("", "", url.path + "/", url.query, ""))
            self.send_response(http.HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        stat, coding = found.stat, found.coding
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-" + coding if coding else ""}"'
        if _not_modified(self.headers, etag, stat.st_mtime):
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self._common_headers(url, etag, stat.st_mtime, vary=found.vary)
            self.end_headers()
            return None
        try:
            stream = found.served.open("rb")
        except OSError:  # gone since it was found
            return self._not_found()
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(found.path)))
        if coding:
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(stat.st_size))
        self._common_headers(url, etag, stat.st_mtime, vary=found.vary)
        try:
            self.end_headers()
        except BaseException:
            stream.close()
            raise
        return stream

    def _find(self, url: urllib.parse.SplitResult) -> Found | Literal["to folder"] | None:
        """What answers ``url``: a file, a redirect to the folder (:data:`TO_FOLDER`), or
        nothing (None: 404). It only reads the file system, and lets its errors through."""
        path = Path(self.translate_path(self.path))
        root = Path(self.directory).resolve()
        if not path.resolve().is_relative_to(root):
            return None  # a symlink out of the site folder
        if path.is_dir():
            if not url.path.endswith("/"):
                return TO_FOLDER
            path = path / "index.html"
        if not path.is_file() or path.name.startswith(".") or path.name in NOT_SERVED:
            return None
        siblings = [
            (coding, sibling)
            for coding, suffix in SIBLINGS
            if path.suffix not in ENCODINGS.values()
            and (sibling := path.with_name(path.name + suffix)).is_file()
            and sibling.resolve().is_relative_to(root)
        ]
        accepted = _accepted_codings(self.headers.get("Accept-Encoding", ""))
        accepted &= set(self.server.codings)
        coding, served = next(((c, f) for c, f in siblings if c in accepted), (None, path))
        return Found(
            path=path, served=served, coding=coding, stat=served.stat(), vary=bool(siblings)
        )

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
        """Send file bodies with sendfile(2): far less CPU than copying in Python."""
        del outputfile  # the socket itself is written; socket.sendfile falls back to send()
        try:
            self.connection.sendfile(source)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the browser cancelled the download

    def _common_headers(
        self, url: urllib.parse.SplitResult, etag: str, mtime: float, *, vary: bool
    ) -> None:
        self.send_header("Cache-Control", cache_control(url.path))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
        if vary:
            self.send_header("Vary", "Accept-Encoding")

    def _not_found(self) -> BinaryIO | None:
        page = Path(self.directory) / "404.html"
        if not page.is_file():
            self.send_error(http.HTTPStatus.NOT_FOUND)
            return None
        body = page.read_bytes()
        self.send_response(http.HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", CONTENT_TYPES[".html"])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", CACHE_REVALIDATE)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None

    def log_message(self, format: str, *args: object) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)


def _url_path(handler: SiteHandler) -> str:
    """The path of the request's URL; "/" when there is none, or none that parses."""
    try:
        return urllib.parse.urlsplit(getattr(handler, "path", "") or "/").path or "/"
    except ValueError:
        return "/"


def _accepted_codings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (q > 0); ``*`` stands for
    every one it does not name."""
    accepted, refused = set(), set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        quality = params.strip().removeprefix("q=").strip()
        (accepted if not quality or _float(quality) > 0 else refused).add(name)
    if "*" in accepted:
        accepted |= {coding for coding, _ in SIBLINGS} - refused
    return accepted


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def _not_modified(headers: HTTPMessage, etag: str, mtime: float) -> bool:
    if_none_match = headers.get("If-None-Match")
    if if_none_match is not None:
        return etag in (tag.strip() for tag in if_none_match.split(",")) or if_none_match == "*"
    since = headers.get("If-Modified-Since")
    if since:
        try:
            return int(mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError):
            return False
    return False


class SiteServer(BoundedServer):
    """A threaded server whose handler serves one site directory (``timeout`` and
    ``max_connections``: see :mod:`.connections`)."""

    handler_class: ClassVar[type[SiteHandler]] = SiteHandler  # benchmarks count bytes sent

    def __init__(
        self,
        site_dir: Path,
        host: str,
        port: int,
        *,
        quiet: bool = True,
        csp: Policies = None,
        codings: tuple[str, ...] = ("br", "gzip"),
        timeout: float = DEFAULT_TIMEOUT_S,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self.site_dir = Path(site_dir).resolve()
        self.quiet = quiet
        self.csp = csp
        self.codings = codings
        handler = functools.partial(self.handler_class, directory=os.fspath(self.site_dir))
        super().__init__((host, port), handler, timeout=timeout, max_connections=max_connections)

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that went away mid-request (a page left while loading) is no error."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    def security_headers(self, url_path: str) -> dict[str, str]:
        """The headers of ``security.headers_for``, with the ``csp`` override applied."""
        headers = security.headers_for(url_path)
        if isinstance(self.csp, str):
            headers["Content-Security-Policy"] = self.csp
        elif self.csp is not None and url_path in self.csp:
            headers["Content-Security-Policy"] = self.csp[url_path]
        return headers

    def refusal_headers(self) -> dict[str, str]:
        return {**super().refusal_headers(), **self.security_headers("/")}


def start_server(
    site_dir: Path,
    port: int = 0,
    host: str = "127.0.0.1",
    *,
    quiet: bool = True,
    csp: Policies = None,
    codings: tuple[str, ...] = ("br", "gzip"),
    server_class: type[SiteServer] = SiteServer,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> tuple[SiteServer, str]:
    """Serve ``site_dir`` from a background thread; return the server and its base URL.

    ``csp`` overrides the Content-Security-Policy: a string for every response (the
    benchmark pages that run Pyodide on the page need ``security.WORKER_POLICY``), or a
    mapping from URL path to policy for some (tests serve the engine worker with
    ``security.PAGE_POLICY`` to check that the engine then fails fast and clearly).
    ``codings``: the precompressed siblings it may send, as a host that serves only gzip
    (``("gzip",)``) or only the files themselves (``()``) would. ``server_class``: a
    subclass (tests and benchmarks that log what is sent). ``timeout`` and
    ``max_connections``: see :mod:`.connections` (tests of slow clients make them small).
    """
    server = server_class(
        site_dir,
        host,
        port,
        quiet=quiet,
        csp=csp,
        codings=codings,
        timeout=timeout,
        max_connections=max_connections,
    )
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host}:{bound_port}/"


def stop_server(server: SiteServer) -> None:
    """Stop a server from :func:`start_server` and free its port."""
    server.shutdown()
    server.server_close()


def main(argv: list[str] | None = None) -> int:
    """Serve a site directory in the foreground until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    args = parser.parse_args(argv)
    if not args.site_dir.is_dir():
        print(f"serve: {args.site_dir} is not a directory; build the site first", file=sys.stderr)
        return 2
    try:
        server = SiteServer(args.site_dir, args.host, args.port, quiet=args.quiet)
    except OSError as error:
        print(f"serve: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"Serving {args.site_dir} at http://{args.host}:{server.server_address[1]}/")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
