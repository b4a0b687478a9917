"""The command line's contract for bad input, shared by the CLI tests: exit status 2,
nothing on stdout, exactly one line on stderr that starts with the prefix and names what
is wrong, never a traceback."""

from __future__ import annotations

from typing import Any

PREFIX = "lvl-rules: error: "


def verdict(status: int, out: str, err: str, words: list[str]) -> dict[str, Any]:
    """What a run did, in the shape of :func:`expected`."""
    return {
        "status": status,
        "stdout": out,
        "stderr lines": len(err.splitlines()),
        "traceback": "Traceback" in err,
        "prefix": err.startswith(PREFIX),
        "words": [word for word in words if word in err],
    }


def expected(words: list[str]) -> dict[str, Any]:
    """What a run with bad input must do: its one line holds ``words``."""
    return {
        "status": 2,
        "stdout": "",
        "stderr lines": 1,
        "traceback": False,
        "prefix": True,
        "words": words,
    }
