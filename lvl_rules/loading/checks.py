"""Cross-checks of a built edition: every reference resolves, every table is consistent.

Each failure names the file and key at fault, so a broken data file is fixed in one go.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import UNKNOWN_FILE, RulesError, data_error
from ..model import COLLECTIONS, MAX_AGE, MIN_AGE, NEEDS, SETTINGS, Criteria, Edition
from ..model.fields import declared
from ..model.markup import GENERATED, markers, references
from ..model.rulebook import SENTENCES
from .amendments import REMOVED
from .glossary import load_glossary

GLOSSARY = "terms"  # a note's reading of a glossary term: { collection = "terms", key = ... }


class _Checker:
    def __init__(self, edition: Edition, origins: Mapping[tuple[str, str | None], str]) -> None:
        self.edition = edition
        self.origins = origins

    def fail(
        self, collection: str, key: str | None, field: str, problem: str, /, **details: Any
    ) -> RulesError:
        file, where = self._locate(collection, key, field)
        return data_error(file, where, problem, **details)

    def _locate(self, collection: str, key: str | None, field: str) -> tuple[str, str]:
        """The file and key path of a field: ``positions."5.3".clause``."""
        file = self.origins.get((collection, key)) or self.origins.get(
            (collection, None), UNKNOWN_FILE
        )
        shown = f'"{key}"' if key and "." in key else key
        return file, ".".join(part for part in (collection, shown, field) if part)

    def removed(
        self, table: str, record: str, collection: str, key: str | None, field: str
    ) -> RulesError | None:
        """If this edition's amendment removed ``record`` of ``table``, which ``field``
        still names: the error at the removal, naming the field too."""
        remover = self.origins.get((REMOVED + table, record))
        if remover is None:
            return None
        citing_file, citing = self._locate(collection, key, field)
        _, removal = self._locate(REMOVED + table, record, "")
        return data_error(
            remover, removal, "removed-but-cited", record=record, citing=citing,
            citing_file=citing_file,
        )  # fmt: skip

    def clause(self, collection: str, key: str | None, field: str, clause_id: str) -> None:
        if clause_id not in self.edition.clauses:
            raise self.removed("clauses", clause_id, collection, key, field) or self.fail(
                collection, key, field, "unknown-clause", clause=clause_id, edition=self.edition.id
            )

    def ranks(self, collection: str, key: str, criteria: Iterable[Criteria]) -> None:
        for item in criteria:
            for rank in item.ranks:
                if rank not in self.edition.ranks:
                    raise self.fail(
                        collection, key, "when", "criteria-rank", rank=rank,
                        known=tuple(self.edition.ranks),
                    )  # fmt: skip


def check_edition(edition: Edition, origins: Mapping[tuple[str, str | None], str]) -> None:
    """Raise RulesError at the first inconsistency in ``edition``."""
    check = _Checker(edition, origins)
    _check_text(check)
    _check_readings(check)
    _check_glossary(check)
    _check_eligibility(check)
    _check_scoring(check)
    for change in edition.changes:
        if change.kind != "removed" and change.key is not None:
            collection = getattr(edition, change.collection)
            keys = collection if isinstance(collection, dict) else {r.id for r in collection}
            if change.key not in keys:
                raise check.fail(change.collection, change.key, "", "amended-missing")


def _check_text(check: _Checker) -> None:
    """Every reference and marker in rule text (each record's ``markup`` fields) resolves."""
    edition = check.edition
    for collection, record_type in COLLECTIONS.items():
        fields = [field.name for field, spec in declared(record_type) if spec.kind == "markup"]
        records = getattr(edition, collection) if fields else {}
        for record in records.values() if isinstance(records, dict) else records:
            for field in fields:
                text = getattr(record, field)
                for ref in references(text):
                    check.clause(collection, record.id, field, ref)
                for kind, argument in markers(text):
                    _check_marker(check, collection, record.id, field, kind, argument)
    for clause in edition.clauses.values():
        if clause.parent is not None:
            check.clause("clauses", clause.id, "parent", clause.parent)
    for note in edition.notes.values():
        check.clause("notes", note.id, "clause", note.clause)


def _check_glossary(check: _Checker) -> None:
    """The clause each glossary term's meaning comes from is one of this edition's, and
    a term explained in our words is read by a note of this edition."""
    edition = check.edition
    read = {r.key for n in edition.notes.values() for r in n.readings if r.collection == GLOSSARY}
    for term in load_glossary():
        if term.clause is not None:
            check.clause(GLOSSARY, term.id, "clause", term.clause)
        elif term.id not in read:
            raise check.fail(GLOSSARY, term.id, "clause", "term-not-read", edition=edition.id)


def _check_readings(check: _Checker) -> None:
    """Every place a note's reading applies to exists: a record of this edition, a settings
    table, or one of the sentences of ours a reading may name."""
    edition = check.edition
    for note in edition.notes.values():
        for n, place in enumerate(note.readings):
            if place.collection == "sentences":
                known: Iterable[str | None] = SENTENCES
            elif place.collection == GLOSSARY:
                known = [term.id for term in load_glossary()]
            elif place.collection in SETTINGS:
                known = (None,)
            elif place.collection in COLLECTIONS:
                records = getattr(edition, place.collection)
                known = records if isinstance(records, dict) else [r.id for r in records]
            else:
                known = ()
            record = COLLECTIONS.get(place.collection)
            fields = [f.name for f, _ in declared(record)] if record else []
            if place.key not in known or (place.field is not None and place.field not in fields):
                raise check.fail(
                    "notes", note.id, f"readings[{n}]", "unknown-reading-place",
                    collection=place.collection, key=place.key, place_field=place.field,
                )  # fmt: skip


def _check_marker(
    check: _Checker, collection: str, key: str, field: str, kind: str, argument: str
) -> None:
    known: Iterable[str]
    if kind == "points":
        known = (*check.edition.positions, *check.edition.escapes)
        if all(part in known for part in argument.split("+")):
            return
    else:
        known = GENERATED[kind]
    if argument not in known:
        raise check.fail(
            collection, key, field, "unknown-marker", marker=kind, argument=argument, known=known
        )


def _check_eligibility(check: _Checker) -> None:
    edition = check.edition
    rules = edition.eligibility
    check.clause("eligibility", None, "clause", rules.clause)
    promotion = rules.promotion
    if promotion is not None:
        check.clause("eligibility", None, "promotion.clause", promotion.clause)
        for rank in (promotion.rank_from, promotion.rank_to):
            if rank not in edition.ranks:
                raise check.fail("eligibility", None, "promotion", "promotion-rank", rank=rank)
    if bool(edition.experiences) != (promotion is not None):
        raise check.fail("eligibility", None, "promotion", "promotion-without-experiences")
    if rules.axis == "lvl" and not all(rank.isdigit() for rank in edition.ranks):
        raise check.fail("ranks", None, "", "lvl-not-number")
    granted: dict[str, str] = {}
    for group in edition.groups:
        check.clause("groups", group.id, "clause", group.clause)
        check.ranks("groups", group.id, (*group.when, *group.limits.values()))
        for note in group.notes:
            if note not in edition.notes:
                raise check.removed("notes", note, "groups", group.id, "notes") or check.fail(
                    "groups", group.id, "notes", "unknown-note", note=note
                )
        for technique in group.adds:
            known = edition.techniques.get(technique)
            if known is None or known.prohibited:
                restricted = tuple(t.id for t in edition.techniques.values() if not t.prohibited)
                raise check.fail(
                    "groups", group.id, "adds", "not-restricted", technique=technique,
                    known=restricted,
                )  # fmt: skip
            if technique in granted:
                raise check.fail(
                    "groups", group.id, "adds", "granted-twice", technique=technique,
                    group=granted[technique],
                )  # fmt: skip
            granted[technique] = group.id
        for technique in group.limits:
            if technique not in group.adds:
                raise check.fail(
                    "groups", group.id, "limits", "limit-not-added", technique=technique
                )
    missing = [
        t.id for t in edition.techniques.values() if not t.prohibited and t.id not in granted
    ]
    if missing:
        raise check.fail("groups", None, "", "never-granted", technique=missing[0])
    for band in edition.bands:
        check.ranks("bands", band.id, (band.when,))


def _check_scoring(check: _Checker) -> None:
    edition = check.edition
    scoring = edition.scoring
    for field in (
        "repeat_clause", "advantage_clause", "severe_penalty_clause", "panel_clause",
        "double_stalling_clause", "random_draw_clause", "after_time_clause",
    ):  # fmt: skip
        check.clause("scoring", None, field, getattr(scoring, field))
    for position in edition.positions.values():
        check.clause("positions", position.id, "clause", position.clause)
        for name, variant in position.variants.items():
            check.clause("positions", position.id, f"variants.{name}.clause", variant.clause)
    for name in NEEDS.escapes:
        if name not in edition.escapes:
            raise check.fail("escapes", name, "", "escape-missing")
    for name, escape in edition.escapes.items():
        check.clause("escapes", name, "clause", escape.clause)
    for name in NEEDS.awards:
        if name not in edition.awards:
            raise check.fail("awards", name, "", "award-missing")
    for name, award in edition.awards.items():
        check.clause("awards", name, "clause", award.clause)
    for reason in edition.advantages.values():
        check.clause("advantages", reason.id, "clause", reason.clause)
    for foul_id, group in NEEDS.fouls.items():
        foul = edition.fouls.get(foul_id)
        if foul is None or foul.group != group:
            raise check.fail("fouls", foul_id, "", "foul-needed", group=group)
    for foul in edition.fouls.values():
        check.clause("fouls", foul.id, "clause", foul.clause)
        if foul.unless_legal is not None and foul.unless_legal not in edition.techniques:
            raise check.fail(
                "fouls", foul.id, "unless_legal", "not-a-technique", technique=foul.unless_legal
            )
        check.ranks("fouls", foul.id, foul.only_for)
    for count in edition.counts.values():
        check.clause("counts", count.id, "clause", count.clause)
        check.ranks("counts", count.id, count.only_for)
        foul = edition.fouls.get(count.foul)
        if foul is None or not foul.on_ladder:
            raise check.fail("counts", count.id, "foul", "count-foul", foul=count.foul)
    for ladder in edition.ladders:
        check.clause("ladders", ladder.id, "clause", ladder.clause)
        check.ranks("ladders", ladder.id, ladder.when)
    for age in range(MIN_AGE, MAX_AGE + 1):
        if not any(
            c.min_age <= age <= c.max_age for ladder in edition.ladders for c in ladder.when
        ):
            raise check.fail("ladders", None, "", "age-without-ladder", age=age)
    for method in NEEDS.methods:
        if method not in edition.methods:
            raise check.fail("methods", method, "", "method-needed")
    for method in edition.methods.values():
        check.clause("methods", method.id, "clause", method.clause)
