"""Eligibility answers in words: why a technique is legal or not, and who may use it."""

from __future__ import annotations

from ..engines.eligibility import Verdict
from .division import UNIFORM_NAMES, describe, describe_ranks, rank_name


def reason(verdict: Verdict) -> str:
    """Legal or not, why, in one or a few sentences."""
    athlete = verdict.division
    edition = athlete.edition
    if verdict.why == "prohibited":
        return f"{edition.eligibility.prohibited_label}."
    granting = verdict.granting.label if verdict.granting else ""
    own = verdict.own.label if verdict.own else ""
    if verdict.why == "later-group":
        text = (
            f"Not legal: allowed only from “{granting}”; this athlete ({describe(athlete)}) is "
            f"in “{own}”."
        )
    elif verdict.why == "limited" and verdict.limit is not None:
        text = (
            f"Not legal: in “{granting}” it is only for "
            f"{describe_ranks(edition, verdict.limit.ranks)}; this athlete is {describe(athlete)}."
        )
    elif verdict.why == "own-group":
        text = f"Legal: allowed for “{granting}”, this athlete's group."
    else:
        text = f"Legal: allowed from “{granting}”; this athlete's group, “{own}”, includes it."
    if verdict.legal_in is not None:
        text += f" It would be legal for this athlete in {UNIFORM_NAMES[verdict.legal_in]}."
    promotion = edition.eligibility.promotion
    if athlete.promoted and athlete.effective_rank is not None and promotion is not None:
        text += (
            f" Prior experience moves this athlete to "
            f"{rank_name(edition, athlete.effective_rank)} (§{promotion.clause})."
        )
    return text


def who_may_use(name: str, cells: list[tuple[str, str]]) -> str:
    """``Heel hook: legal for Adults, brown belt (No-Gi).`` from (column, uniform) pairs."""
    if not cells:
        return f"{name}: not legal in any division."
    by_band: dict[str, list[str]] = {}
    for band, uniform in cells:
        by_band.setdefault(band, []).append(UNIFORM_NAMES[uniform])
    parts = [f"{band} ({' and '.join(kits)})" for band, kits in by_band.items()]
    return f"{name}: legal for " + "; ".join(parts) + "."
