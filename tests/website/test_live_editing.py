"""`python -m mkdocs serve`, the live-editing server, runs the same hook as the build and
leaves out what would block its live reload (the CSP <meta>); it serves our scripts where
the build publishes them (named by their content)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from timeline_names import IN_FORCE

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 180  # a cold engine start on a loaded 2-core machine


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read()


def wait_for_page(url: str, server: subprocess.Popen, log: Path) -> str:
    """The page's HTML once the server answers (fails if the server stops first)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text(encoding="utf-8")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError):
            time.sleep(1)
    pytest.fail(f"mkdocs serve did not answer {url} within {START_SECONDS} s")


@pytest.mark.slow
def test_mkdocs_serve_serves_pages_without_the_policy_meta(tmp_path):
    """A rule page from `mkdocs serve` has its live-reload script and no CSP <meta>, and
    every script it names is served, ours from the code folder as they are in docs/."""
    port = free_port()
    log = tmp_path / "serve.log"
    with (
        log.open("w", encoding="utf-8") as output,
        subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            stdout=output,
            stderr=subprocess.STDOUT,
        ) as server,
    ):
        page = f"http://127.0.0.1:{port}/rules/{IN_FORCE}/5/"
        try:
            html = wait_for_page(page, server, log)
            scripts = {
                src: read(urllib.parse.urljoin(page, src))
                for src in re.findall(r'<script src="([^"]+)"', html)
            }
        finally:
            server.terminate()
    main = next(src for src in scripts if src.endswith("/app/main.js"))
    assert re.fullmatch(r"(\.\./)+assets/code-[0-9a-f]{10}/app/main\.js", main)
    assert (ROOT / "docs/assets/app/main.js").read_bytes() == scripts[main]
    assert 'id="5.4"' in html
    assert "livereload" in html
    assert "Content-Security-Policy" not in html
