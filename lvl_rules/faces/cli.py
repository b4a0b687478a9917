"""The ``lvl-rules`` command line. No logic of its own: it parses, calls the API, prints.

Exit status 0 on success, 2 on bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from .. import loading
from ..errors import RulesError
from ..words import terminal
from ..words.terminal import ERROR_PREFIX, HELP
from . import api
from .library import LATEST, load_edition


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{ERROR_PREFIX}{message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (public so the README's examples can be checked against it)."""
    parser = _Parser(prog="lvl-rules", description=HELP["program"])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=HELP[name])

    def option(sub: argparse.ArgumentParser, name: str, **settings: Any) -> None:
        sub.add_argument(name, help=HELP[name], **settings)

    def division_options(sub: argparse.ArgumentParser) -> None:
        option(sub, "--edition", default=LATEST)
        option(sub, "--age", required=True)
        option(sub, "--lvl")
        option(sub, "--belt")
        option(sub, "--experience", nargs="*", default=[])
        option(sub, "--uniform", required=True)
        option(sub, "--json", action="store_true")

    division_options(command("eligibility"))
    sub = command("score")
    division_options(sub)
    option(sub, "events")
    sub = command("divisions-for")
    option(sub, "technique")
    option(sub, "--edition", default=LATEST)
    option(sub, "--json", action="store_true")
    sub = command("export")
    option(sub, "--edition", default=LATEST)
    option(sub, "--json", action="store_true")
    option(command("editions"), "--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        params = {k: v for k, v in vars(args).items() if v is not None}
        if args.command == "eligibility":
            _print(args, api.eligibility(params), terminal.eligibility)
        elif args.command == "score":
            _print(args, api.score(params, _read_events(args.events)), terminal.score)
        elif args.command == "divisions-for":
            _print(args, api.divisions_for(params), terminal.divisions_for)
        elif args.command == "export":
            text = lambda result: terminal.rulebook(load_edition(result["edition"]))  # noqa: E731
            _print(args, api.export(params), text)
        else:
            _print(args, api.editions(), terminal.editions)
    except RulesError as error:
        sys.stderr.write(f"{ERROR_PREFIX}{error}\n")
        return 2
    return 0


def _print(
    args: argparse.Namespace, result: dict[str, Any], text: Callable[[dict[str, Any]], str]
) -> None:
    out = json.dumps(result, indent=2, ensure_ascii=False) if args.json else text(result)
    sys.stdout.write(out + "\n")


def _read_events(source: str) -> Any:
    raw = loading.read_input(source)
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise RulesError(
            "events-not-json", field="events", source=source, reason=str(error)
        ) from None
