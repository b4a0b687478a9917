"""Apply an amendment file to a base edition's data, recording what it changed.

An amendment names exactly what it touches, like a reform of a legal text:

    amends = "1"
    [change.clauses."5.3"]   # deep-merged into the base record; must exist
    summary = "..."          # why, in our words; published on the changes page
    [add.clauses."5.7"]      # a new record; its ID must be new; after/before = where
    [remove.notes.some-note] # the record is dropped; its ID is never reused
    [change.eligibility]     # settings tables are changed the same way

Beside the file behind each record, the origins it returns name the amendment that
removed a record, under ``("remove.<table>", key)``: a record that still cites it is
reported at the removal.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import RulesError, amended
from ..model.edition import COLLECTIONS, SETTINGS, Change
from ..model.reader import Table

Origins = dict[tuple[str, str | None], str]
OPERATIONS = ("change", "add", "remove")
REMOVED = "remove."  # origins[(REMOVED + table, key)]: the amendment that removed it


def apply_amendment(
    base: dict[str, Any], origins: Origins, amendment: Table
) -> tuple[dict[str, Any], Origins, tuple[Change, ...]]:
    """Return the amended data, the file behind each record, and the list of changes."""
    data = copy.deepcopy(base)
    # The base's own removals are its business: a citation of one is this edition's.
    origins = {where: file for where, file in origins.items() if not where[0].startswith(REMOVED)}
    changes: list[Change] = []
    file = amendment.file
    for operation in OPERATIONS:
        for name, targets in amendment.keyed(operation, {}):
            if name in SETTINGS:
                if operation != "change":
                    raise targets.fail("", "settings-operation", operation=operation)
                summary = _summary(targets)
                _deep_merge(data.setdefault(name, {}), targets.raw(without=("summary",)))
                origins[(name, None)] = amended(origins.get((name, None)), file)
                changes.append(Change(collection=name, key=None, kind="changed", summary=summary))
                continue
            if name not in COLLECTIONS:
                raise targets.fail("", "unknown-table", known=(*COLLECTIONS, *SETTINGS))
            records = data.setdefault(name, {})
            for key in targets.names():
                target = targets.table(key)
                changes.append(_apply(operation, name, key, target, records, origins, file))
    amendment.text("amends")
    amendment.finish()
    return data, origins, tuple(changes)


def _apply(
    operation: str,
    name: str,
    key: str,
    target: Table,
    records: dict[str, Any],
    origins: Origins,
    file: str,
) -> Change:
    summary = _summary(target)
    if operation == "remove":
        if key not in records:
            raise target.fail("", "removes-missing", key=key)
        target.finish()
        del records[key]
        origins.pop((name, key), None)
        origins[(REMOVED + name, key)] = file
        return Change(collection=name, key=key, kind="removed", summary=summary)
    if operation == "change":
        if key not in records:
            raise target.fail("", "changes-missing", key=key)
        _deep_merge(records[key], target.raw(without=("summary",)))
        origins[(name, key)] = amended(origins.get((name, key)), file)
        return Change(collection=name, key=key, kind="changed", summary=summary)
    if key in records:
        raise target.fail("", "adds-existing", key=key)
    after = target.text("after", None)
    before = target.text("before", None)
    record = target.raw(without=("summary", "after", "before"))
    anchor = after or before
    if anchor is None:
        records[key] = record
    elif anchor not in records:
        raise target.fail(
            "after" if after else "before", "anchor-missing", anchor=anchor, collection=name
        )
    else:
        items = list(records.items())
        index = [k for k, _ in items].index(anchor) + (1 if after else 0)
        records.clear()
        records.update([*items[:index], (key, record), *items[index:]])
    origins[(name, key)] = file
    return Change(collection=name, key=key, kind="added", summary=summary)


def _summary(target: Table) -> str:
    summary: str = target.text("summary")
    return summary


def _deep_merge(into: dict[str, Any], update: dict[str, Any]) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _deep_merge(into[key], value)
        else:
            into[key] = value


def check_amendment_target(amendment: Table, known: tuple[str, ...]) -> str:
    """The edition an amendment amends, which must be one of ``known``."""
    base: str = amendment.text("amends")
    if base not in known:
        raise RulesError(
            "amends-unknown", field="amends", file=amendment.file, base=base, known=known
        )
    return base
