"""Caddy's configuration for a built site, made from the one source of headers.

:func:`site_config` is a JSON configuration (``caddy run --config FILE --adapter ''``):

- the headers of :mod:`build_scripts.publish.headers` (``response_headers``,
  ``cache_control``) and :mod:`build_scripts.publish.security`, by the same patterns:
  the page policy, nosniff and no referrer everywhere, the engine worker's own policy,
  immutable for versioned names, revalidation for the rest and for ``/sw.js`` (the
  header-equality test in tests/website/test_serve.py checks them against ``_headers``
  for every kind of path of a real build);
- the file server: precompressed ``.br``/``.gz`` siblings by Accept-Encoding (brotli
  first, ``Vary: Accept-Encoding``), folders by their ``index.html`` (a folder's URL
  without its slash redirected), hidden paths (a segment starting with ``.``) and
  ``_headers`` answered as missing;
- any error of the file server (a missing or hidden file, a name no file can have)
  answered 404 with the site's ``404.html``, revalidated; a method other than GET and
  HEAD 405;
- timeouts against slow clients and a limit on the request's header; plain http, no
  admin endpoint (several servers run at once in the tests), an access log in JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from build_scripts.publish import security
from build_scripts.publish.headers import (
    CACHE_FOREVER,
    CACHE_REVALIDATE,
    EVERY_URL,
    VERSIONED,
    cache_control,
    response_headers,
)
from build_scripts.publish.precompress import ENCODINGS
from build_scripts.publish.security import SERVICE_WORKER_PATH
from build_scripts.publish.site_files import HEADERS_FILE

Policies = str | Mapping[str, str] | None
Route = dict[str, Any]

# What a slow client may take. A request's line and headers (a phone on a crowded venue
# network sends them in one packet); a body (GET and HEAD have none); an answer (the
# engine's largest file, ~3 MB as brotli, takes ~25 s at 1 Mbit/s); a connection idle
# between requests (a browser keeps its six for a page's assets and the next page).
TIMEOUTS_S = {
    "read_header_timeout": 10.0,
    "read_timeout": 10.0,
    "write_timeout": 180.0,
    "idle_timeout": 60.0,
}
MAX_HEADER_BYTES = 32 * 1024
# How long a stopping server waits for answers under way.
GRACE_PERIOD_S = 1.0
NOT_FOUND_PAGE = "/404.html"
TEXT = "; charset=utf-8"
# Types by extension, whatever the machine's /etc/mime.types knows.
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
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".bin": "application/octet-stream",
    ".toml": "application/toml",
    ".pdf": "application/pdf",
}


def site_config(
    site_dir: Path,
    *,
    listen: str,
    access_log: Path | None = None,
    csp: Policies = None,
    codings: Sequence[str] = tuple(ENCODINGS),
    timeout: float | None = None,
    before_files: Sequence[Route] = (),
) -> dict[str, Any]:
    """The configuration serving ``site_dir`` on ``listen`` (``host:port``).

    ``csp`` overrides the Content-Security-Policy: one for every response, or one per URL
    path. ``codings``: the precompressed siblings it may send (``("gzip",)``, ``()``: as a
    host that serves only those). ``timeout``: read timeouts (header, body, idle) in
    seconds instead of :data:`TIMEOUTS_S` (tests of slow clients make them short).
    ``before_files``: routes run after the headers are set, before the file server.
    """
    files = file_server(site_dir, codings)
    timeouts = dict(TIMEOUTS_S)
    if timeout is not None:
        timeouts.update(read_header_timeout=timeout, read_timeout=timeout, idle_timeout=timeout)
    server: dict[str, Any] = {
        "listen": [listen],
        "automatic_https": {"disable": True},
        **{name: f"{seconds}s" for name, seconds in timeouts.items()},
        "max_header_bytes": MAX_HEADER_BYTES,
        "routes": [
            _only_get_and_head(),
            *header_routes(csp),
            *_vary_where_compressed(site_dir, codings),
            *before_files,
            {"handle": [files]},
        ],
        "errors": {"routes": [_not_found_page(files)]},
    }
    logs: dict[str, Any] = {"default": {"level": "INFO", "exclude": ["http.log.access"]}}
    if access_log is not None:
        server["logs"] = {}
        logs["access"] = {
            "writer": {"output": "file", "filename": str(access_log), "roll": False},
            "encoder": {"format": "json"},
            "include": ["http.log.access"],
        }
    return {
        "admin": {"disabled": True, "config": {"persist": False}},
        "logging": {"logs": logs},
        "apps": {"http": {"grace_period": f"{GRACE_PERIOD_S}s", "servers": {"site": server}}},
    }


def header_routes(csp: Policies = None) -> list[Route]:
    """Routes setting each URL's headers, as :func:`~build_scripts.publish.headers.
    response_headers` and :func:`~build_scripts.publish.headers.cache_control` give them
    (by their patterns, so that a new build on the server needs no new configuration),
    then the ``csp`` override."""
    every = {**response_headers(EVERY_URL), "Cache-Control": cache_control(EVERY_URL)}
    worker = {"Content-Security-Policy": security.WORKER_POLICY}
    routes = [
        _headers({"path": [EVERY_URL]}, every),
        *(_headers({"path": [f"*{ext}"]}, {"Content-Type": t}) for ext, t in CONTENT_TYPES.items()),
        _headers({"path_regexp": {"pattern": VERSIONED.pattern}}, {"Cache-Control": CACHE_FOREVER}),
        _headers(
            {"path": [SERVICE_WORKER_PATH]}, {"Cache-Control": cache_control(SERVICE_WORKER_PATH)}
        ),
        _headers({"path_regexp": {"pattern": security.worker_url_pattern()}}, worker),
    ]
    policy = "Content-Security-Policy"
    if isinstance(csp, str):
        routes.append(_headers({"path": [EVERY_URL]}, {policy: csp}))
    elif csp:
        routes.extend(_headers({"path": [path]}, {policy: value}) for path, value in csp.items())
    return routes


def _vary_where_compressed(site_dir: Path, codings: Sequence[str]) -> list[Route]:
    """``Vary: Accept-Encoding`` on every answer for a file with a precompressed sibling,
    whatever the request accepts (Caddy adds it only to a precompressed answer; set when
    the answer is written, it replaces Caddy's)."""
    if not codings:
        return []
    path = "{http.request.uri.path}"
    suffixes = [ENCODINGS[coding] for coding in codings]
    tried = [f"{path}{name}{suffix}" for name in ("", "index.html") for suffix in suffixes]
    root = str(Path(site_dir).resolve())
    set_vary = {"set": {"Vary": ["Accept-Encoding"]}, "deferred": True}
    return [
        {
            "match": [{"file": {"root": root, "try_files": tried}}],
            "handle": [{"handler": "headers", "response": set_vary}],
        }
    ]


def _headers(match: dict[str, Any], values: Mapping[str, str]) -> Route:
    response = {"set": {name: [value] for name, value in values.items()}}
    return {"match": [match], "handle": [{"handler": "headers", "response": response}]}


def file_server(site_dir: Path, codings: Sequence[str] = tuple(ENCODINGS)) -> Route:
    """The handler that answers with the site's files."""
    root = str(Path(site_dir).resolve())
    return {
        "handler": "file_server",
        "root": root,
        # A name without a slash hides that name in any segment of the path.
        "hide": [".*", str(Path(root) / HEADERS_FILE)],
        "index_names": ["index.html"],
        "precompressed": {coding: {} for coding in codings},
        "precompressed_order": list(codings),
    }


def _only_get_and_head() -> Route:
    headers = {**security.headers_for(EVERY_URL), "Allow": "GET, HEAD"}
    return {
        "match": [{"not": [{"method": ["GET", "HEAD"]}]}],
        "handle": [
            {"handler": "headers", "response": {"set": {n: [v] for n, v in headers.items()}}},
            {"handler": "static_response", "status_code": 405},
        ],
        "terminal": True,
    }


def _not_found_page(files: Route) -> Route:
    """The site's 404 page: the headers the request's routes set stay, except the file's
    type and caching, which are the page's."""
    page_headers = {
        "Cache-Control": CACHE_REVALIDATE,
        "Content-Type": CONTENT_TYPES[".html"],
    }
    return {
        "handle": [
            {"handler": "headers", "response": {"set": {n: [v] for n, v in page_headers.items()}}},
            {"handler": "rewrite", "uri": NOT_FOUND_PAGE},
            {**files, "status_code": 404},
        ]
    }
