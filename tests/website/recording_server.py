"""A copy of the built site, served as build_scripts/tools/serve.py serves it, with a log of
every response the server sent (path and bytes, headers included): what a browser and its
service worker really downloaded, which Playwright's own request events do not all show.
A test may also hold the requests for one path and then drop them, as a lost connection
does (:meth:`RecordingServer.hold`): the service worker's own requests too, which
Playwright's routing does not see."""

from __future__ import annotations

import shutil
import threading
import urllib.parse
from pathlib import Path

from build_scripts.publish.host_files import write_host_files
from build_scripts.tools.serve import SiteHandler, SiteServer, start_server

SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default site_url, named by sitemap.xml


class Log:
    """(path, bytes) of every response, in the order sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []
        self._lock = threading.Lock()

    def add(self, path: str, size: int) -> None:
        with self._lock:
            self.sent.append((path, size))

    def paths(self) -> list[str]:
        with self._lock:
            return [path for path, _ in self.sent]

    def bytes(self) -> int:
        with self._lock:
            return sum(size for _, size in self.sent)


class Held:
    """Requests for one path: held until :meth:`cut`, then closed with no answer (the
    browser sees a network error; Chromium's own second try is closed too) until
    :meth:`back`, after which they are answered."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.cut_off = threading.Event()
        self.restored = threading.Event()

    def cut(self) -> None:
        self.cut_off.set()

    def back(self) -> None:
        self.restored.set()


HOLD_LIMIT_S = 120  # a held request is cut after this long even if the test forgot it


class RecordingHandler(SiteHandler):
    def send_head(self):
        held = self.server.held.get(urllib.parse.urlsplit(self.path).path)
        if held is None or held.restored.is_set():
            return super().send_head()
        held.arrived.set()
        held.cut_off.wait(HOLD_LIMIT_S)
        self.close_connection = True
        return None  # nothing sent: the connection is closed unanswered

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            self._body_bytes = int(value)
        super().send_header(keyword, value)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = int(code)
        super().send_response(code, message)

    def flush_headers(self) -> None:
        head = sum(len(line) for line in getattr(self, "_headers_buffer", []))
        body = 0 if getattr(self, "_status", 200) == 304 else getattr(self, "_body_bytes", 0)
        self.server.log.add(urllib.parse.urlsplit(self.path).path, head + body)
        self._body_bytes = 0
        super().flush_headers()


class RecordingServer(SiteServer):
    handler_class = RecordingHandler
    held: dict[str, Held]

    def hold(self, path: str) -> Held:
        """Hold the requests for ``path`` (from the site root, ``/x/y``): see :class:`Held`."""
        self.held[path] = Held()
        return self.held[path]


def serve_recorded(built_site, target: Path, **options) -> tuple[SiteServer, str, Log]:
    """Copy the build to ``target`` and serve it; its sitemap names this server (Material's
    instant navigation follows only the links it lists, as on the real host)."""
    shutil.copytree(built_site.site, target)
    log = Log()
    server, url = start_server(target, **options, server_class=RecordingServer)
    server.log = log
    server.held = {}
    sitemap = target / "sitemap.xml"
    sitemap.write_text(sitemap.read_text(encoding="utf-8").replace(SITE_URL, url), "utf-8")
    for stale in ("sitemap.xml.gz", "sitemap.xml.br"):
        (target / stale).unlink(missing_ok=True)
    write_host_files(target)  # the sitemap changed: as a new build would
    return server, url, log
