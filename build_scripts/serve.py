"""Serve a built site the way production should: CSP, precompressed files, sane caching.

    python build_scripts/serve.py SITE_DIR --port 8000 --host 127.0.0.1

Every response carries the security headers of ``build_scripts/security.py``: the page
Content-Security-Policy (no 'wasm-unsafe-eval'), except the engine worker script, whose
policy adds 'wasm-unsafe-eval' (a dedicated worker takes its policy from its own response
headers); ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``. The
same headers are in ``<site>/_headers`` for a static host; that file itself is not served.

A request for ``X`` is answered with ``X.gz`` and ``Content-Encoding: gzip`` when that
file exists and the client accepts gzip. Engine files whose URL names a version or a
content hash are cached for a year; everything else (the service worker ``/sw.js``
included) is revalidated.

Tests start it in a background thread: ``server, base_url = start_server(site_dir)``,
then ``server.shutdown(); server.server_close()`` (or ``stop_server(server)``).
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http
import os
import re
import sys
import threading
import urllib.parse
from collections.abc import Mapping
from http.client import HTTPMessage
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO, ClassVar

Policies = str | Mapping[str, str] | None

if __package__ in (None, ""):  # run as a script: python build_scripts/serve.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_scripts import security  # noqa: E402

# The page policy; kept under its old name for callers that import it.
CONTENT_SECURITY_POLICY = security.PAGE_POLICY
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
CACHE_FOREVER = "public, max-age=31536000, immutable"
CACHE_REVALIDATE = "no-cache"
# /engine/pyodide/314.0.8/..., snapshot-0123456789abcdef.bin.gz, theme bundles such as
# main.6f8fd8b1.min.js: the URL changes whenever the content does.
VERSIONED = re.compile(
    r"^/engine/pyodide/\d+\.\d+\.\d+[^/]*/"
    r"|[-.][0-9a-f]{8,64}\.(?:min\.)?(?:js|css|bin\.gz|bin)$"
)


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files from one directory with the headers the site needs."""

    protocol_version = "HTTP/1.1"
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        **CONTENT_TYPES,
    }
    server: SiteServer

    def end_headers(self) -> None:
        url_path = urllib.parse.urlsplit(self.path).path
        for name, value in self.server.security_headers(url_path).items():
            self.send_header(name, value)
        super().end_headers()

    def send_head(self) -> BinaryIO | None:
        url = urllib.parse.urlsplit(self.path)
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url.path.endswith("/"):
                location = urllib.parse.urlunsplit(("", "", url.path + "/", url.query, ""))
                self.send_response(http.HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = path / "index.html"
        if not path.is_file() or path.name.startswith(".") or path.name in NOT_SERVED:
            return self._not_found()

        encoded = path.with_name(path.name + ".gz")
        has_gzip = path.suffix != ".gz" and encoded.is_file()
        use_gzip = has_gzip and _accepts_gzip(self.headers.get("Accept-Encoding", ""))
        served = encoded if use_gzip else path
        stat = served.stat()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-gz" if use_gzip else ""}"'
        if _not_modified(self.headers, etag, stat.st_mtime):
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self._common_headers(url, etag, stat.st_mtime, vary=has_gzip)
            self.end_headers()
            return None
        stream = served.open("rb")
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        if use_gzip:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(stat.st_size))
        self._common_headers(url, etag, stat.st_mtime, vary=has_gzip)
        self.end_headers()
        return stream

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
        self.send_header("Cache-Control", cache_control(url.path, url.query))
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


def cache_control(path: str, query: str = "") -> str:
    """Long-lived for URLs that change with their content, revalidate for the rest (the
    service worker always: browsers look for a new one on every visit)."""
    if path == security.SERVICE_WORKER_PATH:
        return CACHE_REVALIDATE
    if VERSIONED.search(path) or "v" in urllib.parse.parse_qs(query):
        return CACHE_FOREVER
    return CACHE_REVALIDATE


def _accepts_gzip(header: str) -> bool:
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = params.strip().removeprefix("q=").strip()
            return not quality or _float(quality) > 0
    return False


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


class SiteServer(ThreadingHTTPServer):
    """A threaded server whose handler serves one site directory."""

    daemon_threads = True
    allow_reuse_address = True
    handler_class: ClassVar[type[SiteHandler]] = SiteHandler  # benchmarks count bytes sent

    def __init__(
        self,
        site_dir: Path,
        host: str,
        port: int,
        *,
        quiet: bool = True,
        csp: Policies = None,
    ) -> None:
        self.site_dir = Path(site_dir).resolve()
        self.quiet = quiet
        self.csp = csp
        handler = functools.partial(self.handler_class, directory=os.fspath(self.site_dir))
        super().__init__((host, port), handler)

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


def start_server(
    site_dir: Path,
    port: int = 0,
    host: str = "127.0.0.1",
    *,
    quiet: bool = True,
    csp: Policies = None,
) -> tuple[SiteServer, str]:
    """Serve ``site_dir`` from a background thread; return the server and its base URL.

    ``csp`` overrides the Content-Security-Policy: a string for every response (the
    benchmark pages that run Pyodide on the page need ``security.WORKER_POLICY``), or a
    mapping from URL path to policy for some (tests serve the engine worker with
    ``security.PAGE_POLICY`` to check that the engine then fails fast and clearly).
    """
    server = SiteServer(site_dir, host, port, quiet=quiet, csp=csp)
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
    server = SiteServer(args.site_dir, args.host, args.port, quiet=args.quiet)
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
