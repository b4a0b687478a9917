"""What an edition would change, for whom, in words (``lvl-rules impact``)."""

from __future__ import annotations

from typing import Any

from ..model import Edition
from .division import AXIS_NAMES, UNIFORM_NAMES, rank_name

_KIND = {"technique": "techniques", "foul": "fouls"}
_BECOMES = {
    ("technique", True): "becomes legal",
    ("technique", False): "becomes illegal",
    ("foul", True): "becomes a foul",
    ("foul", False): "is no longer a foul",
}


def impact(result: dict[str, Any], old: Edition, new: Edition) -> str:
    """Each group of divisions whose answer changes, what changes for it and the clauses;
    then what changes for everyone."""
    draft = " (a draft)" if result["draft"] else ""
    lines = [f"What {new.title}{draft} changes against {old.title}, division by division:"]
    by_axis = {old.eligibility.axis: old, new.eligibility.axis: new}
    for row in result["divisions"]:
        ranks = "; ".join(
            " or ".join(
                rank_name(by_axis[axis], rank) if rank else f"no {AXIS_NAMES[axis]}"
                for rank in listed
            )
            for axis, listed in row["ranks"].items()
        )
        ages = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in row["ages"])
        uniforms = " and ".join(UNIFORM_NAMES[u] for u in row["uniforms"])
        lines.append(f"- {uniforms}, ages {ages}; {ranks}:")
        for found in row["differences"]:
            lines.append(f"    {_difference(found, old, new)}")
    if not result["divisions"]:
        lines.append("- no division's answer changes")
    lines.append("For everyone:")
    for change in result["for_everyone"]:
        lines.append(
            f"- {change['collection']} {change['id']}: {change['kind']} (§{change['cite']})"
        )
    if not result["for_everyone"]:
        lines.append("- nothing")
    return "\n".join(lines)


def _difference(found: dict[str, Any], old: Edition, new: Edition) -> str:
    before_cite, after_cite = found["cites"]
    cites = f"§{before_cite} → §{after_cite}" if before_cite != after_cite else f"§{after_cite}"
    kind = found["kind"]
    if kind == "ladder":
        return f"penalty scale {found['before']} → {found['after']} ({cites})"
    records = getattr(new, _KIND[kind])
    record = records.get(found["id"]) or getattr(old, _KIND[kind])[found["id"]]
    return f"{record.name} {_BECOMES[(kind, found['after'])]} ({cites})"
