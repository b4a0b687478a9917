"""The site servers a benchmark compares, each started in a process of its own on a
loopback address and stopped after.

A server is ``NAME=SPEC``; SPEC is

- ``worktree``: this tree's ``python -m build_scripts.tools.serve SITE --host H --port P``;
- a commit: the same command run from that commit's ``build_scripts`` (``git archive``
  into a temporary folder, run there with this virtualenv's Python, so ``lvl_rules`` and
  the pip packages are this virtualenv's);
- ``caddy-file-server``: Debian's Caddy 2 as a bare file server, for measuring Caddy before
  the tree serves with it: Caddy 2.6.2's ``caddy file-server`` command has no flag for the
  precompressed ``.br``/``.gz`` siblings, so this runs ``caddy run`` on a four-line
  Caddyfile that does the same with ``file_server { precompressed br gzip }``, bound to
  the loopback address; none of the site's headers, Caddy's default timeouts, its
  HOME and XDG folders in the temporary folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks.loopback_http import Connection, RequestFailedError, loopback

ROOT = Path(__file__).resolve().parent.parent
WORKTREE = "worktree"
CADDY = "caddy-file-server"
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0


class ServerStartError(RuntimeError):
    """A server that exited, or did not answer, before the load began."""


@dataclass(frozen=True, slots=True)
class Server:
    """A server to compare: its label and what runs it (see the module's docstring)."""

    name: str
    spec: str


def parse_server(text: str) -> Server:
    """``NAME=SPEC`` as a Server."""
    name, equals, spec = text.partition("=")
    if not equals or not name or not spec:
        raise ValueError(f"{text!r}: a server is NAME=COMMIT, NAME={WORKTREE} or NAME={CADDY}")
    return Server(name, spec)


def check(server: Server) -> None:
    """SystemExit with the reason when ``server`` cannot start: an unknown commit, no
    Caddy."""
    if server.spec == CADDY:
        if not shutil.which("caddy"):
            raise SystemExit(f"{server.name}: no caddy on PATH (apt-get install caddy)")
    elif server.spec != WORKTREE:
        found = subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "rev-parse",
                "--verify",
                "--quiet",
                f"{server.spec}^{{commit}}",
            ],
            capture_output=True,
            check=False,
        )
        if found.returncode:
            raise SystemExit(f"{server.name}: {server.spec!r} is not a commit of this repository")


def free_port(host: str) -> int:
    """A port free on ``host`` at this moment."""
    family = socket.AF_INET6 if ":" in loopback(host) else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def export_build_scripts(commit: str, into: Path) -> Path:
    """``build_scripts`` as it was at ``commit``, in ``into``; return ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "build_scripts"],
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _caddy(site: Path, host: str, port: int, scratch: Path) -> tuple[list[str], dict[str, str]]:
    home = scratch / "caddy-home"
    home.mkdir(exist_ok=True)
    address = f"[{host}]" if ":" in host else host
    config = scratch / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        f"http://{address}:{port} {{\n\tbind {host}\n\troot * {site}\n"
        "\tfile_server {\n\t\tprecompressed br gzip\n\t}\n}\n",
        encoding="utf-8",
    )
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home))
    return ["caddy", "run", "--adapter", "caddyfile", "--config", str(config)], env


async def _answers(host: str, port: int) -> bool:
    connection = Connection(host, port, timeout=2.0)
    try:
        await connection.get("/")
    except RequestFailedError:
        return False
    finally:
        await connection.close()
    return True


def _wait_ready(process: subprocess.Popen, host: str, port: int, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if asyncio.run(_answers(host, port)):
            return
        time.sleep(0.2)
    tail = log.read_text("utf-8", errors="replace")[-2000:]
    raise ServerStartError(f"did not answer on {host}:{port}:\n{tail}")


@dataclass(frozen=True, slots=True)
class Running:
    """A started server: its port and process."""

    port: int
    process: subprocess.Popen

    def cpu_seconds(self) -> float:
        """The CPU time its processes (its process group: a server that starts Caddy
        counts Caddy's) have used so far, user and system; NaN where /proc does not say."""
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text("ascii").rsplit(")", 1)[1].split()
            except OSError:
                continue  # a process that has just ended
            if int(fields[2]) == self.process.pid:  # its process group
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK") if ticks else float("nan")


@contextlib.contextmanager
def serving(server: Server, site: Path, host: str, scratch: Path) -> Iterator[Running]:
    """Start ``server`` on ``host`` for the site folder, wait until it answers, yield
    it; stop it after."""
    port = free_port(host)
    folder = scratch / server.name
    folder.mkdir(parents=True)
    env = dict(os.environ)
    if server.spec == CADDY:
        command, env = _caddy(site.resolve(), host, port, folder)
        cwd = folder
    else:
        cwd = (
            ROOT if server.spec == WORKTREE else export_build_scripts(server.spec, folder / "tree")
        )
        command = [sys.executable, "-m", "build_scripts.tools.serve", str(site.resolve())]
        command += ["--host", host, "--port", str(port)]
    log = folder / "server.log"
    with log.open("wb") as output:
        # A process group of its own, stopped whole: a server that starts Caddy as its
        # child leaves no Caddy behind.
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=output, stderr=output, start_new_session=True
        )
    try:
        _wait_ready(process, host, port, log)
        yield Running(port, process)
    finally:
        _stop_group(process)


def _stop_group(process: subprocess.Popen) -> None:
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal_number)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            continue
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while _group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # its children, after it
        if not _group_alive(process.pid):
            return


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
