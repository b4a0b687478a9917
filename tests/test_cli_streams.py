"""The command line with events no editor meant and with broken streams (issue 16, F4).

An events file in Latin-1, UTF-16 or random bytes, 100,000 nested arrays, a 5,000-digit
integer, a file larger than the limit; standard input closed; standard output closed,
full (``/dev/full``), a closed pipe, or an ASCII-only encoding: each is exit 2 and one line
on stderr, never a traceback. Checked in-process (also inside Pyodide) with stand-in
streams, and on the host through the installed ``lvl-rules`` with real ones.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from cli_contract import expected, verdict
from timeline_names import AMENDMENT

from lvl_rules.faces.cli import main
from lvl_rules.faces.limits import MAX_JSON_CHARS

BLUE_ADULT = ["--age", "30", "--belt", "blue", "--uniform", "gi"]
SCORE = ["score", "--edition", AMENDMENT, *BLUE_ADULT]
MATCH = '[{"type": "score", "athlete": "A", "position": "mount"}, {"type": "end"}]'

# (id, bytes of the events, words the one line must hold)
BAD_EVENTS: list[Any] = [
    ("latin-1", '[{"type": "end", "final": "café"}]'.encode("latin-1"),
     ["events", "not UTF-8", "line 1", "byte 30"]),
    ("utf-16", MATCH.encode("utf-16"), ["events", "not UTF-8", "byte 0"]),
    ("random-bytes", bytes(range(256)) * 4, ["events", "not UTF-8"]),
    ("deep-nesting", b"[" * 100_000, ["events", "nested 100,000 levels", "16"]),
    ("integer-5000-digits", b"[" + b"9" * 5000 + b"]", ["events", "5,000 digits", "15"]),
    ("nan", b'[{"type": "end", "final": NaN}]', ["events", "NaN"]),
    ("larger-than-the-limit", b" " * (MAX_JSON_CHARS + 1),
     ["events", "longer than the 4,194,304 bytes allowed"]),
    # Found in the parsed list, so named by their place in it rather than by the file:
    ("too-many-events", json.dumps([{"type": "end"}] * 20_001).encode(),
     ["events", "20,001 items", "20,000"]),
    ("text-too-long", json.dumps([{"type": "x" * 1_000_000}]).encode(),
     ["events[0].type", "1,000,000 characters", "200"]),
    ("empty", b"", ["events", "not valid JSON"]),
]  # fmt: skip


CLOSED: Any = None  # what sys.stdin or sys.stdout is when the stream was closed at start
CAPTURED = io.StringIO  # standard output captured and returned


def _run(argv: list[str], stdin: Any = b"", stdout: Any = CAPTURED) -> tuple[int, str, str]:
    """``main(argv)`` with stand-in streams: ``stdin`` bytes or CLOSED, ``stdout`` a stream,
    CLOSED, or CAPTURED (returned as the output)."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out = io.StringIO() if stdout is CAPTURED else stdout
    err = io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin)) if isinstance(stdin, bytes) else stdin
    sys.stdout, sys.stderr = out, err
    try:
        status = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return status, out.getvalue() if isinstance(out, io.StringIO) else "", err.getvalue()


@pytest.mark.parametrize(("name", "raw", "words"), BAD_EVENTS, ids=[c[0] for c in BAD_EVENTS])
def test_bad_events_on_stdin(name: str, raw: bytes, words: list[str]) -> None:
    """Events no editor meant, on standard input: exit 2, one line naming events."""
    del name
    assert expected(words) == verdict(*_run([*SCORE, "-"], raw), words)


@pytest.mark.parametrize(("name", "raw", "words"), BAD_EVENTS, ids=[c[0] for c in BAD_EVENTS])
def test_bad_events_in_a_file(tmp_path: Path, name: str, raw: bytes, words: list[str]) -> None:
    """The same events in a file: the line names the file as well (its end, where the
    file's name is, when the path is long), unless the fault is in a parsed value."""
    path = tmp_path / f"{name}.json"
    path.write_bytes(raw)
    if name not in ("too-many-events", "text-too-long"):
        words = [*words, f"{name}.json'"]
    assert expected(words) == verdict(*_run([*SCORE, str(path)]), words)


def test_a_byte_order_mark_is_accepted() -> None:
    """A UTF-8 file that starts with a byte-order mark (Notepad writes one) is read."""
    plain = _run([*SCORE, "--json", "-"], MATCH.encode())
    marked = _run([*SCORE, "--json", "-"], b"\xef\xbb\xbf" + MATCH.encode())
    assert (0, "") == plain[::2]
    assert plain == marked


def test_closed_stdin() -> None:
    """``score -`` with standard input closed (``<&-``): one line saying so."""
    words = ["events", "standard input is closed"]
    assert expected(words) == verdict(*_run([*SCORE, "-"], CLOSED), words)


def test_closed_stdout() -> None:
    """Standard output closed (``>&-``, sys.stdout is None): one line saying so."""
    words = ["standard output", "closed"]
    assert expected(words) == verdict(*_run(["editions"], stdout=CLOSED), words)


class _Full(io.TextIOWrapper):
    """A stream on a full disk: writing and flushing fail with ENOSPC."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("command", [["editions"], ["export", "--json"], ["--help"]])
def test_full_stdout(command: list[str]) -> None:
    """A full disk (``> /dev/full``): one line with the system's reason, exit 2, also for
    ``--help``."""
    words = ["standard output", os.strerror(errno.ENOSPC)]
    status, _, err = _run(command, stdout=_Full())
    assert expected(words) == verdict(status, "", err, words)


def _ascii_stdout() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


def test_ascii_stdout_text() -> None:
    """An ASCII-only standard output (``PYTHONIOENCODING=ascii``) and text that needs more:
    nothing written, one line naming the character and what to do."""
    stream = _ascii_stdout()
    words = ["ascii", "cannot write", "PYTHONIOENCODING=utf-8", "--json"]
    argv = ["eligibility", "--edition", AMENDMENT, *BLUE_ADULT]
    status, _, err = _run(argv, stdout=stream)
    stream.flush()
    assert expected(words) == verdict(status, stream.buffer.getvalue().decode(), err, words)


def test_ascii_stdout_json() -> None:
    """With ``--json`` the same answer is written with JSON's own escapes: the same data."""
    argv = ["eligibility", "--edition", AMENDMENT, *BLUE_ADULT]
    stream = _ascii_stdout()
    status, _, err = _run([*argv, "--json"], stdout=stream)
    stream.flush()
    escaped = stream.buffer.getvalue().decode("ascii")
    plain = _run([*argv, "--json"])[1]
    assert (0, "", True, json.loads(plain)) == (
        status,
        err,
        "\\u201c" in escaped,
        json.loads(escaped),
    )


# ---------------------------------------------------------------- real streams, on the host


def _script() -> str:
    script = Path(sysconfig.get_path("scripts")) / "lvl-rules"
    assert script.is_file(), f"{script} is missing: install the wheel (`make wheel`)"
    return str(script)


def _shell(command: str, tmp_path: Path, **env: str) -> tuple[int, str, str]:
    """``command`` run by sh, with $LVL the installed script; exit status, stdout, stderr."""
    done = subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "LVL": _script(), **env},
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


SCORE_LINE = "$LVL score --edition 2 --age 30 --belt blue --uniform gi"
ELIGIBILITY_LINE = "$LVL eligibility --edition 2 --age 30 --belt blue --uniform gi"

# (id, shell command, words the one line on stderr must hold)
REAL_STREAMS: list[Any] = [
    ("latin-1-file", f"printf '[\"caf\\351\"]' > e.json; {SCORE_LINE} e.json",
     ["'e.json'", "not UTF-8", "byte 5"]),
    ("deep-file", f"head -c 100000 /dev/zero | tr '\\0' '[' > e.json; {SCORE_LINE} e.json",
     ["nested 100,000 levels"]),
    ("random-bytes-on-stdin", f"head -c 3000 /dev/urandom | {SCORE_LINE} -", ["events"]),
    ("endless-file", f"{SCORE_LINE} /dev/zero", ["longer than the 4,194,304 bytes"]),
    ("closed-stdin", f"{SCORE_LINE} - <&-", ["standard input is closed"]),
    ("closed-stdout", "$LVL editions >&-", ["standard output", "closed"]),
    ("full-stdout", "$LVL export --json > /dev/full", ["No space left on device"]),
    ("full-stdout-help", "$LVL --help > /dev/full", ["No space left on device"]),
    ("closed-pipe", "($LVL export --json; echo $? >&2) | true", ["Broken pipe"]),
    ("ascii-stdout", f"PYTHONIOENCODING=ascii {ELIGIBILITY_LINE}", ["ascii", "--json"]),
]  # fmt: skip


@pytest.mark.host
@pytest.mark.parametrize(
    ("name", "command", "words"), REAL_STREAMS, ids=[case[0] for case in REAL_STREAMS]
)
def test_real_streams(tmp_path: Path, name: str, command: str, words: list[str]) -> None:
    """The installed script with real files, pipes and devices: exit 2, one line, no
    traceback, nothing half-written on stdout."""
    del name
    status, out, err = _shell(command, tmp_path)
    if "| true" in command:  # a pipeline's status is its last command's: lvl-rules' follows
        *lines, last = err.splitlines()
        err, status = "".join(f"{line}\n" for line in lines), int(last)
    assert expected(words) == verdict(status, out, err, words)


@pytest.mark.host
def test_real_ascii_stdout_json(tmp_path: Path) -> None:
    """``PYTHONIOENCODING=ascii ... --json``: exit 0 and the same data, escaped."""
    status, out, err = _shell(f"{ELIGIBILITY_LINE} --json", tmp_path, PYTHONIOENCODING="ascii")
    plain = _shell(f"{ELIGIBILITY_LINE} --json", tmp_path)
    assert (0, "", json.loads(plain[1])) == (status, err, json.loads(out))


@pytest.mark.host
def test_real_closed_stderr(tmp_path: Path) -> None:
    """Bad input with stderr closed (``2>&-``): exit 2 and nothing else (no traceback can
    be written either)."""
    status, out, _ = _shell("$LVL eligibility --age x --uniform gi 2>&-", tmp_path)
    assert (2, "") == (status, out)
