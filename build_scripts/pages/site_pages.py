"""Every generated page and file of the site, as {source path: content}. Pure: no I/O.

The MkDocs hook hands these to MkDocs as virtual files, so ``mkdocs build``,
``mkdocs serve`` and ``make serve`` share this one code path, and nothing generated
is written into ``docs/``.
"""

from __future__ import annotations

import json
from html import escape

from build_scripts.publish.code_folder import within
from lvl_rules.faces.export import edition_schema, export_edition
from lvl_rules.faces.site import Edition, edition_in_force, scoring_words
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from . import changes, glossary_page, navigation, notes_page, page_meta, scoring_tables, vendor
from .calculator_page import BOARD, CALCULATOR, SHEET, board_page, calculator_page, sheet_page
from .chart import chart_table, row_links
from .clause_blocks import clause_block, linker
from .lookup_page import LOOKUP, lookup_page
from .poster import SIZES, poster_path
from .reading_marks import note_href, sentence_mark
from .templating import TEMPLATES
from .urls import cite_path, clause_page, edition_page, href, md_link, page_url, sections


def generate(editions: tuple[Edition, ...], *, page_policy: str | None) -> dict[str, str]:
    """Every generated source file, keyed by its path under ``docs/``. ``page_policy``:
    the Content-Security-Policy for the pages the theme does not render (permalinks)."""
    in_force = edition_in_force(editions)
    latest = in_force.id
    pages: dict[str, str] = {
        "rules/index.md": TEMPLATES.get_template("editions.md.j2").render(
            editions=editions,
            latest=latest,
            description=words.DESCRIPTIONS["rules"],
            posters={e.id: poster_links("rules/index.md", e.id) for e in editions},
        ),
        changes.PAGE: changes.changes_markdown(editions),
        notes_page.NOTES_PAGE: notes_page.notes_markdown(editions),
        glossary_page.PAGE: glossary_page.glossary_markdown(editions),
        notes_page.DATA_PAGE: notes_page.data_markdown(editions, latest),
        LOOKUP: lookup_page(editions),
        CALCULATOR: calculator_page(editions),
        BOARD: board_page(),
        SHEET: sheet_page(editions, within(vendor.QR_MODULE)),  # beside the sheet's module
        "data/schema.json": json.dumps(edition_schema(), indent=2, ensure_ascii=False) + "\n",
    }
    by_id = {edition.id: edition for edition in editions}
    for edition in editions:
        newer = in_force if edition.id != latest else None
        # Each clause links to the same clause in the edition in force, or (in that one)
        # in the edition it amends.
        other = newer or by_id.get(edition.based_on or "")
        pages.update(edition_pages(edition, newer, other))
        pages[f"data/{edition.id}.json"] = json.dumps(
            export_edition(edition), ensure_ascii=False, indent=1
        )
        for clause in edition.clauses.values():
            pages[cite_path(edition.id, clause.id) + "index.html"] = cite_page(
                edition, clause.id, page_policy
            )
    return pages


def edition_pages(
    edition: Edition, newer: Edition | None, other: Edition | None = None
) -> dict[str, str]:
    """The front page, section pages, closing note, chart, scoring and print pages;
    ``other``: the edition each clause links to."""
    latest = newer.id if newer else edition.id
    names = {page: name for name, page in navigation.edition_pages(edition)}

    def meta(page: str) -> dict[str, str]:
        return page_meta.for_edition_page(
            edition, latest, names[page], search=not page.endswith("/print.md")
        )

    front = edition_page(edition.id)
    numbered = sections(edition)
    closing = edition.clauses["closing-note"]
    pages = {
        front: TEMPLATES.get_template("edition.md.j2").render(
            edition=edition,
            newer=newer,
            readings=[
                n
                for n in edition.notes.values()
                if n.readings and edition.based_on and edition.changed("notes", n.id)
            ],
            sections=[_titled(edition, s) for s in numbered],
            closing=_titled(edition, closing),
            front_matter="\n".join(
                clause_block(edition, edition.clauses[c], front, level=2, other=other)
                for c in ("preamble", "reading-guide")
            ),
            description=words.edition_description(edition),
            **meta(front),
        ),
    }
    for section in (*numbered, closing):
        page = f"rules/{edition.id}/{section.id}.md"
        blocks = [
            clause_block(edition, clause, page, level=min(clause.depth, 6), other=other)
            for clause in edition.clauses.values()
            if clause.id == section.id or (clause.numbered and clause.section == section.id)
        ]
        pages[page] = TEMPLATES.get_template("section.md.j2").render(
            edition=edition,
            section=section,
            title=render.title(edition, section),
            newer=newer,
            blocks="\n".join(blocks),
            description=words.section_description(edition, section),
            **meta(page),
        )
    page = f"rules/{edition.id}/techniques.md"
    link = linker(edition, page)
    pages[page] = TEMPLATES.get_template("techniques.md.j2").render(
        edition=edition,
        newer=newer,
        posters=poster_links(page, edition.id),
        description=words.chart_description(edition),
        table=chart_table(edition, note_href(edition, page), row_links(edition, page, other)),
        promotion=words.promotion_rule(edition)
        + sentence_mark(edition, page, "chart-intro-promotion"),
        descriptions_ours=words.DESCRIPTIONS_OURS
        + sentence_mark(edition, page, "technique-descriptions"),
        notes=[
            {"id": n.id, "title": n.title, "decision": render.expand(edition, n.decision, link)}
            for n in edition.notes.values()
            if n.clause.split(".")[0] == "1"
        ],
        **meta(page),
    )
    page = f"rules/{edition.id}/scoring.md"
    pages[page] = _scoring_page(
        edition, newer, description=words.scoring_description(edition), **meta(page)
    )
    page = f"rules/{edition.id}/print.md"
    pages[page] = TEMPLATES.get_template("print.md.j2").render(
        edition=edition,
        heading=words.print_heading(edition),
        description=words.print_description(edition),
        blocks="\n".join(
            clause_block(edition, clause, page, level=min(clause.depth + 1, 6))
            for clause in edition.clauses.values()
        ),
        **meta(page),
    )
    return pages


def poster_links(page: str, edition_id: str) -> str:
    """``The chart as a poster to print: A4 landscape · A3 landscape (PDF)``, linked from ``page``
    (HTML: the PDFs are printed after MkDocs, which cannot check links to them)."""
    links = " · ".join(
        f'<a href="{href(page, poster_path(edition_id, size))}">{words.poster_paper(paper)}</a>'
        for size, paper, _ in SIZES
    )
    return f"{words.POSTER_LINKS}: {links} {words.POSTER_FORMAT}"


def _scoring_page(edition: Edition, newer: Edition | None, **meta: str) -> str:
    page = f"rules/{edition.id}/scoring.md"
    ladder = edition.ladders[0]
    rules = edition.scoring
    both = edition.clauses[rules.double_stalling_clause]
    return TEMPLATES.get_template("scoring.md.j2").render(
        edition=edition,
        newer=newer,
        points=scoring_tables.points_rows(edition, page),
        sequence=scoring_tables.sequence_points(edition),
        advantages=scoring_tables.advantage_rows(edition, page),
        ladders=render.TABLES["ladders"](edition, render.plain_link),
        ladder_clause=ladder.clause,
        ladder_page=md_link(page, clause_page(edition.id, edition.clauses[ladder.clause])),
        double_stalling=(
            f"{scoring_words.double_stalling(edition)} ([§{both.id}]"
            f"({md_link(page, clause_page(edition.id, both), both.id)}))."
        ),
        fouls=scoring_tables.foul_rows(edition, page),
        order=scoring_tables.decision_rows(edition, page),
        **meta,
    )


def cite_page(edition: Edition, clause_id: str, page_policy: str | None) -> str:
    """A static permalink page: redirects to the clause, with a plain link as well."""
    clause = edition.clauses[clause_id]
    # The hook passes security.attribute_safe(): nothing in it needs escaping.
    policy = (
        f'<meta http-equiv="Content-Security-Policy" content="{page_policy}">\n'
        if page_policy
        else ""
    )
    target = "../../../" + page_url(clause_page(edition.id, clause)) + f"#{clause_id}"
    text = escape(words.citation(edition, clause))
    heading = escape(render.heading(edition, clause))
    # A shared citation's link preview reads this page, not the one it redirects to.
    said = escape(words.clause_lead(edition, clause))
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"{policy}"
        f"<title>{text}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex">\n'
        f'<meta name="description" content="{said}">\n'
        '<meta property="og:type" content="article">\n'
        f'<meta property="og:title" content="{text}">\n'
        f'<meta property="og:description" content="{said}">\n'
        '<meta name="twitter:card" content="summary">\n'
        '<link rel="icon" href="../../../assets/images/favicon.png">\n'
        f'<link rel="canonical" href="{target}">\n'
        f'<meta http-equiv="refresh" content="0; url={target}">\n'
        "</head>\n<body>\n"
        f'<p>{text}: <a href="{target}">{heading}</a></p>\n'
        "</body>\n</html>\n"
    )


def _titled(edition: Edition, clause: object) -> dict[str, str]:
    return {"id": clause.id, "title": render.title(edition, clause)}  # type: ignore[attr-defined]
