"""Each distinct answer of My division at its own address, ``/lookup/<division>/``.

A shared answer previews itself without running a script: the page at the address carries
the division's title, a one-line summary and a picture of the answer (``og:image``,
``preview.png`` beside it, taken by build_scripts/publish/previews.py after MkDocs), and
the answer at a glance in plain HTML. Its one script (docs/assets/app/division-address.js)
sends the reader on to My division with the answer: the fields of the link that was shared
(its query), or those of the youngest athlete who gets the answer. The lookup page copies
and shares these addresses (:func:`addresses`).

The answers are those of the rules table (``lvl_rules.faces.my_division.division_answers``):
one per distinct answer the form can give, 42 for the two editions of 2026.
"""

from __future__ import annotations

import posixpath
from html import escape
from urllib.parse import urlencode, urljoin

from lvl_rules.faces.my_division import DivisionAnswer, division_answers
from lvl_rules.faces.site import (
    MY_DIVISION,
    Edition,
    division_glance,
    division_summary,
    division_title,
    readings_words,
    unlisted_readings,
)

from .notes_page import NOTES_PAGE
from .urls import page_url

FOLDER = "lookup/"  # the divisions' addresses sit under My division's
PREVIEW = "preview.png"  # each division's picture, beside its page
POSTER = "poster-a4.pdf"  # each division's poster, beside its page
PREVIEW_SIZE = (600, 315)  # the picture's pixels: the 1.91:1 of link previews, kept small
SCRIPT = "assets/app/division-address.js"
ANSWER_LINK_ID = "lvl-open-answer"  # the page's link to My division with the answer


def division_path(division: DivisionAnswer) -> str:
    """A division's URL path (no leading slash): ``lookup/2-nogi-13-14/``."""
    return f"{FOLDER}{division.slug}/"


def form_query(division: DivisionAnswer) -> str:
    """The form of the youngest athlete who gets the answer, as My division's query (its
    fields in the order the form writes them: edition, age, uniform, then the others)."""
    params = [
        (key, ",".join(value) if isinstance(value, tuple | list) else value)
        for key, value in division.params.items()
    ]
    first = ("edition", "age", "uniform")
    params.sort(key=lambda item: first.index(item[0]) if item[0] in first else len(first))
    return urlencode(params)


def divisions(editions: tuple[Edition, ...], answers: dict) -> tuple[DivisionAnswer, ...]:
    """Every distinct answer of the rules table ``answers`` of these editions."""
    return division_answers(editions, answers)


def addresses(
    editions: tuple[Edition, ...], found: tuple[DivisionAnswer, ...]
) -> dict[str, object]:
    """What the lookup page shares for an answer, by the table's placement: ``by``
    (placement -> division) and ``divisions`` (each one's path, title and summary)."""
    by_id = {edition.id: edition for edition in editions}
    listed = []
    by: dict[str, int] = {}
    for n, division in enumerate(found):
        edition = by_id[division.edition]
        listed.append({
            "path": division_path(division),
            "title": title(edition, division),
            "summary": division_summary(edition, division.answer),
        })  # fmt: skip
        for placement in division.placements:
            by[str(placement)] = n
    return {"by": by, "divisions": listed}


def title(edition: Edition, division: DivisionAnswer) -> str:
    """A division's title (its page's, its link preview's, its share sheet's)."""
    return division_title(
        edition, ages=division.ages, uniform=division.uniform, ranks=division.ranks,
        experience=division.experience,
    )  # fmt: skip


def division_page(
    edition: Edition,
    division: DivisionAnswer,
    *,
    script: str,
    page_policy: str | None,
    site_url: str | None,
) -> str:
    """The static page at a division's address. ``script``: the forwarding script's path
    under the site; ``site_url``: the site's public address (None: relative links only,
    and no ``og:url``)."""
    here = division_path(division)
    root = posixpath.relpath(".", here) + "/"
    policy = (
        f'<meta http-equiv="Content-Security-Policy" content="{page_policy}">\n'
        if page_policy
        else ""
    )
    name = escape(title(edition, division))
    said = escape(division_summary(edition, division.answer))
    image = urljoin(site_url, here + PREVIEW) if site_url else PREVIEW
    address = (
        f'<meta property="og:url" content="{escape(urljoin(site_url, here))}">\n'
        if site_url
        else ""
    )
    glance = division_glance(edition, division.answer)
    answer = f"../?{escape(form_query(division))}"
    notes = root + page_url(NOTES_PAGE)
    ours = readings_words.mark_html(
        edition, unlisted_readings(edition), lambda note: f"{notes}#e{edition.id}-{note}"
    )
    may = [escape(line) for line in glance["may"]]
    may[0] += f" {ours}" if ours else ""
    items = "".join(f"<li>{line}</li>" for line in may)
    later = "".join(f"<li>{escape(line)}</li>" for line in glance["not_yet"])
    severe = escape(", ".join(glance["severe_names"]))
    open_answer = escape(MY_DIVISION["open_answer"])
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"{policy}"
        f"<title>{name}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="description" content="{said}">\n'
        '<meta property="og:type" content="website">\n'
        '<meta property="og:site_name" content="LVL Rules">\n'
        f'<meta property="og:title" content="{name}">\n'
        f'<meta property="og:description" content="{said}">\n'
        f'<meta property="og:image" content="{escape(image)}">\n'
        f'<meta property="og:image:width" content="{PREVIEW_SIZE[0]}">\n'
        f'<meta property="og:image:height" content="{PREVIEW_SIZE[1]}">\n'
        f'<meta property="og:image:alt" content="{escape(MY_DIVISION["preview_alt"])}">\n'
        f"{address}"
        '<meta name="twitter:card" content="summary_large_image">\n'
        f'<link rel="icon" href="{root}assets/images/favicon.png">\n'
        f'<script src="{root}{escape(script)}" defer></script>\n'
        "</head>\n<body>\n<main>\n"
        f"<h1>{name}</h1>\n"
        f'<h2>{escape(MY_DIVISION["glance_may"])}</h2>\n<ul class="may">{items}</ul>\n'
        f'<h2>{escape(MY_DIVISION["glance_not_yet"])}</h2>\n<ul class="not-yet">{later}</ul>\n'
        f"<h2>{escape(MY_DIVISION['glance_disqualifies'])}</h2>\n"
        f'<ul class="penalties"><li>{escape(glance["scale"])}</li>'
        f"<li>{escape(glance['severe'])} {severe}.</li>"
        f"<li>{escape(glance['disciplinary'])}</li></ul>\n"
        f'<p><a id="{ANSWER_LINK_ID}" href="{answer}">{open_answer}</a></p>\n'
        "</main>\n</body>\n</html>\n"
    )


def division_pages(
    editions: tuple[Edition, ...],
    answers: dict,
    *,
    script: str,
    page_policy: str | None,
    site_url: str | None,
) -> dict[str, str]:
    """Every division's page, by its path under the site."""
    by_id = {edition.id: edition for edition in editions}
    pages = {}
    for division in divisions(editions, answers):
        pages[division_path(division) + "index.html"] = division_page(
            by_id[division.edition], division, script=script, page_policy=page_policy,
            site_url=site_url,
        )  # fmt: skip
    return pages
