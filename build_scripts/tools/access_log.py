"""What a server of :mod:`.serve` sent, read from Caddy's access log (one JSON line per
answer, written once the answer is): when, which path, and how many bytes, the status
line and headers included (Caddy logs the body's size and the headers it set; the Date
header Go adds, the same length in every answer, is counted too)."""

from __future__ import annotations

import http
import json
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

DATE = "Date: Mon, 07 Dec 2026 19:19:12 GMT\r\n"


@dataclass(frozen=True, kw_only=True, slots=True)
class Answer:
    """One answer: when it was done (Unix time), the URL's path, its status and bytes;
    status 0 for a connection dropped unanswered."""

    time: float
    path: str
    status: int
    size: int


def answers(log_file: Path, offset: int = 0) -> tuple[list[Answer], int]:
    """The answers logged from byte ``offset`` on (whole lines only), and where to
    read from next time."""
    try:
        with Path(log_file).open("rb") as log:
            log.seek(offset)
            text = log.read()
    except FileNotFoundError:
        return [], offset
    whole = text[: text.rfind(b"\n") + 1]
    entries = [json.loads(line) for line in whole.splitlines() if line.strip()]
    return [_answer(entry) for entry in entries], offset + len(whole)


def _answer(entry: dict) -> Answer:
    status = entry["status"]
    size = 0
    if status:
        reason = http.HTTPStatus(status).phrase
        size = len(f"HTTP/1.1 {status} {reason}\r\n") + len(DATE) + len("\r\n") + entry["size"]
        size += sum(
            len(f"{name}: {value}\r\n")
            for name, values in entry["resp_headers"].items()
            for value in values
        )
    return Answer(
        time=entry["ts"],
        path=urllib.parse.urlsplit(entry["request"]["uri"]).path,
        status=status,
        size=size,
    )
