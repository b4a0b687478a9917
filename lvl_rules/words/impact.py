"""What an edition would change, for whom, in words (``lvl-rules impact``)."""

from __future__ import annotations

from typing import Any

from ..engines.my_division import changed_record
from ..model import MAX_AGE, Edition
from .division import AXIS_NAMES, UNIFORM_NAMES, rank_name

_KIND = {"technique": "techniques", "foul": "fouls"}
# After the record's name and a dash, so that the words agree with any name ("Submissions
# that stretch the legs apart — now legal"); ``would`` for a draft's changes.
_BECOMES = {
    ("technique", True): ("now legal", "would be legal"),
    ("technique", False): ("now illegal", "would be illegal"),
    ("foul", True): ("now a foul", "would be a foul"),
    ("foul", False): ("no longer a foul", "would no longer be a foul"),
}


def _division(row: dict[str, Any], by_axis: dict[str, Edition], *, plain: bool = False) -> str:
    """A group of divisions in words: ``Gi and No-Gi, ages 13-15; no belt or white belt``
    (``plain``, for a parent: ``...; white belt or grey belt (or no belt given)``)."""

    def named(axis: str, listed: list[str | None]) -> str:
        if not plain:
            return " or ".join(
                rank_name(by_axis[axis], r) if r else f"no {AXIS_NAMES[axis]}" for r in listed
            )
        names = [rank_name(by_axis[axis], rank) for rank in listed if rank]
        none = f"no {AXIS_NAMES[axis]} given"
        if not names:
            return none
        return " or ".join(names) + (f" (or {none})" if None in listed else "")

    ranks = "; ".join(named(axis, listed) for axis, listed in row["ranks"].items())
    ages = ", ".join(_ages(a, b) for a, b in row["ages"])
    uniforms = " and ".join(UNIFORM_NAMES[u] for u in row["uniforms"])
    return f"{uniforms}, ages {ages}; {ranks}"


def _ages(low: int, high: int) -> str:
    if high >= MAX_AGE:
        return f"{low} and over"
    return f"{low}" if low == high else f"{low}-{high}"


def everyone(result: dict[str, Any], old: Edition, new: Edition) -> list[str]:
    """What changes for every athlete, one line each: the record's name, the amendment's
    summary of the change and the clause (``Takedown: … (§5.1)``)."""
    lines = []
    for change in result["for_everyone"]:
        record = changed_record(old, new, change["collection"], change["id"])
        summary = new.changed(change["collection"], change["id"])
        said = summary.summary.rstrip(".") if summary and summary.summary else "changed"
        lines.append(f"{record.name}: {said} (§{change['cite']})")
    return lines


# "What this would change for you", on the changes page of a draft (build_scripts/pages/
# changes.py): the heading, the words above the divisions, and each division's link.
FOR_YOU = {
    "heading": "What this would change for you",
    "draft_intro": (
        "{new} is a draft. If it came into force, these athletes would get another answer "
        "from My division than under {old}. Find your child's division (uniform, age and "
        "belt or LVL) and open it to read what would change; every other division keeps its "
        "answer. Under the list, what would change for everyone."
    ),
    "none": "No athlete's answer would change.",
    "lookup": "Check your own division in My division",
    "everyone": "For everyone: {changes}.",
    "everyone_none": "For everyone: nothing would change.",
}


def for_you(result: dict[str, Any], old: Edition, new: Edition) -> list[dict[str, Any]]:
    """For each group of divisions whose answer would change, its name and what would
    change, one line each (the clauses cited)."""
    by_axis = {old.eligibility.axis: old, new.eligibility.axis: new}
    return [
        {
            "division": _division(row, by_axis, plain=True),
            "changes": [_difference(found, old, new, would=True) for found in row["differences"]],
        }
        for row in result["divisions"]
    ]


def impact(result: dict[str, Any], old: Edition, new: Edition) -> str:
    """Each group of divisions whose answer changes, what changes for it and the clauses;
    then what changes for everyone."""
    draft = " (a draft)" if result["draft"] else ""
    lines = [f"What {new.title}{draft} changes against {old.title}, division by division:"]
    by_axis = {old.eligibility.axis: old, new.eligibility.axis: new}
    for row in result["divisions"]:
        lines.append(f"- {_division(row, by_axis)}:")
        for found in row["differences"]:
            lines.append(f"    {_difference(found, old, new)}")
    if not result["divisions"]:
        lines.append("- no division's answer changes")
    lines.append("For everyone:")
    lines += [f"- {line}" for line in everyone(result, old, new)]
    if not result["for_everyone"]:
        lines.append("- nothing")
    return "\n".join(lines)


def _difference(found: dict[str, Any], old: Edition, new: Edition, *, would: bool = False) -> str:
    before_cite, after_cite = found["cites"]
    cites = f"§{before_cite} → §{after_cite}" if before_cite != after_cite else f"§{after_cite}"
    kind = found["kind"]
    if kind == "ladder":
        return f"penalty scale {found['before']} → {found['after']} ({cites})"
    records = getattr(new, _KIND[kind])
    record = records.get(found["id"]) or getattr(old, _KIND[kind])[found["id"]]
    becomes = _BECOMES[(kind, found["after"])][1 if would else 0]
    return f"{record.name} — {becomes} ({cites})"
