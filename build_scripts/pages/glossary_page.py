"""The glossary page, and the links from each term's first use on a rule page to it.

The terms and their meanings are data (``lvl_rules/glossary/terms.toml``, read by
``lvl_rules.faces.site.load_glossary``); a meaning the rules give links its clause in the
edition in force, a meaning of ours carries the mark of the note that reads it. The first
use of each term on a page of an edition (its sections, chart, scoring tables) is linked
to the term when MkDocs has rendered the page (the hook's ``on_page_content``): in the
page's text, never inside a heading, a link, a button or code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from lvl_rules.faces.site import Edition, edition_in_force, glossary_words, load_glossary

from . import page_meta
from .reading_marks import reading_mark
from .urls import clause_page, href, md_link, page_url

PAGE = "rules/glossary.md"
# Pages whose first uses are linked: every page of an edition, rules/<edition>/...
LINKED_PAGES = re.compile(r"^rules/\d+/")
# Elements whose text is never linked (a link inside them would be wrong or useless).
SKIPPED = frozenset(
    [
        "a",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "button",
        "code",
        "script",
        "style",
        "title",
        "textarea",
        "select",
        "option",
        "svg",
        "caption",
    ]
)
TAG = re.compile(r"(<[^>]*>)")
TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)")


def term_anchor(term_id: str) -> str:
    """The id of a term on the glossary page."""
    return f"term-{term_id}"


def glossary_markdown(editions: Sequence[Edition]) -> str:
    """The glossary page: each term, its meaning, and where the meaning comes from."""
    in_force = edition_in_force(tuple(editions))
    meta = page_meta.front_matter_lines(glossary_words.GLOSSARY_PAGE, None)
    lines = [
        "---",
        meta,
        f"description: {_yaml(glossary_words.DESCRIPTION)}",
        "---",
        "",
        f"# {glossary_words.GLOSSARY_PAGE}",
        "",
        glossary_words.INTRO,
        "",
    ]
    for term in load_glossary():
        said = f"- **{term.name}**{{ #{term_anchor(term.id)} }}: {term.meaning}"
        if term.clause is not None:
            clause = in_force.clauses[term.clause]
            target = md_link(PAGE, clause_page(in_force.id, clause), clause.id)
            said += f" ([{glossary_words.meaning_source(in_force, clause)}]({target}))"
        ours = [n.id for n in in_force.readings("terms", term.id)]
        if ours:
            said += f" {reading_mark(in_force, PAGE, ours)}"
        lines.append(said)
    return "\n".join(lines) + "\n"


def link_first_uses(html: str, page: str) -> str:
    """``html`` of the page ``page`` (a source path) with each glossary term's first use
    in its text linked to the term; other pages as they are."""
    if not LINKED_PAGES.match(page):
        return html
    target = href(page, page_url(PAGE))
    waiting = [(term, _words(term.forms)) for term in load_glossary()]
    out: list[str] = []
    skipped = 0
    for part in TAG.split(html):
        if part.startswith("<"):
            found = TAG_NAME.match(part)
            if found and found[2].lower() in SKIPPED and not part.endswith("/>"):
                skipped = max(0, skipped + (-1 if found[1] else 1))
            out.append(part)
        elif skipped or not waiting or not part.strip():
            out.append(part)
        else:
            out.append(_link(part, waiting, target))
    return "".join(out)


def _words(forms: Sequence[str]) -> re.Pattern[str]:
    longest_first = sorted(forms, key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, longest_first))})(?!\w)", re.I)


def _link(text: str, waiting: list, target: str) -> str:
    """``text`` with the first use of each waiting term linked (and those terms done)."""
    done = 0
    out = []
    while True:
        found = ((i, words.search(text, done)) for i, (_, words) in enumerate(waiting))
        hits = [(m.start(), -len(m[0]), i, m) for i, m in found if m]
        if not hits:
            break
        _, _, index, match = min(hits, key=lambda hit: hit[:3])
        term, _ = waiting.pop(index)
        out.append(text[done : match.start()])
        out.append(
            f'<a class="lvl-term" href="{target}#{term_anchor(term.id)}" '
            f'title="{escape(glossary_words.first_use_title(term.name))}">{match[0]}</a>'
        )
        done = match.end()
    out.append(text[done:])
    return "".join(out)


def _yaml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
