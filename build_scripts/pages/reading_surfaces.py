"""Where each editorial note's reading is shown, marked: every surface of a place a note
names (a record, or a sentence of ours), derived from the place, for the notes page and for
the test that finds the mark on each (tests/website/test_readings.py).

A surface on a page of ours has the page and the id of the element that carries the mark;
those without one (the match log, the exports, the posters) are named and their marks
checked by the engine's and the faces' own tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from lvl_rules.faces.site import Edition, load_glossary, site_words, timeline

from .urls import clause_page

CHANGES = "rules/changes.md"
LOOKUP = "lookup.md"
CALCULATOR = "calculator.md"
GLOSSARY = "rules/glossary.md"


@dataclass(frozen=True, slots=True)
class Surface:
    """One surface a reading is shown on: its name, and where (page, element id)."""

    name: str
    page: str | None = None
    anchor: str | None = None


def surfaces(
    edition: Edition, collection: str, key: str | None, field: str | None
) -> list[Surface]:
    """Every surface that shows the place ``collection``/``key`` (``field``) of an edition."""
    said = site_words.SURFACES
    where = f"rules/{edition.id}"
    found: list[Surface] = []
    if collection == "clauses" and key is not None:
        clause = edition.clauses[key]
        name = said["clause"].format(clause=f"§{key}" if clause.numbered else clause.title)
        found.append(Surface(name, clause_page(edition.id, clause), key))
        if field == "title":
            guide = edition.clauses["reading-guide"]
            found.append(Surface(said["sections"], clause_page(edition.id, guide), "reading-guide"))
        if edition.changed("clauses", key):
            found.append(Surface(said["changes"], CHANGES, f"e{edition.id}-{key}"))
        found.append(Surface(said["export"]))
    elif collection == "fouls" and key is not None:
        found.append(Surface(said["scoring"], f"{where}/scoring.md", f"foul-{key}"))
        found.append(Surface(said["lookup"], LOOKUP))
        found.append(Surface(said["log"], CALCULATOR))
    elif collection == "techniques" and key is not None:
        chart = edition.clauses[edition.eligibility.clause]
        found.append(Surface(said["chart"], f"{where}/techniques.md", f"technique-{key}"))
        found.append(Surface(said["list"], clause_page(edition.id, chart), chart.id))
        found.append(Surface(said["lookup"], LOOKUP))
        found.append(Surface(said["poster"]))
        found.append(Surface(said["log"], CALCULATOR))
        if edition.based_on is not None:
            found.append(Surface(said["changes_chart"], CHANGES))
    elif collection == "sentences" and key is not None:
        chart = edition.clauses[edition.eligibility.clause]
        pages = {
            "list": (clause_page(edition.id, chart), chart.id),
            "intro": (f"{where}/techniques.md", None),
            "lookup": (LOOKUP, None),
            "legend": (None, None),
        }
        found += [Surface(said[n], *pages[n]) for n in site_words.SENTENCE_SURFACES[key]]
    elif collection == "groups":
        chart = edition.clauses[edition.eligibility.clause]
        found.append(Surface(said["list"], clause_page(edition.id, chart), chart.id))
    elif collection == "counts":
        found.append(Surface(said["count_menu"], CALCULATOR))
    elif collection == "terms" and key is not None:
        if edition.id == timeline().in_force():  # the glossary cites the edition in force
            term = next(term.name for term in load_glossary() if term.id == key)
            found.append(Surface(said["glossary"].format(term=term), GLOSSARY, f"term-{key}"))
    elif collection == "unlisted":
        found.append(Surface(said["lookup"], LOOKUP))
        found.append(Surface(said["divisions"]))
    elif collection in ("ranks", "eligibility", "experiences"):
        found.append(Surface(said["lookup"], LOOKUP))
    else:
        found.append(Surface(said["scoring"], f"{where}/scoring.md"))
        found.append(Surface(said["log"], CALCULATOR))
    return found


def note_surfaces(edition: Edition, note_id: str) -> list[Surface]:
    """Every surface of every place of a note, each once, in the order of its places."""
    seen: dict[Surface, None] = {}
    for place in edition.notes[note_id].readings:
        for surface in surfaces(edition, place.collection, place.key, place.field):
            seen.setdefault(surface, None)
    return list(seen)
