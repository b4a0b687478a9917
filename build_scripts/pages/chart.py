"""The technique chart of an edition as an accessible HTML table, answered by the engine.

One column per chart band. A cell gives the answer for Gi and No-Gi together when they
agree, and says "Gi only" / "No-Gi only" when they do not. Words and symbols, never
colour alone; each cell carries data-gi / data-nogi with the engine's answers.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from lvl_rules.faces.site import (
    EVERY_ATHLETE,
    NEVER,
    Band,
    Cell,
    Edition,
    Technique,
    answer_words,
    chart,
    chart_caption,
    readings_words,
)
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from .urls import clause_page, href, page_url

technique_anchor = render.technique_anchor


RowLinks = Callable[[Technique, str], str]  # (technique, its clause) -> HTML


def chart_table(
    edition: Edition,
    note_href: Callable[[str], str] | None = None,
    row_links: RowLinks | None = None,
) -> str:
    """Rows: techniques. Columns: chart bands. A row our reading decides is marked, its
    notes linked by ``note_href`` (plain titles without it: a printed poster); each row
    links what ``row_links`` gives it (the rule, the same row in another edition)."""
    bands = edition.bands
    head = "".join(f'<th scope="col">{escape(b.label)}</th>' for b in bands)
    body = [
        _row(
            technique,
            cells,
            bands,
            _mark(edition, technique, note_href)
            + (row_links(technique, cells[0].verdict.cite) if row_links else ""),
        )
        for technique, cells in chart(edition)
    ]
    return (
        '<div class="lvl-chart-wrap" role="region" aria-label="Technique chart" tabindex="0" '
        # Each row is a search entry of its own (build_scripts/pages/search_entries.py).
        "data-search-exclude>\n"
        f'<table class="lvl-chart">\n<caption>{escape(chart_caption(edition))}</caption>\n'
        f'<thead><tr><th scope="col">Technique</th>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody>\n</table>\n</div>"
    )


def row_links(edition: Edition, page: str, other: Edition | None) -> RowLinks:
    """A chart row's links, from ``page``: the clause that restricts its technique (in
    section 1, at the technique's own item, with the clause's exact number), and the same
    row in ``other``'s chart, where that edition has the technique."""
    other_chart = f"rules/{other.id}/techniques.md" if other else ""

    def links(technique: Technique, clause_id: str) -> str:
        clause = edition.clauses[clause_id]
        anchor = technique_anchor(technique.id)
        rule = href(page, page_url(clause_page(edition.id, clause)))
        found = [
            f'<a class="lvl-row-rule" href="{rule}#{anchor}" '
            f'title="{escape(words.row_rule_title(edition, clause))}">'
            f"{escape(words.row_rule(clause_id))}</a>"
        ]
        if other is not None and technique.id in other.techniques:
            there = href(page, page_url(other_chart))
            found.append(
                f'<a class="lvl-row-other" href="{there}#{anchor}">'
                f"{escape(words.row_in_other(other))}</a>"
            )
        return f'<span class="lvl-row-links">{" · ".join(found)}</span>'

    return links


def _mark(edition: Edition, technique: Technique, href: Callable[[str], str] | None) -> str:
    return readings_words.mark_html(
        edition, [n.id for n in edition.readings("techniques", technique.id)], href
    )


def _row(technique: Technique, cells: tuple[Cell, ...], bands: tuple[Band, ...], mark: str) -> str:
    by_band = {(c.band.id, c.uniform): c.verdict.legal for c in cells}
    name = (
        f'<th scope="row"><span class="lvl-technique">{escape(technique.name)}</span>'
        f'<span class="lvl-technique-kind">{escape(technique.description)}</span>{mark}</th>'
    )
    if technique.prohibited and not any(by_band.values()):
        tds = (
            f'<td class="lvl-no lvl-never" colspan="{len(bands)}" data-label="{EVERY_ATHLETE}" '
            f'data-band="all" data-gi="false" data-nogi="false">'
            f'<span class="lvl-answer">{NEVER}</span></td>'
        )
    else:
        tds = "".join(
            _cell(band, by_band[band.id, "gi"], by_band[band.id, "nogi"]) for band in bands
        )
    return (
        f'<tr id="{technique_anchor(technique.id)}" data-technique="{technique.id}">'
        f"{name}{tds}</tr>"
    )


def _cell(band: Band, gi: bool, nogi: bool) -> str:
    kind = "yes" if gi and nogi else "no" if not (gi or nogi) else "some"
    return (
        f'<td class="lvl-{kind}" data-label="{escape(band.label)}" data-band="{band.id}" '
        f'data-gi="{str(gi).lower()}" data-nogi="{str(nogi).lower()}">'
        f'<span class="lvl-answer">{answer_words(gi, nogi)}</span></td>'
    )
