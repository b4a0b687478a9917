"""Serve a built site with Caddy, configured by :mod:`.caddy_config`.

    python -m build_scripts.tools.serve SITE_DIR --port 8000 --host 127.0.0.1

In the foreground until Ctrl-C; ``--host 0.0.0.0`` serves a venue's network and prints
the address phones should open (:mod:`.venue`). Tests, benchmarks and the PDF step start
it in the background: ``server, base_url = start_server(site_dir)``, then
``stop_server(server)``. Caddy runs as a process of its own, its configuration, output,
access log (JSON, one line per answer) and data in one folder (``server.folder``).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from build_scripts.publish.precompress import ENCODINGS
from build_scripts.tools.caddy_config import Policies, Route, site_config

CADDY = "/usr/bin/caddy"
READY = '"msg":"serving initial configuration"'  # Caddy's line once it listens
START_WAIT_S = 60.0  # a loaded machine
STOP_WAIT_S = 10.0
PORT_TRIES = 5  # a free port taken by another process before Caddy bound it
PR_SET_PDEATHSIG = 1  # prctl(2)
LISTEN = "0A"  # a listening socket's state in /proc/net/tcp
__all__ = ["Policies", "Server", "ServerError", "start_server", "stop_server"]


class ServerError(RuntimeError):
    """Caddy did not start: its last line says why."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Server:
    """A running Caddy: its process, address and folder (``log_file``: the access log)."""

    process: subprocess.Popen[bytes]
    host: str
    port: int
    folder: Path
    log_file: Path | None
    own_folder: bool

    @property
    def server_address(self) -> tuple[str, int]:
        return self.host, self.port

    @property
    def output(self) -> Path:
        """Caddy's own messages (JSON lines)."""
        return self.folder / "caddy.log"

    def stop(self) -> None:
        """Stop Caddy (answers under way get a moment to finish) and free its port."""
        _end(self.process)
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_server(
    site_dir: Path,
    port: int = 0,
    host: str = "127.0.0.1",
    *,
    csp: Policies = None,
    codings: Sequence[str] = tuple(ENCODINGS),
    timeout: float | None = None,
    folder: Path | None = None,
    access_log: bool = True,
    before_files: Sequence[Route] = (),
) -> tuple[Server, str]:
    """Start Caddy serving ``site_dir``; return it, once it answers, and its base URL.

    ``port`` 0: a free one. ``folder``: where its files go (kept after it stops), else a
    temporary folder (removed). The other options: see :func:`.caddy_config.site_config`.
    """
    own_folder = folder is None
    folder = Path(tempfile.mkdtemp(prefix="lvl-caddy-")) if folder is None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    log_file = folder / "access.log" if access_log else None
    problem: str | None = f"no free port after {PORT_TRIES} tries"
    for _ in range(PORT_TRIES):
        try:
            chosen = _free_port(host, port)
        except OSError as error:
            problem = error.strerror
            break
        config = site_config(
            site_dir,
            listen=f"[{host}]:{chosen}" if ":" in host else f"{host}:{chosen}",
            access_log=log_file,
            csp=csp,
            codings=codings,
            timeout=timeout,
            before_files=before_files,
        )
        server = Server(
            process=_run(folder, config),
            host=host,
            port=chosen,
            folder=folder,
            log_file=log_file,
            own_folder=own_folder,
        )
        problem = _wait_ready(server)
        if problem is None and _listeners(chosen) == 1:
            return server, f"http://{'[' + host + ']' if ':' in host else host}:{chosen}/"
        _end(server.process)
        problem = problem or "address already in use"
        if port or "address already in use" not in problem:
            break
    if own_folder:
        shutil.rmtree(folder, ignore_errors=True)
    raise ServerError(problem)


def stop_server(server: Server) -> None:
    """Stop a server from :func:`start_server` (or anything with such a ``stop()``)."""
    server.stop()


def _end(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _free_port(host: str, port: int = 0) -> int:
    """``port`` if nothing listens on it (else OSError), or a free one if 0."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.bind((host, port))
        return probe.getsockname()[1]


def _listeners(port: int) -> int:
    """How many sockets listen on ``port``. Caddy binds with SO_REUSEPORT, so a second
    server on a port shares it instead of failing: a port taken between choosing it and
    Caddy binding it shows as two listeners."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), Path(table).open(encoding="ascii") as lines:
            for line in list(lines)[1:]:
                local, state = line.split()[1], line.split()[3]
                count += state == LISTEN and int(local.rsplit(":", 1)[1], 16) == port
    return count


def _run(folder: Path, config: dict) -> subprocess.Popen[bytes]:
    """Caddy with ``config``; its data and config folders in ``folder``, not in $HOME."""
    path = folder / "caddy.json"
    path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    home = str(folder / "home")
    env = {**os.environ, "HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home}
    with (folder / "caddy.log").open("wb") as output:
        return subprocess.Popen(
            [CADDY, "run", "--config", str(path), "--adapter", ""],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            preexec_fn=_stop_with_parent,
        )


def _stop_with_parent() -> None:
    """In the child: Linux sends it SIGTERM when the thread that started it ends (a test
    run killed, say), so that no Caddy is left serving."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _wait_ready(server: Server) -> str | None:
    """None once Caddy listens; else its last message (it stopped, or never got there)."""
    deadline = time.monotonic() + START_WAIT_S
    while time.monotonic() < deadline:
        text = server.output.read_text(encoding="utf-8", errors="replace")
        if READY in text:
            return None
        if server.process.poll() is not None:
            break
        time.sleep(0.05)
    lines = server.output.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return lines[-1] if lines else f"no answer within {START_WAIT_S:.0f} s"


def main(argv: list[str] | None = None) -> int:
    """Serve a site directory in the foreground until interrupted."""
    from build_scripts.tools.venue import print_addresses

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--quiet", action="store_true", help="(kept for old commands)")
    args = parser.parse_args(argv)
    if not args.site_dir.is_dir():
        print(f"serve: {args.site_dir} is not a directory; build the site first", file=sys.stderr)
        return 2
    try:
        server, url = start_server(args.site_dir, args.port, args.host, access_log=False)
    except ServerError as error:
        print(f"serve: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 2
    # Stopped by a signal (a benchmark's terminate()): Caddy and its folder go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"Serving {args.site_dir} at {url} (Caddy; Ctrl-C stops)", flush=True)
    try:
        print_addresses(args.host, server.port)
        return server.process.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        stop_server(server)


if __name__ == "__main__":
    sys.exit(main())
