""" "My division": everything the rules say about one athlete, as structured facts.

For one division: the chart techniques that are legal; those that are not, each with the
earliest step that would make it legal for this athlete (older, another rank, the other
uniform, or never); the fouls whose existence depends on the division, with whether they
apply; the penalty scale. For one person in two editions: what differs between them.
:mod:`lvl_rules.words.my_division` puts the facts into words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..model import (
    MAX_AGE,
    MIN_AGE,
    NEEDS,
    Criteria,
    Edition,
    Foul,
    Group,
    Ladder,
    Unlisted,
    in_uniform,
)
from .division import Division
from .eligibility import Verdict, decide_all, group_of
from .scoring import ladder_for

# Using a technique the chart does not allow: a foul the scoring engine needs, so the
# loader makes sure every edition has it.
ILLEGAL_HOLD = next(foul for foul in NEEDS.fouls if foul == "illegal-hold")

# The scoring tables are the same for every division (§3.5): what an amendment changes in
# them concerns every athlete.
SCORING = ("positions", "escapes", "awards", "advantages")
EXPERIENCE = "experience"  # the form's field for prior experience

# What a division-dependent foul is, for this athlete (FoulFact.status).
STATUSES = (
    "applies",  # a foul for this athlete
    "uniform",  # a foul for this athlete, as for everyone in their uniform (only_for: it only)
    "not-here",  # not a foul in this division (only_for)
    "legal-here",  # not a foul because the technique it concerns is legal here (unless_legal)
)
# The field of a foul that decides each status: a note on it is the reading behind it.
STATUS_FIELDS = {
    "applies": ("only_for",),
    "uniform": ("only_for",),
    "not-here": ("only_for",),
    "legal-here": ("unless_legal",),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class Unlock:
    """The nearest step that makes a technique legal for an athlete. ``never``: none does
    (always prohibited, or only for athletes younger than this one)."""

    never: bool = False
    min_age: int | None = None  # from this age
    ranks: tuple[str, ...] = ()  # at one of these (effective) ranks
    uniforms: tuple[str, ...] = ()  # in one of these uniforms


@dataclass(frozen=True, kw_only=True, slots=True)
class NotLegal:
    """A technique this athlete may not use, why, and when that changes."""

    verdict: Verdict
    unlock: Unlock


@dataclass(frozen=True, kw_only=True, slots=True)
class FoulFact:
    """A foul whose existence depends on the division, and what it is for this athlete."""

    foul: Foul
    status: str  # one of STATUSES
    readings: tuple[str, ...] = ()  # the notes whose reading decided the status

    @property
    def applies(self) -> bool:
        """Whether it is a foul for this athlete."""
        return self.status in ("applies", "uniform")


@dataclass(frozen=True, kw_only=True, slots=True)
class Overview:
    """Everything the rules say about one division."""

    division: Division
    group: Group
    unlisted: tuple[Unlisted, ...]  # techniques the chart restricts for no one, in reach here
    legal: tuple[Verdict, ...]  # restricted techniques this athlete may use
    not_legal: tuple[NotLegal, ...]  # restricted ones first, then the prohibited
    fouls: tuple[FoulFact, ...]
    severe: tuple[Foul, ...]  # the severe fouls that are fouls for this athlete (named ones)
    ladder: Ladder


@dataclass(frozen=True, kw_only=True, slots=True)
class Difference:
    """One thing that differs for the same person between two editions.

    ``kind``: "technique" (legal before/after), "foul" (a foul before/after; its reset, if
    it has one, goes with it) or "ladder" (``before``/``after`` are the scales' IDs).
    """

    kind: str
    id: str
    before: bool | str
    after: bool | str
    cites: tuple[str, str]
    notes: tuple[str, ...] = ()  # the newer edition's notes whose reading this follows


@dataclass(frozen=True, kw_only=True, slots=True)
class ForEveryone:
    """A record a newer edition changed, added or removed that concerns every athlete,
    whatever their division (a scoring position, say), with the clause that has it."""

    collection: str
    id: str
    kind: str  # "changed", "added" or "removed"
    cite: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Compared:
    """What differs for one person between two editions, when some of their fields are
    not known: ``differences`` hold whatever those fields are, ``depends`` (kind, ID)
    differ for some values only. Everything is known: ``depends`` is empty."""

    differences: tuple[Difference, ...]
    depends: tuple[tuple[str, str], ...] = ()


def overview(athlete: Division) -> Overview:
    """What the rules say about one division."""
    verdicts = decide_all(athlete)
    legal = tuple(v for v in verdicts if v.legal)
    blocked = [NotLegal(verdict=v, unlock=unlock(athlete, v)) for v in verdicts if not v.legal]
    blocked.sort(key=lambda item: _soonest(athlete.edition, item))
    facts = division_fouls(athlete, verdicts)
    return Overview(
        division=athlete,
        group=group_of(athlete),
        unlisted=unlisted_for(athlete),
        legal=legal,
        not_legal=tuple(blocked),
        fouls=facts,
        severe=severe_fouls(athlete, facts),
        ladder=ladder_for(athlete),
    )


def unlisted_for(athlete: Division) -> tuple[Unlisted, ...]:
    """The techniques the chart does not name (so restricts for no one) that this athlete
    can use in their uniform: the examples of what they may do (a collar choke in Gi)."""
    return tuple(t for t in athlete.edition.unlisted.values() if t.worn_in(athlete.uniform))


def _soonest(edition: Edition, item: NotLegal) -> tuple[int, int, int, int]:
    """Restricted techniques first, those the athlete reaches soonest first (the youngest
    age, then the lowest rank, then without a uniform's condition), then the prohibited;
    the sort is stable, so the catalogue's order stays within each."""
    found = item.unlock
    order = list(edition.ranks)
    return (
        int(item.verdict.technique.prohibited) * 2 + int(found.never),
        found.min_age or 0,
        min((order.index(rank) + 1 for rank in found.ranks), default=0),
        int(bool(found.uniforms)),
    )


def unlock(athlete: Division, verdict: Verdict) -> Unlock:
    """The fewest changes (age, rank, uniform) after which the technique would be legal.

    The technique is legal in every group from the one that first allows it (groups build
    on each other), within that group's limit if it has one. Each set of athletes of those
    groups asks some changes of this athlete; the sets that ask the fewest are merged.
    """
    if verdict.technique.prohibited or verdict.granting is None:
        return Unlock(never=True)
    edition = athlete.edition
    # Below the age an edition needs a rank, the rank given says nothing of the future.
    rank = athlete.effective_rank if rank_matters(athlete) else None
    asks = []
    for both in legal_sets(edition, verdict.granting, verdict.technique.id):
        if athlete.age > both.max_age:
            continue  # only athletes younger than this one
        age = both.min_age if athlete.age < both.min_age else None
        ranks = both.ranks if both.ranks and rank not in both.ranks else ()
        kits = both.uniforms if both.uniforms and athlete.uniform not in both.uniforms else ()
        kinds = (age is not None, bool(ranks), bool(kits))
        asks.append((sum(kinds), kinds, age, ranks, kits))
    if not asks:
        return Unlock(never=True)
    fewest = min(ask[0] for ask in asks)
    kinds = next(ask[1] for ask in asks if ask[0] == fewest)
    chosen = [ask for ask in asks if ask[1] == kinds]
    ages = [ask[2] for ask in chosen if ask[2] is not None]
    ranks = {rank for ask in chosen for rank in ask[3]}
    kits = {kit for ask in chosen for kit in ask[4]}
    return Unlock(
        min_age=min(ages) if ages else None,
        ranks=tuple(rank for rank in edition.ranks if rank in ranks),
        uniforms=tuple(sorted(kits)),
    )


def legal_sets(edition: Edition, granting: Group, technique_id: str) -> tuple[Criteria, ...]:
    """The sets of athletes for whom a restricted technique is legal: those of the group
    that first allows it and of every later group, within the group's limit if any."""
    key = (granting.id, technique_id)
    known = _LEGAL_SETS.get(id(edition))
    if known is None or known[0] is not edition:
        known = (edition, {})
        _LEGAL_SETS[id(edition)] = known
    if key not in known[1]:
        order = [group.id for group in edition.groups]
        limit = granting.limits.get(technique_id)
        found = []
        for group in edition.groups[order.index(granting.id) :]:
            for criteria in group.when:
                both = _intersect(criteria, limit) if limit else criteria
                if both is not None:
                    found.append(both)
        known[1][key] = tuple(found)
    return known[1][key]


# The sets of legal_sets(), by edition (kept with the edition they were made from).
_LEGAL_SETS: dict[int, tuple[Edition, dict[tuple[str, str], tuple[Criteria, ...]]]] = {}


def _intersect(a: Criteria, b: Criteria) -> Criteria | None:
    """The athletes in both sets, or None when there are none."""
    low, high = max(a.min_age, b.min_age), min(a.max_age, b.max_age)
    ranks = _both(a.ranks, b.ranks)
    kits = _both(a.uniforms, b.uniforms)
    if low > high or ranks is None or kits is None:
        return None
    return Criteria(min_age=low, max_age=high, ranks=ranks, uniforms=kits)


def _both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...] | None:
    """Two "any of these (empty: any)" lists together; None when nothing is in both."""
    if not a or not b:
        return a or b
    common = tuple(x for x in a if x in b)
    return common or None


def division_fouls(athlete: Division, verdicts: tuple[Verdict, ...]) -> tuple[FoulFact, ...]:
    """The fouls that concern this athlete: using a technique that is not legal for them,
    and every foul that exists only in some divisions (``only_for``) or only where a
    technique is not legal (``unless_legal``). Those that are not a foul here are kept when
    they are one for some athlete in the same uniform (jumping guard at 15), and left out
    when only the uniform keeps them away (No-Gi clothing grips in Gi)."""
    legal = {v.technique.id for v in verdicts if v.legal}
    facts: list[FoulFact] = []
    for foul in athlete.edition.fouls.values():
        if foul.id == ILLEGAL_HOLD:
            facts.append(FoulFact(foul=foul, status="applies"))
            continue
        if not foul.only_for and foul.unless_legal is None:
            continue
        if not foul.applies(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform):
            if in_uniform(foul.only_for, athlete.uniform):
                facts.append(FoulFact(foul=foul, status="not-here"))
        elif foul.unless_legal is not None and foul.unless_legal in legal:
            facts.append(FoulFact(foul=foul, status="legal-here"))
        elif foul.unless_legal is None and all(_uniform_only(c) for c in foul.only_for):
            facts.append(FoulFact(foul=foul, status="uniform"))
        else:
            facts.append(FoulFact(foul=foul, status="applies"))
    edition = athlete.edition
    return tuple(
        replace(f, readings=edition.reading_ids("fouls", f.foul.id, *STATUS_FIELDS[f.status]))
        for f in facts
    )


def severe_fouls(athlete: Division, facts: tuple[FoulFact, ...]) -> tuple[Foul, ...]:
    """The named severe fouls (not the catch-all) that are fouls for this athlete: every
    one, bar those that depend on the division and are not a foul here."""
    not_here = {fact.foul.id for fact in facts if not fact.applies}
    return tuple(
        foul
        for foul in athlete.edition.fouls.values()
        if foul.group == "severe"
        and not foul.generic
        and foul.id not in not_here
        and foul.applies(age=athlete.age, rank=athlete.effective_rank, uniform=athlete.uniform)
    )


def _uniform_only(criteria: Criteria) -> bool:
    """Whether a set of athletes is everyone in some uniforms (no age or rank to it)."""
    return (
        bool(criteria.uniforms)
        and not criteria.ranks
        and (criteria.min_age, criteria.max_age) == (MIN_AGE, MAX_AGE)
    )


def differences(old: Overview, new: Overview) -> tuple[Difference, ...]:
    """What differs for the same person between an older and a newer edition: techniques
    legal in one and not the other, fouls and resets that apply in one and not the other,
    and the penalty scale."""
    before_legal = {v.technique.id for v in old.legal}
    after_legal = {v.technique.id for v in new.legal}
    rules = new.division.edition
    old_clause = old.division.edition.eligibility.clause
    found: list[Difference] = []
    for technique_id in new.division.edition.techniques:
        if technique_id not in old.division.edition.techniques:
            continue
        before, after = technique_id in before_legal, technique_id in after_legal
        if before != after:
            found.append(
                Difference(
                    kind="technique", id=technique_id, before=before, after=after,
                    cites=(old_clause, rules.eligibility.clause),
                    notes=_readings(rules, "techniques", technique_id),
                )
            )  # fmt: skip
    old_fouls = {fact.foul.id: fact for fact in old.fouls}
    for fact in new.fouls:
        earlier = old_fouls.get(fact.foul.id)
        if earlier is None:
            continue
        if earlier.applies != fact.applies:
            found.append(
                Difference(
                    kind="foul", id=fact.foul.id, before=earlier.applies, after=fact.applies,
                    cites=(earlier.foul.clause, fact.foul.clause),
                    notes=_readings(rules, "fouls", fact.foul.id),
                )
            )  # fmt: skip
    if old.ladder.steps != new.ladder.steps:
        found.append(
            Difference(
                kind="ladder", id="ladder", before=old.ladder.id, after=new.ladder.id,
                cites=(old.ladder.clause, new.ladder.clause),
            )
        )  # fmt: skip
    return tuple(found)


def _readings(edition: Edition, collection: str, key: str) -> tuple[str, ...]:
    return tuple(note.id for note in edition.readings(collection, key))


def differences_for_any(pairs: list[tuple[Overview, Overview]]) -> Compared:
    """What differs for one person between two editions when a field is not known: each
    pair is one value it may have (older, newer). The differences found with every value
    alike, and which (kind, ID) differ only with some."""
    found = [differences(old, new) for old, new in pairs]
    if len(found) == 1:
        return Compared(differences=found[0])
    common = [d for d in found[0] if all(d in others for others in found[1:])]
    depends = {(d.kind, d.id) for each in found for d in each if d not in common}
    newer = pairs[0][1].division.edition
    order = {
        key: index
        for index, key in enumerate(
            [*(("technique", t) for t in newer.techniques), *(("foul", f) for f in newer.fouls)]
        )
    }
    ranked = sorted(depends, key=lambda key: order.get(key, len(order)))  # the scale last
    return Compared(differences=tuple(common), depends=tuple(ranked))


def for_everyone(old: Edition, new: Edition) -> tuple[ForEveryone, ...]:
    """What the newer edition changed for every athlete: each change it made to the
    scoring tables (the same for every division), and to a foul that is one for every
    athlete (those that depend on the division are in :func:`differences`)."""
    found = []
    for change in new.changes:
        if change.key is None or change.collection not in (*SCORING, "fouls"):
            continue
        record = changed_record(old, new, change.collection, change.key)
        if change.collection == "fouls" and (record.only_for or record.unless_legal):
            continue
        found.append(
            ForEveryone(
                collection=change.collection, id=change.key, kind=change.kind,
                cite=record.clause,
            )
        )  # fmt: skip
    return tuple(found)


def changed_record(old: Edition, new: Edition, collection: str, key: str) -> Any:
    """The record an amendment changed or added (as the newer edition has it), or
    removed (as the older had it)."""
    return getattr(new, collection).get(key) or getattr(old, collection).get(key)


def asked_fields(edition: Edition, age: int) -> tuple[str, ...]:
    """The fields of a division, beside age and uniform, that can change anything for an
    athlete of this age: the LVL or belt from the age at which the edition requires one
    (below it age alone decides), prior experience from the age at which it can move an
    athlete up. None outside the rules' ages. Tests prove the others change nothing."""
    if not MIN_AGE <= age <= MAX_AGE:
        return ()
    rules = edition.eligibility
    found = []
    if age >= rules.rank_required_from:
        found.append(rules.axis)
    if edition.experiences and rules.promotion is not None and age >= rules.promotion.min_age:
        found.append(EXPERIENCE)
    return tuple(found)


def rank_matters(athlete: Division) -> bool:
    """Whether the athlete's LVL or belt can change anything at their age (below the age
    at which the edition requires one, age alone decides; a test proves it)."""
    return athlete.edition.eligibility.axis in asked_fields(athlete.edition, athlete.age)


__all__ = [
    "EXPERIENCE",
    "SCORING",
    "STATUSES",
    "Compared",
    "Difference",
    "ForEveryone",
    "FoulFact",
    "NotLegal",
    "Overview",
    "Unlock",
    "asked_fields",
    "changed_record",
    "differences",
    "differences_for_any",
    "division_fouls",
    "for_everyone",
    "legal_sets",
    "overview",
    "rank_matters",
    "severe_fouls",
    "unlisted_for",
    "unlock",
]
