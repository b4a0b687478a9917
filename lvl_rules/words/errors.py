"""Every error message: one sentence per problem code, made from the error's details.

Code raises ``RulesError("age-out-of-range", field="age", value=..., minimum=4, ...)``;
the sentence is made here, so a wording fix (or, one day, a translation) has one place
to go. Values are quoted short: a message never repeats more than :data:`SHOWN_CHARS`
characters of what was given.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SHOWN_CHARS = 80
LINE_CHARS = 400  # a message of argparse's: its own words, and what was typed
PLAIN_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")  # a key shown as `.name` in a path

Details = Mapping[str, Any]


def allowed(values: Iterable[object]) -> str:
    """The allowed values of a field: ``gi, nogi``."""
    shown = [str(value) for value in values]
    return ", ".join(shown) if shown else "(none)"


def quoted(value: object) -> str:
    """A value as Python writes it (``'grey'``, ``300``), cut short when long; on one line
    (``repr`` escapes every line break)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to write out
        text = f"<a number of {value.bit_length()} bits>"  # type: ignore[attr-defined]
    except RecursionError:  # a list nested too deeply to write out
        text = f"<a {type(value).__name__} nested too deeply to show>"
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[: SHOWN_CHARS - 1]}… ({len(text):,} characters)"


def member(field: str, key: str) -> str:
    """The path of a key inside ``field``: ``events[3].type``, or the key quoted when it is
    not a plain name (``events[3]['a b']``), so that a path stays short and on one line."""
    if PLAIN_NAME.fullmatch(key):
        return f"{field}.{key}" if field else key
    return f"{field}[{quoted(key)}]"


def one_line(text: str) -> str:
    """A message made by another program (argparse's), on one line: line breaks and other
    control characters escaped as ``repr`` writes them, at most :data:`LINE_CHARS` long."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: LINE_CHARS + 1])
    if len(shown) <= LINE_CHARS:
        return shown
    return f"{shown[: LINE_CHARS - 1]}… ({len(text):,} characters)"


def kind_of(value: object) -> str:
    """What a TOML value is, for a data error: ``'x' (str)``, ``a table``, ``an array``."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"{quoted(value)} ({type(value).__name__})"


# What is wrong with a key of a data file, after "<file>: key '<where>' ".
DATA_PROBLEMS: dict[str, Callable[[Details], str]] = {
    "missing": lambda d: "is missing",
    "not-text": lambda d: f"must be non-empty text, not {kind_of(d['value'])}",
    "not-one-of": lambda d: f"is {quoted(d['value'])}; allowed: {allowed(d['choices'])}",
    "not-whole": lambda d: f"must be a whole number, not {kind_of(d['value'])}",
    "too-small": lambda d: f"is {d['value']}; it must be at least {d['minimum']}",
    "not-flag": lambda d: f"must be true or false, not {kind_of(d['value'])}",
    "not-array": lambda d: f"must be an array, not {kind_of(d['value'])}",
    "not-texts": lambda d: f"must hold only non-empty text, not {kind_of(d['value'])}",
    "repeated-value": lambda d: "lists the same value twice",
    "not-tables": lambda d: f"must be an array of tables, not {kind_of(d['value'])}",
    "unknown-key": lambda d: f"is not a known key; allowed: {allowed(d['known'])}",
    "wrong-axis": lambda d: f"does not fit this edition, which places athletes by {d['axis']}",
    "criteria-uniform": lambda d: f"holds {quoted(d['value'])}; allowed: {allowed(d['choices'])}",
    "ages-reversed": lambda d: "is greater than max_age",
    "points-needed": lambda d: "must be more than 0 when the award is points",
    "points-not-allowed": lambda d: f"must not be set when the award is {d['award']}",
    "ladder-end": lambda d: "must end with the disqualify step",
    "ladder-early-end": lambda d: "may disqualify only on the last step",
    "hold-not-severe": lambda d: (
        f"is true for a {d['group']} foul; only a severe foul can be a call on a hold "
        f"(its disqualification is the one that may be withdrawn as made in error)"
    ),
    "clause-id": lambda d: (
        f"has clause ID {quoted(d['value'])}; IDs are section numbers such as 5.4 or one of "
        f"{', '.join(d['front_matter'])}"
    ),
    "settings-operation": lambda d: (
        f"is a settings table; it can only be changed, not {d['operation']}ed"
    ),
    "unknown-table": lambda d: f"is not a known table; allowed: {allowed(d['known'])}",
    "removes-missing": lambda d: (
        f"removes {quoted(d['key'])}, which the base edition does not have"
    ),
    "changes-missing": lambda d: (
        f"changes {quoted(d['key'])}, which the base edition does not have"
    ),
    "adds-existing": lambda d: f"adds {quoted(d['key'])}, which already exists; change it instead",
    "anchor-missing": lambda d: f"names {quoted(d['anchor'])}, which is not in {d['collection']}",
    "unknown-clause": lambda d: (
        f"cites clause {quoted(d['clause'])}, which Edition {d['edition']} does not have"
    ),
    "criteria-rank": lambda d: f"names rank {quoted(d['rank'])}; allowed: {allowed(d['known'])}",
    "amended-missing": lambda d: "was amended but is missing",
    "removed-but-cited": lambda d: (
        f"removes {quoted(d['record'])}, which {d['citing']} in {d['citing_file']} still "
        f"names; keep it, or change that key too"
    ),
    "unknown-marker": lambda d: (
        f"has marker {quoted('{' + d['marker'] + ':' + d['argument'] + '}')}; allowed: "
        f"{allowed(d['known'])}"
    ),
    "bad-marker": lambda d: (
        f"has {quoted(d['value'])}, which is neither a reference such as {{§5.4}} nor a "
        f"marker: {{table:…}}, {{points:…}} or {{toc:…}}"
    ),
    "stray-brace": lambda d: (
        f"has a brace that is not part of a reference or marker at {quoted(d['value'])}; "
        f"write references as {{§5.4}} and markers as {{table:…}}, {{points:…}} or {{toc:…}}"
    ),
    "braces-not-allowed": lambda d: (
        f"has a brace at {quoted(d['value'])}; references and markers belong only in rule "
        f"text (a clause's title and text, a note's decision and reason, a foul's description)"
    ),
    "raw-html": lambda d: (
        f"has raw HTML at {quoted(d['value'])}; text in the data is Markdown only "
        f"(*emphasis*, **strong**, lists, tables), never HTML"
    ),
    "bad-id": lambda d: "is not an ID: IDs are lowercase letters, digits and hyphens (heel-hook)",
    "promotion-rank": lambda d: f"names unknown rank {quoted(d['rank'])}",
    "promotion-without-experiences": lambda d: "and [experiences] come together",
    "lvl-not-number": lambda d: "must be numbers when the axis is lvl",
    "unknown-note": lambda d: f"names unknown note {quoted(d['note'])}",
    "term-not-read": lambda d: (
        "is explained in our words (it names no clause), and no note of "
        f"edition {d['edition']} reads it: name it in a note's readings"
    ),
    "unknown-reading-place": lambda d: (
        f"names {quoted(' '.join(str(d[k]) for k in ('collection', 'key', 'place_field')))} "
        "as a place of its "
        "reading, which this edition does not have"
    ),
    "not-restricted": lambda d: (
        f"names {quoted(d['technique'])}, which is not a restricted technique; allowed: "
        f"{allowed(d['known'])}"
    ),
    "granted-twice": lambda d: f"repeats {quoted(d['technique'])} (already in {d['group']})",
    "limit-not-added": lambda d: f"limits {quoted(d['technique'])}, not added here",
    "never-granted": lambda d: f"never add restricted technique {quoted(d['technique'])}",
    "escape-missing": lambda d: "is missing; both locked and open are needed",
    "award-missing": lambda d: "is missing; the scoring engine gives it",
    "count-foul": lambda d: f"names '{d['foul']}', which is not a foul on the penalty scale",
    "foul-needed": lambda d: f"is needed, in group '{d['group']}'",
    "not-a-technique": lambda d: (
        f"names {quoted(d['technique'])}, which is not in the technique catalogue"
    ),
    "age-without-ladder": lambda d: f"leave age {d['age']} without a penalty scale",
    "method-needed": lambda d: "is needed by the scoring engine",
}


def _data_key(d: Details) -> str:
    return f"{d['file']}: key '{d['where']}' {DATA_PROBLEMS[d['problem']](d)}"


def _axis_word(axis: str) -> str:
    return "LVL" if axis == "lvl" else "belt"


def choices(values: Iterable[object]) -> str:
    """Values to choose from, as a person writes them: ``white, blue or black``."""
    shown = [str(value) for value in values]
    return " or ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _age_problem(d: Details) -> str:
    value = d["value"]
    years = f"a whole number of years from {d['minimum']} to {d['maximum']}"
    if value is None or (isinstance(value, str) and not value.strip()):
        return f"age is missing: give the athlete's age, {years}"
    return f"age must be {years}, not {quoted(value)}"


def _rank_not_at_age(d: Details) -> str:
    word = _axis_word(d["axis"])
    if d["kids"]:
        who = f"{d['rank']} is a kids' {word}, for ages {d['min_age']} to {d['max_age']}"
    else:
        who = f"{d['rank']} is a {word} for athletes aged {d['min_age']} and over"
    leave = f", or leave the {word} out" if d["optional"] else ""
    return f"{d['axis']}: {who}; at {d['age']} choose {choices(d['ranks'])}{leave}"


MESSAGES: dict[str, Callable[[Details], str]] = {
    # Edition data
    "data-key": _data_key,
    "not-a-table": lambda d: (
        f"{d['file']}: [{d['where']}] must be a table, not {kind_of(d['value'])}"
    ),
    "not-utf8": lambda d: (
        f"{d['file']}: not UTF-8 text (line {d['line']:,}, byte {d['position']:,}); "
        f"save it as UTF-8"
    ),
    "not-toml": lambda d: f"{d['file']}: not valid TOML: {d['reason']}",
    "toml-too-deep": lambda d: f"{d['file']}: not valid TOML: arrays or tables nested too deeply",
    "tables-missing": lambda d: (
        f"{d['folder']}: no file has a [{d['table']}] table (is a file empty or missing?)"
    ),
    "table-twice": lambda d: f"{d['file']}: table '{d['table']}' is also in {d['other']}",
    "unknown-edition-table": lambda d: (
        f"{d['file']}: '{d['table']}' is not a known table; allowed: {allowed(d['known'])}"
    ),
    "settings-missing": lambda d: f"edition data has no [{d['table']}] table",
    "folder-mismatch": lambda d: (
        f"{d['file']}: key 'edition.id' is {quoted(d['id'])} but the folder is "
        f"editions/{d['folder']}"
    ),
    "amends-unknown": lambda d: (
        f"{d['file']}: key 'amends' is {quoted(d['base'])}; allowed: {allowed(d['known'])}"
    ),
    "amends-none": lambda d: (
        f"Edition {d['edition']} is a full rulebook: it amends no edition to compare it with"
    ),
    "status-missing": lambda d: (
        f"{d['file']}: [change.edition] must say the edition's own 'status' "
        "(draft, in-force or superseded): it is never the amended edition's"
    ),
    "in-force-count": lambda d: (
        "exactly one edition must have status 'in-force'; "
        f"found {len(d['found'])}{': ' + ', '.join(d['found']) if d['found'] else ''}"
    ),
    "status-out-of-order": lambda d: (
        f"Edition {d['edition']} has status {quoted(d['status'])} but its place on the "
        f"timeline needs {quoted(d['expected'])} (superseded editions come before the one "
        "in force, drafts after it)"
    ),
    "no-clause": lambda d: f"Edition {d['edition']} has no clause '{d['clause']}'",
    # Editions and divisions
    "unknown-edition": lambda d: (
        f"edition {quoted(d['value'])} does not exist; allowed: {allowed(d['known'])}"
    ),
    "rank-of-other-axis": lambda d: (
        f"{d['given']}: Edition {d['edition']} places athletes by {_axis_word(d['axis'])}, "
        f"not {_axis_word(d['given'])}; give {d['axis']} ({allowed(d['ranks'])}) instead"
    ),
    "age-out-of-range": _age_problem,
    "unknown-uniform": lambda d: (
        f"uniform must be one of {allowed(d['choices'])} (Gi or No-Gi), not {quoted(d['value'])}"
    ),
    "rank-required": lambda d: (
        f"{d['axis']} is missing: Edition {d['edition']} places athletes aged {d['from_age']} "
        f"and over by {_axis_word(d['axis'])}; give one of {allowed(d['ranks'])}"
    ),
    "unknown-rank": lambda d: (
        f"{d['axis']} {quoted(d['value'])} does not exist in Edition {d['edition']}; "
        f"allowed: {allowed(d['ranks'])}"
    ),
    "rank-not-at-age": _rank_not_at_age,
    "experience-not-list": lambda d: (
        f"experience must be a list of prior experience, not {quoted(d['value'])}; "
        f"allowed: {allowed(d['known'])}"
    ),
    "experience-not-in-edition": lambda d: (
        f"experience: Edition {d['edition']} has no prior-experience rule; leave it out"
    ),
    "unknown-experience": lambda d: (
        f"experience {quoted(d['value'])} is not known; allowed: {allowed(d['known'])}"
    ),
    "unknown-technique": lambda d: (
        f"technique {quoted(d['value'])} is not in the catalogue; allowed: {allowed(d['known'])}"
    ),
    "no-group": lambda d: (
        f"no group of Edition {d['edition']} covers age {d['age']}, {d['rank']}, {d['uniform']}"
    ),
    "never-allowed": lambda d: f"no group of Edition {d['edition']} allows '{d['technique']}'",
    # Match events
    "events-not-list": lambda d: f"events must be a list of event objects, not {d['kind']}",
    "event-not-object": lambda d: f'{d["where"]} must be an object such as {{"type": "end"}}',
    "unknown-event-type": lambda d: (
        f"{d['where']}.type is {quoted(d['value'])}; allowed: {allowed(d['known'])}"
    ),
    "unknown-event-field": lambda d: (
        f"{member(d['where'], d['name'])} is not a field of a '{d['type']}' event; allowed: "
        f"{allowed(d['known'])}"
    ),
    "event-field-required": lambda d: (
        f"{d['where']}.{d['name']} is required for a '{d['type']}' event"
    ),
    "event-value": lambda d: (
        f"{d['field']} is {quoted(d['value'])}; allowed: {allowed(d['known'])}"
    ),
    "event-time": lambda d: (
        f"{d['field']} must be the match time in whole seconds (0 or more), not "
        f"{quoted(d['value'])}"
    ),
    "event-flag": lambda d: f"{d['field']} must be true or false, not {quoted(d['value'])}",
    "rulings-not-three": lambda d: (
        f"{d['field']} must be a list of three rulings, not {quoted(d['value'])}"
    ),
    "unknown-ruling": lambda d: (
        f"{d['field']} holds {quoted(d['value'])}; allowed: {allowed(d['known'])}"
    ),
    "severe-needs-kind": lambda d: f"{d['where']} needs kind ({allowed(d['kinds'])}) or foul",
    "foul-not-of-kind": lambda d: f"{d['field']} '{d['foul']}' is not a {d['kind']} foul",
    "draw-not-allowed": lambda d: (
        f"{d['field']} is allowed only when both athletes are injured in a final "
        f"(both_injured and final true, §{d['clause']})"
    ),
    "after-the-end": lambda d: (
        f"events[{d['index']}]: the match already ended at events[{d['ended_at']}] "
        f"({d['method'] or 'undecided'}); no event may follow"
    ),
    "after-time": lambda d: (
        f"events[{d['index']}]: time already expired at events[{d['expired_at']}]"
        + (
            ""
            if d["type"] == "time-expired"
            else f"; until the result is announced, §{d['clause']} allows an advantage once "
            f"no scoring position can be completed, and by our reading (the editorial note "
            f"on §{d['clause']}) a foul, a hold prohibited for the division, a loss of "
            f"consciousness and the end may also be recorded, not a '{d['type']}' event"
        )
    ),
    "position-after-time": lambda d: (
        f"{d['field']}: the middle ruling is {d['middle']}, but time already expired at "
        f"events[{d['expired_at']}]; §{d['clause']} allows an advantage after time once no "
        f"scoring position can be completed, and by our reading (the editorial note on "
        f"§{d['clause']}) no position scores after time"
    ),
    "nothing-to-withdraw": lambda d: (
        f"events[{d['index']}]: a restart after a disqualification in error (§{d['clause']}) "
        f"must directly follow {d['athlete']}'s disqualification for {_holds(d)}"
    ),
    "not-for-a-hold": lambda d: (
        f"events[{d['index']}]: {d['athlete']} was disqualified at events[{d['at']}] for "
        f"'{d['foul']}' (§{d['foul_clause']}), not for using a hold; a disqualification is "
        f"withdrawn as made in error (§{d['clause']}) only when it was for {_holds(d)} and "
        f"the hold was legal for the division"
    ),
    "hold-not-legal": lambda d: (
        f"events[{d['index']}]: {d['athlete']} was disqualified at events[{d['at']}] for "
        f"'{d['technique']}', which the chart does not allow in this division (§{d['chart']}), "
        f"so the disqualification was not in error and stands (§{d['clause']}); if the hold "
        f"was another one, correct events[{d['at']}] instead (the referee's call on a hold "
        f"that was legal is a severe-foul event with foul {' or '.join(d['holds'])}, before "
        f"this restart)"
    ),
    # Requests (JSON API, command line)
    "request-not-object": lambda d: "a request must be a JSON object",
    "log-from": lambda d: (
        f"log_from must be the index of an event (a whole number, 0 or more), not "
        f"{quoted(d['value'])}"
    ),
    "names": lambda d: (
        f"names must map athletes A and B to what to call them (texts without control "
        f'characters such as a new line), for example {{"A": "Ana", "B": "Bia"}}, not '
        f"{quoted(d['value'])}"
    ),
    "colours": lambda d: (
        f"colours must map athletes A and B to colours ({', '.join(d['known'])}), for "
        f'example {{"A": "blue", "B": "white"}}, not {quoted(d["value"])}'
    ),
    "details": lambda d: (
        f"details must map some of {', '.join(d['known'])} to texts without control "
        f"characters, not {quoted(d['value'])}"
    ),
    "verify": lambda d: (
        f"verify must be a fingerprint (64 hexadecimal digits), not {quoted(d['value'])}"
    ),
    "fingerprint-not-this-match": lambda d: (
        f"the fingerprint {quoted(d['value'])} is not this match's, in any form: the match "
        f"(edition, division, names, colours, details or an event) is not the one it was made of"
    ),
    "event-beyond-limit": lambda d: (
        f"{d['field']} is beyond the {d['limit']:,} events a match may hold"
    ),
    "match-key": lambda d: (
        f"match must be a caller's key for its match (a text, 1 to 200 characters, sent "
        f"without log_from), not {quoted(d['value'])}"
    ),
    "unknown-action": lambda d: (
        f"action {quoted(d['value'])} is not known; allowed: {allowed(d['known'])}"
    ),
    "events-unreadable": lambda d: f"events: cannot read {_source(d)}: {d['reason']}",
    "stdin-closed": lambda d: (
        "events: standard input is closed; give a file, or pipe the events in"
    ),
    # Limits at the edges (lvl_rules.faces.limits): JSON text before it is parsed ...
    "not-json-text": lambda d: f"{d['field']} must be JSON text, not {d['kind']}",
    "input-too-long": lambda d: (
        f"{_input(d)} is longer than the {d['limit']:,} {d['unit']} allowed"
    ),
    "input-not-utf8": lambda d: (
        f"{_input(d)} is not UTF-8 text (line {d['line']:,}, byte {d['position']:,}); "
        f"save it as UTF-8"
    ),
    "too-deep": lambda d: (
        f"{_input(d)} is nested {d['depth']:,} levels deep; at most {d['limit']} are allowed"
    ),
    "not-json": lambda d: f"{_input(d)} is not valid JSON: {d['reason']}",
    "number-too-long": lambda d: (
        f"{_input(d)} holds a number of {d['digits']:,} digits ({quoted(d['value'])}); "
        f"at most {d['limit']} are allowed"
    ),
    "number-too-large": lambda d: (
        f"{_input(d)} holds a number too large to use ({quoted(d['value'])})"
    ),
    "not-a-json-number": lambda d: (
        f"{_input(d)} holds {d['value']}, which JSON does not allow; numbers are digits"
    ),
    # ... and the values it holds
    "text-too-long": lambda d: (
        f"{d['field']} is {d['length']:,} characters long ({quoted(d['value'])}); at most "
        f"{d['limit']} are allowed"
    ),
    "key-too-long": lambda d: (
        f"{d['field']} has a key of {d['length']:,} characters "
        f"({quoted(d['value'])}); at most {d['limit']} are allowed"
    ),
    "too-many-items": lambda d: (
        f"{d['field']} holds {d['count']:,} items; at most {d['limit']:,} are allowed"
    ),
    # The command line's own streams, and the last resort
    "stdout-failed": lambda d: f"cannot write the answer to standard output: {d['reason']}",
    "stdout-encoding": lambda d: (
        f"standard output takes {d['encoding']}, which cannot write {quoted(d['value'])}; "
        f"set PYTHONIOENCODING=utf-8, or use --json"
    ),
    "internal-error": lambda d: (
        f"internal error ({d['kind']}: {quoted(d['reason'])}); please report it"
    ),
}


def _holds(d: Details) -> str:
    """The fouls whose disqualification 2.1 may withdraw: ``using a hold prohibited for the
    division (illegal-hold)``."""
    return f"using a hold prohibited for the division ({' or '.join(d['holds'])})"


def _source(d: Details) -> str:
    """Where input came from: ``standard input``, or a file's path quoted, cut short at its
    start when long (the file's own name is at the end)."""
    if d.get("source") == "-":
        return "standard input"
    text = repr(d.get("source"))
    return text if len(text) <= SHOWN_CHARS else f"…{text[-(SHOWN_CHARS - 1) :]}"


def _input(d: Details) -> str:
    """The input a limit or a parse error is about: ``request`` or ``events: 'm.json'``."""
    return d["field"] if d.get("source") is None else f"{d['field']}: {_source(d)}"


def message(problem: str, details: Details) -> str:
    """The sentence for a problem code and its details; never fails (a code without words,
    or details that do not fit them, still say what they hold, shortly)."""
    phrase = MESSAGES.get(problem)
    if phrase is not None:
        with contextlib.suppress(Exception):
            return phrase(details)
    return f"{problem}: {quoted(dict(details))}"
