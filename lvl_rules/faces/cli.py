"""The ``lvl-rules`` command line. No logic of its own: it parses, calls the API, prints.

Exit status 0 on success, 2 on bad input (one line on stderr, never a traceback), also
for input beyond :mod:`.limits` and for a standard output that is closed, full or cannot
encode the answer.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from .. import loading
from ..errors import RulesError, reason_of
from ..words import impact as impact_words
from ..words import terminal
from ..words.errors import one_line
from ..words.terminal import ERROR_CLOSED, ERROR_PREFIX, HELP
from . import api, limits
from .impact import impact
from .library import LATEST, load_edition, rank_axes
from .sheet import DETAILS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _say(one_line(message))
        raise SystemExit(2)

    def print_help(self, file: Any = None) -> None:
        """``--help``: written as an answer is, so a full or closed stdout is one line."""
        del file
        _write(self.format_help().rstrip("\n"))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (public so the README's examples can be checked against it)."""
    parser = _Parser(prog="lvl-rules", description=HELP["program"])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=HELP[name])

    def option(sub: argparse.ArgumentParser, name: str, **settings: Any) -> None:
        sub.add_argument(name, help=HELP[name], **settings)

    timeline = loading.timeline()
    editions = [load_edition(edition_id) for edition_id in timeline.editions()]
    edition_help = terminal.edition_help(timeline.editions(), LATEST)

    def edition_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--edition", default=LATEST, help=edition_help)

    def division_options(sub: argparse.ArgumentParser) -> None:
        edition_option(sub)
        option(sub, "--age", required=True)
        for axis in rank_axes():
            ranked = [edition for edition in editions if edition.eligibility.axis == axis]
            sub.add_argument(f"--{axis}", help=terminal.rank_help(axis, ranked))
        with_experience = [edition for edition in editions if edition.experiences]
        sub.add_argument(
            "--experience", nargs="*", default=[], help=terminal.experience_help(with_experience)
        )
        option(sub, "--uniform", required=True)
        option(sub, "--json", action="store_true")

    division_options(command("eligibility"))
    sub = command("score")
    division_options(sub)
    option(sub, "events")
    sub = command("sheet")
    division_options(sub)
    for name in ("--name-a", "--name-b", "--colour-a", "--colour-b", "--verify"):
        option(sub, name)
    for detail in DETAILS:
        option(sub, "--" + detail.replace("_", "-"))
    option(sub, "events")
    sub = command("divisions-for")
    option(sub, "technique")
    edition_option(sub)
    option(sub, "--json", action="store_true")
    sub = command("export")
    edition_option(sub)
    option(sub, "--json", action="store_true")
    option(command("editions"), "--json", action="store_true")
    sub = command("impact")
    edition_option(sub)
    option(sub, "--json", action="store_true")
    return parser


# The arguments passed on to the API, named as in a request, besides one per rank axis
# (the events file's name is read here and is no field; --json and the command choose
# what is printed).
REQUEST_FIELDS = ("edition", "age", "experience", "uniform", "technique")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status: 0, or 2 with one line on stderr.

    Never a traceback: bad input, bad data, a broken stream and even a defect of ours are
    each one line (argparse's own errors and ``--help`` included).
    """
    try:
        _run(build_parser().parse_args(argv))
    except SystemExit as stop:  # argparse: --help (0) or a usage error (2, already said)
        return _flushed(0 if stop.code is None else stop.code if isinstance(stop.code, int) else 2)
    except RulesError as error:
        _say(str(error))
        return _flushed(2)
    except Exception as error:  # a defect of ours: one line all the same
        _say(str(RulesError("internal-error", kind=type(error).__name__, reason=str(error))))
        return _flushed(2)
    return _flushed(0)


def _run(args: argparse.Namespace) -> None:
    fields = (*REQUEST_FIELDS, *rank_axes())
    params = {k: v for k, v in vars(args).items() if k in fields and v is not None}
    if "experience" in params:  # one option per kind, or the link's own comma list
        params["experience"] = [e for given in params["experience"] for e in given.split(",")]
    limits.check_value(params, "")
    if args.command == "eligibility":
        _print(args, api.eligibility(params), terminal.eligibility)
    elif args.command == "score":
        _print(args, api.score(params, _read_events(args.events)), terminal.score)
    elif args.command == "sheet":
        _print(args, _sheet(args, params), terminal.sheet)
    elif args.command == "divisions-for":
        _print(args, api.divisions_for(params), terminal.divisions_for)
    elif args.command == "export":
        text = lambda result: terminal.rulebook(load_edition(result["edition"]))  # noqa: E731
        _print(args, api.export(params), text)
    elif args.command == "impact":
        found = impact(load_edition(params.get("edition", LATEST)))
        old, new = load_edition(found["amends"]), load_edition(found["edition"])
        _print(args, found, lambda result: impact_words.impact(result, old, new))
    else:
        _print(args, api.editions(), terminal.editions)


def _print(
    args: argparse.Namespace, result: dict[str, Any], text: Callable[[dict[str, Any]], str]
) -> None:
    """Write the answer whole, or raise RulesError (nothing written) if standard output
    cannot take it: closed, or an encoding without some character of the answer (JSON
    then escapes them, as JSON may; text is refused rather than garbled)."""
    stream = sys.stdout
    if args.json:
        out = json.dumps(result, indent=2, ensure_ascii=False)
        if not _fits(out, stream):
            out = json.dumps(result, indent=2)
    else:
        out = terminal.escaped(text(result))
        if not _fits(out, stream):
            encoding = getattr(stream, "encoding", None) or "?"
            bad = next(c for c in out if not _fits(c, stream))
            raise RulesError("stdout-encoding", encoding=encoding, value=bad)
    _write(out)


def _write(out: str) -> None:
    """One answer and its newline on standard output, or RulesError if it is closed or
    the write fails."""
    stream = sys.stdout
    if stream is None:
        raise RulesError("stdout-failed", reason=ERROR_CLOSED)
    try:
        stream.write(out + "\n")
    except (OSError, ValueError) as error:
        _give_up(stream)
        raise RulesError("stdout-failed", reason=reason_of(error)) from None


def _fits(text: str, stream: Any) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        text.encode(encoding, errors=getattr(stream, "errors", None) or "strict")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _flushed(status: int) -> int:
    """``status``, once what was written to standard output has reached it (or 2 with one
    line on stderr if it cannot: a full disk, a closed pipe)."""
    stream = sys.stdout
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError) as error:
        _give_up(stream)
        if status == 0:
            _say(str(RulesError("stdout-failed", reason=reason_of(error))))
        return 2
    return status


def _give_up(stream: Any) -> None:
    """Drop what standard output still holds, so that the interpreter does not try again
    (and print a traceback) as it exits."""
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _say(line: str) -> None:
    """One line on stderr, if there is a stderr to write it to."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"{ERROR_PREFIX}{line}\n")
        sys.stderr.flush()


def _sheet(args: argparse.Namespace, params: dict[str, Any]) -> dict[str, Any]:
    """The sheet, as the API's sheet action gives it; a fingerprint to verify that is not
    this match's is an error."""

    def given(**fields: Any) -> dict[str, Any] | None:
        return {k: v for k, v in fields.items() if v is not None} or None

    request = {
        **params,
        "names": given(A=args.name_a, B=args.name_b),
        "colours": given(A=args.colour_a, B=args.colour_b),
        "details": given(**{detail: getattr(args, detail) for detail in DETAILS}),
        "verify": args.verify,
    }
    request = {k: v for k, v in request.items() if v is not None}
    limits.check_value(request, "")
    # Each event is checked against the limits on its own, by the sheet (as the API's).
    result = api.match_sheet(request, _read_events(args.events, one_by_one=True))
    if args.verify is not None and result["verified"] is None:
        raise RulesError("fingerprint-not-this-match", field="verify", value=args.verify)
    return result


def _read_events(source: str, *, one_by_one: bool = False) -> Any:
    raw = loading.read_input(source, limits.MAX_JSON_CHARS + 1)
    events = limits.read_json(raw, "events", source=source, keep=one_by_one)
    if not (one_by_one and isinstance(events, list)):
        limits.check_value(events, "events")
    return events
