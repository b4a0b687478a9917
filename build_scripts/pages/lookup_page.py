"""/lookup/: which techniques are legal for a division, and who may use a technique."""

from __future__ import annotations

from lvl_rules.model import Edition

from .forms import division_fields, options, status_block
from .templating import TEMPLATES
from .urls import href

LOOKUP = "lookup.md"


def lookup_page(editions: tuple[Edition, ...]) -> str:
    """/lookup/: which techniques are legal for a division, and who may use a technique."""
    latest = editions[-1]
    return TEMPLATES.get_template("lookup.md.j2").render(
        status=status_block(LOOKUP, latest.id),
        root=href(LOOKUP, ""),
        division=division_fields("lookup", editions),
        techniques=options([(t.id, t.name) for t in latest.techniques.values()]),
    )
