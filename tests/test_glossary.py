"""The glossary is data: each term, the words that name it, its meaning in one line, and
the clause that gives that meaning; a meaning of ours is read by an editorial note of
every edition (lvl_rules/glossary/terms.toml, lvl_rules/loading/glossary.py)."""

from __future__ import annotations

import pytest
from timeline_names import EDITIONS

from lvl_rules import load_edition
from lvl_rules.faces.site import load_glossary

# The words the issue names (issue 40, item 7), and the referee's commands of §2.4.
WANTED = {"stalling", "reaping", "kani basami", "marked", "disciplinary foul", "undergarment",
          "drawstring", "parou", "lute", "combate", "falta"}  # fmt: skip
COMMANDS = {"parou", "lute", "combate", "falta"}


def _by_form() -> dict[str, object]:
    return {form.lower(): term for term in load_glossary() for form in term.forms}


def test_every_wanted_word_is_a_term():
    """Each word a parent may not know, and each command, names a term."""
    assert set() == WANTED - set(_by_form())


def test_every_term_has_one_line_and_words_to_link():
    """A term has a name, one line of meaning and at least one word, each unique."""
    terms = load_glossary()
    assert len({t.id for t in terms}) == len(terms)
    assert all(t.forms and t.meaning and "\n" not in t.meaning for t in terms)
    forms = [form.lower() for t in terms for form in t.forms]
    assert len(set(forms)) == len(forms)


def test_the_commands_mean_what_the_rules_say():
    """The referee's commands are explained by the clause that lists them, not by us."""
    by_form = _by_form()
    for command in COMMANDS:
        term = by_form[command]
        assert term.clause is not None
        for edition_id in EDITIONS:
            text = load_edition(edition_id).clauses[term.clause].text
            assert f"**{term.name}**" in text


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_a_meaning_is_the_rules_or_a_reading_of_ours(edition_id):
    """Each term names a clause of the edition, or a note of the edition reads it (and
    then it names no clause): never both, never neither."""
    edition = load_edition(edition_id)
    for term in load_glossary():
        notes = edition.readings("terms", term.id)
        if term.clause is None:
            assert notes, term.id
        else:
            assert term.clause in edition.clauses
            assert not notes, term.id
