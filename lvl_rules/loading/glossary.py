"""Read the glossary (``lvl_rules/glossary/terms.toml``) into its terms, once."""

from __future__ import annotations

import functools
from importlib.resources import files

from ..model.fields import read
from ..model.glossary import Term

GLOSSARY_FILE = "glossary/terms.toml"


@functools.cache
def load_glossary() -> tuple[Term, ...]:
    """Every term of the glossary, in the file's order."""
    # Here, not above: the editions module imports the checks, which import this one.
    from .editions import read_toml

    table = read_toml(files("lvl_rules").joinpath(GLOSSARY_FILE), GLOSSARY_FILE)
    terms = table.keyed("terms")
    found = tuple(read(Term, entry, key=term_id) for term_id, entry in terms)
    table.finish()
    return found
