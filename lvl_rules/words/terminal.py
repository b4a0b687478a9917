"""What the command line prints for a person at a terminal (``--json`` prints data)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..model import Edition
from .division import AXIS_NAMES
from .markdown import body, expand, heading
from .readings import NOTE_REASON, OUR_READING, mark_markdown, note_heading
from .sheet import DETAIL_LABELS, FINAL_SCORE, score_line

ERROR_PREFIX = "lvl-rules: error: "
ERROR_CLOSED = "it is closed"  # why standard output cannot take the answer
# The command line's own help, by command and option.
HELP = {
    "program": "The LVL Grappling Federation's rules.",
    "eligibility": "which techniques are legal for a division",
    "score": "score a match from a JSON list of events",
    "sheet": "the match sheet: the scored match and its fingerprint (SHA-256)",
    "--name-a": "what to call athlete A (optional)",
    "--name-b": "what to call athlete B (optional)",
    "--colour-a": "athlete A's colour (blue by default)",
    "--colour-b": "athlete B's colour (white by default)",
    "--date": "the match's date (optional)",
    "--event": "the event the match was part of (optional)",
    "--mat": "the mat (optional)",
    "--match-number": "the match number (optional)",
    "--verify": "a fingerprint to check: is it this match's (in any form, old ones too)?",
    "divisions-for": "which divisions may use a technique",
    "export": "a whole edition (JSON, or the text of every clause)",
    "editions": "the editions and which is in force",
    "impact": "what an edition changes against the one it amends, for every division",
    "--age": "age in years, 4 to 120",
    "--uniform": "gi or nogi",
    "--json": "print JSON",
    "events": "JSON file with the list of events, or - for stdin",
    "technique": "technique ID, e.g. heel-hook",
}


def edition_help(ids: Sequence[str], latest: str) -> str:
    """``1, 2 or latest (default: the edition in force)``: the --edition option's help."""
    return f"{', '.join(ids)} or {latest} (default: the edition in force)"


def rank_help(axis: str, editions: Sequence[Edition]) -> str:
    """``LVL: 1, 2, 3, 4 (Edition 1)``: the help of a rank axis's option."""
    ranks = dict.fromkeys(rank for edition in editions for rank in edition.ranks)
    titles = ", ".join(edition.title for edition in editions)
    return f"{AXIS_NAMES[axis]}: {', '.join(ranks)} ({titles})"


def experience_help(editions: Sequence[Edition]) -> str:
    """``prior experience (Edition 2)``: the --experience option's help."""
    titles = ", ".join(edition.title for edition in editions)
    return f"prior experience ({titles}): kinds, or the link's comma list"


def eligibility(result: dict[str, Any]) -> str:
    """Every technique for one division, legal or not, with the reason and the clause."""
    lines = [f"LVL Rules, Edition {result['edition']}: {result['description']}"]
    lines.append(f"Group: {result['group']['label']}")
    for t in result["techniques"]:
        mark = "LEGAL    " if t["legal"] else "NOT LEGAL"
        lines.append(f"  {mark}  {t['name']}  (§{t['cite']})")
        lines.append(f"             {t['reason']}")
    return "\n".join(lines)


def score(result: dict[str, Any]) -> str:
    """A scored match: the log, each athlete's tally, the result."""
    division = result["division"]
    lines = [f"LVL Rules, Edition {division['edition']}: match log"]
    for line in result["log"]:
        lines.append(f"  #{line['event'] + 1:<3} {line['effect']}  (§{line['cite']}){_mark(line)}")
    for name, tally in result["athletes"].items():
        out = " DISQUALIFIED" if tally["disqualified"] else ""
        lines.append(
            f"{name}: {tally['points']} points, {tally['advantages']} advantages, "
            f"{tally['penalties']} penalties{out}"
        )
    outcome = result["result"]
    if outcome["winner"]:
        lines.append(f"Result: {outcome['winner']} wins ({outcome['method']}){_mark(outcome)}")
    else:
        lines.append("Result: " + ("no winner yet" if not outcome["ended"] else "undecided"))
    return "\n".join(lines)


def _mark(line: dict[str, Any]) -> str:
    """``  [Our reading: <title>]`` for a log line or result our reading decided."""
    readings = line.get("readings") or ()
    return f"  [{OUR_READING} {'; '.join(r['title'] for r in readings)}]" if readings else ""


def divisions_for(result: dict[str, Any]) -> str:
    """Who may use one technique."""
    return str(result["summary"])


_STATUS = {"in-force": " (in force)", "draft": " (a draft, for comment)", "superseded": ""}


def editions(result: dict[str, Any]) -> str:
    """The editions, which one is in force and which are drafts."""
    return "\n".join(
        f"{e['title']}{_STATUS[e['status']]}: {e['description']}" for e in result["editions"]
    )


def rulebook(edition: Edition) -> str:
    """The text of every clause of an edition, as Markdown: each clause's heading, the mark
    of the readings it follows (a number of ours, a title of ours, a corrected reference),
    its text, then its editorial notes, as on the rule pages."""
    parts = [f"# {edition.name}, {edition.title}"]
    for clause in edition.clauses.values():
        parts.append(f"\n{'#' * min(clause.depth + 1, 6)} {heading(edition, clause)}\n")
        ids = [n.id for n in edition.readings("clauses", clause.id)]
        if ids:
            parts.append(mark_markdown(edition, ids, lambda _, title: title) + "\n")
        if clause.text:
            parts.append(body(edition, clause))
        for note in edition.notes_for(clause.id):
            parts.append(
                f"\n> **{note_heading(note.title)}** {expand(edition, note.decision)}\n>\n"
                f"> *{NOTE_REASON}* {expand(edition, note.reason)}"
            )
    return "\n".join(parts)


def sheet(result: dict[str, Any]) -> str:
    """A match sheet: the edition, the division, the scored match and its fingerprint."""
    edition = result["edition"]
    status = "in force" if edition["in_force"] else "not the edition in force"
    lines = [f"LVL Rules, {edition['title']} ({status}): {result['description']}"]
    labels = result.get("labels") or {}
    who = result.get("who") or {}
    for athlete, label in labels.items():
        lines.append(f"  Athlete {athlete}: {label} ({who[athlete]['colour']})")
    for detail, value in (result.get("details") or {}).items():
        lines.append(f"  {DETAIL_LABELS[detail]}: {value}")
    for line in result["log"]:
        event = result["events"][line["event"]]
        time = event.get("time") if isinstance(event, dict) else None
        when = f"{time // 60}:{time % 60:02d} " if isinstance(time, int) else ""
        cite = f"  (§{line['cite']})" if line["cite"] else ""
        lines.append(f"  #{line['event'] + 1:<3} {when}{line['effect']}{cite}{_mark(line)}")
    outcome = result["result"]
    cite = f" (§{outcome['cite']})" if outcome["cite"] else ""
    tallies = result.get("athletes") or {}
    scores = "; ".join(score_line(label, tallies[a]) for a, label in labels.items() if a in tallies)
    if scores:
        lines.append(f"{FINAL_SCORE}: {scores}")
    lines.append(f"Result: {outcome['summary']}{cite}{_mark(outcome)}")
    if result.get("verified"):
        lines.append(f"Verified: the fingerprint given is this match's (form {result['verified']})")
    lines.append(
        f"Fingerprint ({result['fingerprint']['form']}): {result['fingerprint']['sha256']}"
    )
    return "\n".join(lines)


# Characters a terminal would act on, or cannot show: written as Python escapes them.
_ACTED_ON = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def escaped(text: str) -> str:
    """Text for a terminal: every control character but the line break (ESC, a carriage
    return), line separator and lone surrogate written as an escape (``\\x1b``), so that
    what a person typed can neither forge a line nor reach the terminal raw."""
    return _ACTED_ON.sub(lambda m: repr(m.group())[1:-1], text)
