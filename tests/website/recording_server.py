"""A copy of the built site, served by Caddy as build_scripts/tools/serve.py serves it, with
a log of every response sent (path and bytes, headers included), read from Caddy's access
log: what a browser and its service worker really downloaded, which Playwright's own
request events do not all show.

A test may also hold the requests for one path and then drop them, as a lost connection
does (:meth:`RecordingServer.hold`): the service worker's own requests too, which
Playwright's page routing does not see (and a route's handler runs only while the test
calls into Playwright, so a test could not wait for a held request with an Event). Caddy
itself holds them: a path with a marker file in the server's ``hold/`` folder is passed
to a small server in this process, which answers once the test says; Caddy then drops
the connection (``cut``) or serves the file (``back``).
"""

from __future__ import annotations

import shutil
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from build_scripts.publish.host_files import write_host_files
from build_scripts.publish.precompress import ENCODINGS
from build_scripts.tools.access_log import answers
from build_scripts.tools.caddy_config import file_server
from build_scripts.tools.serve import Server, start_server, stop_server

SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default site_url, named by sitemap.xml
HOLD_LIMIT_S = 120  # a held request is cut after this long even if the test forgot it
# What the holder answers Caddy: drop the connection, or serve the file after all.
CUT, BACK = 599, 598


class Log:
    """(path, bytes) of every response, in the order sent, from Caddy's access log
    (:mod:`build_scripts.tools.access_log`: bytes of the status line, headers and body)."""

    def __init__(self, access_log: Path) -> None:
        self.access_log = access_log

    @property
    def sent(self) -> list[tuple[str, int]]:
        # A dropped connection (status 0, nothing sent) is no response.
        return [(a.path, a.size) for a in answers(self.access_log)[0] if a.status]

    def paths(self) -> list[str]:
        return [path for path, _ in self.sent]

    def bytes(self) -> int:
        return sum(size for _, size in self.sent)


@dataclass(eq=False)
class Held:
    """Requests for one path: held until :meth:`cut`, then closed with no answer (the
    browser sees a network error; Chromium's own second try is closed too) until
    :meth:`back`, after which they are answered."""

    marker: Path
    arrived: threading.Event = field(default_factory=threading.Event)
    cut_off: threading.Event = field(default_factory=threading.Event)
    restored: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)

    def cut(self) -> None:
        self.marker.with_suffix(self.marker.suffix + ".cut").touch()
        self.cut_off.set()

    def back(self) -> None:
        self.marker.unlink(missing_ok=True)
        self.marker.with_suffix(self.marker.suffix + ".cut").unlink(missing_ok=True)
        self.restored.set()
        self.answered.set()


class Holder(BaseHTTPRequestHandler):
    """Caddy's upstream for held paths: waits, then says what Caddy does (CUT or BACK)."""

    server: HoldingServer

    def do_GET(self) -> None:
        held = self.server.held[urllib.parse.urlsplit(self.path).path]
        held.arrived.set()
        for _ in range(HOLD_LIMIT_S * 10):
            if held.cut_off.is_set() or held.restored.is_set():
                break
            held.restored.wait(0.1)
        self.send_response(BACK if held.restored.is_set() else CUT)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_HEAD = do_GET  # noqa: N815

    def log_message(self, format: str, *args: object) -> None:
        pass


class HoldingServer(ThreadingHTTPServer):
    daemon_threads = True
    held: dict[str, Held]


class RecordingServer:
    """A Caddy serving a site, and the holder for the paths a test holds."""

    def __init__(self, caddy: Server, holder: HoldingServer, hold_dir: Path) -> None:
        self.caddy = caddy
        self.holder = holder
        self.hold_dir = hold_dir

    def hold(self, path: str) -> Held:
        """Hold the requests for ``path`` (from the site root, ``/x/y``): see :class:`Held`."""
        marker = self.hold_dir / (path.lstrip("/") + ".held")
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        self.holder.held[path] = Held(marker)
        return self.holder.held[path]

    def stop(self) -> None:
        for held in self.holder.held.values():
            held.cut()
        stop_server(self.caddy)
        self.holder.shutdown()
        self.holder.server_close()


def hold_routes(hold_dir: Path, holder_port: int, files: dict) -> list[dict]:
    """Caddy routes for held paths: dropped once cut, else passed to the holder."""
    drop = {"handler": "static_response", "abort": True}

    def marked(suffix: str) -> list[dict]:
        return [
            {"file": {"root": str(hold_dir), "try_files": ["{http.request.uri.path}" + suffix]}}
        ]

    return [
        {"match": marked(".held.cut"), "handle": [drop], "terminal": True},
        {
            "match": marked(".held"),
            "handle": [
                {
                    "handler": "reverse_proxy",
                    "upstreams": [{"dial": f"127.0.0.1:{holder_port}"}],
                    "handle_response": [
                        {"match": {"status_code": [CUT]}, "routes": [{"handle": [drop]}]},
                        {"match": {"status_code": [BACK]}, "routes": [{"handle": [files]}]},
                    ],
                }
            ],
            "terminal": True,
        },
    ]


def serve_recorded(built_site, target: Path, **options) -> tuple[RecordingServer, str, Log]:
    """Copy the build to ``target`` and serve it; its sitemap names this server (Material's
    instant navigation follows only the links it lists, as on the real host)."""
    shutil.copytree(built_site.site, target)
    folder = target.with_name(target.name + "-caddy")
    hold_dir = folder / "hold"
    hold_dir.mkdir(parents=True)
    holder = HoldingServer(("127.0.0.1", 0), Holder)
    holder.held = {}
    threading.Thread(target=holder.serve_forever, name="holder", daemon=True).start()
    files = file_server(target, options.get("codings", ENCODINGS))
    caddy, url = start_server(
        target,
        folder=folder,
        before_files=hold_routes(hold_dir, holder.server_address[1], files),
        **options,
    )
    sitemap = target / "sitemap.xml"
    sitemap.write_text(sitemap.read_text(encoding="utf-8").replace(SITE_URL, url), "utf-8")
    for stale in ("sitemap.xml.gz", "sitemap.xml.br"):
        (target / stale).unlink(missing_ok=True)
    write_host_files(target)  # the sitemap changed: as a new build would
    return RecordingServer(caddy, holder, hold_dir), url, Log(caddy.log_file)
