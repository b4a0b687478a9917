"""The ``lvl-rules`` command line. No logic of its own: it parses, calls the API, prints.

Exit status 0 on success, 2 on bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from . import api, render
from .errors import RulesError
from .loading import LATEST, load_edition


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"lvl-rules: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (public so the README's examples can be checked against it)."""
    parser = _Parser(prog="lvl-rules", description="The LVL Grappling Federation's rules.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def division_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--edition", default=LATEST, help="1, 2 or latest (default)")
        sub.add_argument("--age", required=True, help="age in years, 4 to 120")
        sub.add_argument("--lvl", help="LVL 1-4 (Edition 1)")
        sub.add_argument("--belt", help="belt (Edition 2)")
        sub.add_argument("--experience", nargs="*", default=[], help="prior experience (Edition 2)")
        sub.add_argument("--uniform", required=True, help="gi or nogi")
        sub.add_argument("--json", action="store_true", help="print JSON")

    sub = commands.add_parser("eligibility", help="which techniques are legal for a division")
    division_options(sub)
    sub = commands.add_parser("score", help="score a match from a JSON list of events")
    division_options(sub)
    sub.add_argument("events", help="JSON file with the list of events, or - for stdin")
    sub = commands.add_parser("divisions-for", help="which divisions may use a technique")
    sub.add_argument("technique", help="technique ID, e.g. heel-hook")
    sub.add_argument("--edition", default=LATEST)
    sub.add_argument("--json", action="store_true")
    sub = commands.add_parser("export", help="a whole edition (JSON, or the text of every clause)")
    sub.add_argument("--edition", default=LATEST)
    sub.add_argument("--json", action="store_true")
    sub = commands.add_parser("editions", help="the editions and which is in force")
    sub.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        params = {k: v for k, v in vars(args).items() if v is not None}
        if args.command == "eligibility":
            _print(args, api.eligibility(params), _eligibility_text)
        elif args.command == "score":
            _print(args, api.score(params, _read_events(args.events)), _score_text)
        elif args.command == "divisions-for":
            _print(args, api.divisions_for(params), lambda r: r["summary"])
        elif args.command == "export":
            _print(args, api.export(params), lambda r: _rulebook_text(r["edition"]))
        else:
            _print(args, api.editions(), _editions_text)
    except RulesError as error:
        sys.stderr.write(f"lvl-rules: error: {error}\n")
        return 2
    return 0


def _print(args: argparse.Namespace, result: dict[str, Any], text: Any) -> None:
    out = json.dumps(result, indent=2, ensure_ascii=False) if args.json else text(result)
    sys.stdout.write(out + "\n")


def _read_events(source: str) -> Any:
    try:
        raw = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(
            f"events: cannot read {source}: {error.strerror}", field="events"
        ) from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise RulesError(f"events: {source} is not valid JSON: {error}", field="events") from None


def _eligibility_text(result: dict[str, Any]) -> str:
    lines = [f"LVL Rules, Edition {result['edition']}: {result['description']}"]
    lines.append(f"Group: {result['group']['label']}")
    for t in result["techniques"]:
        mark = "LEGAL    " if t["legal"] else "NOT LEGAL"
        lines.append(f"  {mark}  {t['name']}  (§{t['cite']})")
        lines.append(f"             {t['reason']}")
    return "\n".join(lines)


def _score_text(result: dict[str, Any]) -> str:
    division = result["division"]
    lines = [f"LVL Rules, Edition {division['edition']}: match log"]
    for line in result["log"]:
        lines.append(f"  #{line['event'] + 1:<3} {line['effect']}  (§{line['cite']})")
    for name, tally in result["athletes"].items():
        out = " DISQUALIFIED" if tally["disqualified"] else ""
        lines.append(
            f"{name}: {tally['points']} points, {tally['advantages']} advantages, "
            f"{tally['penalties']} penalties{out}"
        )
    outcome = result["result"]
    if outcome["winner"]:
        lines.append(f"Result: {outcome['winner']} wins ({outcome['method']})")
    else:
        lines.append("Result: " + ("no winner yet" if not outcome["ended"] else "undecided"))
    return "\n".join(lines)


def _editions_text(result: dict[str, Any]) -> str:
    return "\n".join(
        f"{e['title']}{' (in force)' if e['id'] == result['latest'] else ''}: {e['description']}"
        for e in result["editions"]
    )


def _rulebook_text(edition_id: str) -> str:
    edition = load_edition(edition_id)
    parts = [f"# {edition.name}, {edition.title}"]
    for clause in edition.clauses.values():
        parts.append(f"\n{'#' * min(clause.depth + 1, 6)} {render.heading(edition, clause)}\n")
        if clause.text:
            parts.append(render.body(edition, clause))
    return "\n".join(parts)
