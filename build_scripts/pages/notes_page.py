"""The editorial notes page and the data page."""

from __future__ import annotations

from lvl_rules.model import Edition
from lvl_rules.words import markdown as render

from . import page_meta
from .clause_blocks import linker
from .urls import clause_page, md_link

NOTES_PAGE = "rules/notes.md"
DATA_PAGE = "data/index.md"


def notes_markdown(editions: tuple[Edition, ...]) -> str:
    """Every editorial note of every edition, newest edition first."""
    about = page_meta.for_page_about_editions(editions, "Editorial notes")
    parts = [
        "---",
        about["meta"],
        "description: Where the LVL rules are silent, unclear or mistaken, what LVL Rules"
        " decided and why.",
        "---",
        "",
        about["edition_line"],
        "",
        "# Editorial notes",
        "",
        "The federation's documents are the source of every rule here. Where they are silent,",
        "unclear, or contain a mistake (such as a reference to the wrong section), we decide as",
        "the federation would, **safety first, then fairness**, and publish the decision",
        "and the reason here and beside the clause it concerns.",
    ]
    for edition in reversed(editions):
        link = linker(edition, NOTES_PAGE)
        parts += ["", f"## {edition.title} {{ #e{edition.id} }}"]
        for note in edition.notes.values():
            clause = edition.clauses[note.clause]
            target = md_link(NOTES_PAGE, clause_page(edition.id, clause), clause.id)
            where = f"§{clause.id}" if clause.numbered else render.title(edition, clause)
            parts += [
                "",
                f"### {note.title} {{ #e{edition.id}-{note.id} }}",
                "",
                f"*Concerns [{where}]({target}).*",
                "",
                f"**Decision.** {render.expand(edition, note.decision, link)}",
                "",
                f"**Why.** {render.expand(edition, note.reason, link)}",
            ]
    return "\n".join(parts) + "\n"


def data_markdown(editions: tuple[Edition, ...], latest: str) -> str:
    """The page that describes the machine-readable files."""
    parts = [
        "---",
        "description: The LVL rules as JSON for tournament software, with a JSON Schema.",
        "---",
        "",
        "# Data for tournament software",
        "",
        "Every edition is published as one JSON file, generated from the same rule data as",
        "these pages and the calculators. The files follow a [JSON Schema](schema.json).",
        "Within a `format` version, fields are only ever added, never renamed or removed.",
        "",
        "Each file holds: every clause (`id`, `title`, `markdown`, the `notes` attached, and its",
        "`status` against the previous edition), the editorial notes, the technique catalogue,",
        "the chart groups (`eligibility.groups`: who is in each group and what it adds), and the",
        "scoring tables (positions and their variants, advantages, fouls, penalty scales and",
        "ways a match is decided), each naming the clause it comes from.",
    ]
    for edition in reversed(editions):
        state = " (in force)" if edition.id == latest else ""
        parts += [
            "",
            f"## {edition.title}{state} {{ #edition-{edition.id} }}",
            "",
            f"[{edition.id}.json]({edition.id}.json): {edition.description}",
            "",
            f'The whole edition as a printable PDF: <a href="{edition.id}.pdf">{edition.id}.pdf</a>'
            " (the same text as the printable page, every clause numbered).",
        ]
    parts += [
        "",
        "## The same answers from the command line { #cli }",
        "",
        "The rules package behind this site has a command-line interface with the same JSON:",
        "",
        "```sh",
        "lvl-rules eligibility --edition 2 --age 30 --belt purple --uniform nogi --json",
        "lvl-rules divisions-for heel-hook --edition 2 --json",
        "lvl-rules score --edition 1 --age 30 --lvl 3 --uniform gi --json events.json",
        "lvl-rules export --edition 2 --json",
        "```",
        "",
        "Clauses are cited by their permanent links: `/cite/<edition>/<clause>/`, for example",
        f"[/cite/{latest}/5.4/](../cite/{latest}/5.4/index.html).",
    ]
    return "\n".join(parts) + "\n"
