"""The "What changed" page: every amended record of an edition, with word-level diffs."""

from __future__ import annotations

import difflib
import re
from html import escape

from lvl_rules.model import Edition
from lvl_rules.words import markdown as render
from lvl_rules.words.site import (
    COLLECTION_TITLES,
    KIND_WORDS,
    citation,
    first_allowed,
    moved,
    unchanged_paragraphs,
)

from . import page_meta
from .clause_blocks import linker
from .urls import clause_page, md_link

PAGE = "rules/changes.md"
_TOKENS = re.compile(r"\s+|[^\s]+")
_EMPHASIS = re.compile(r"\*\*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


def clause_diff(old: str, new: str) -> str:
    """Paragraph by paragraph: unchanged runs folded away, changed ones diffed word by word."""
    a, b = _plain(old).split("\n\n"), _plain(new).split("\n\n")
    blocks = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            blocks.append(f'<span class="lvl-same">{unchanged_paragraphs(i2 - i1)}</span>')
        else:
            blocks.append(_words("\n\n".join(a[i1:i2]), "\n\n".join(b[j1:j2])))
    joined = "\n\n".join(blocks)
    return f'<div class="lvl-diff" data-search-exclude>{joined}</div>'


def _words(old: str, new: str) -> str:
    """HTML of ``new`` with words removed from ``old`` struck out and added words marked."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(escape("".join(a[i1:i2])))
            continue
        # "removed: " / "added: " for screen readers come from lvl.css (::before).
        if i2 > i1:
            out.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
    return "".join(out)


def _plain(markdown: str) -> str:
    return _EMPHASIS.sub("", markdown)


def changes_markdown(editions: tuple[Edition, ...]) -> str:
    """The whole page, newest edition first."""
    by_id = {e.id: e for e in editions}
    about = page_meta.for_page_about_editions(editions, "What changed")
    parts = [
        "---",
        about["meta"],
        "description: What changed in the LVL rules from one edition to the next, clause by"
        " clause.",
        "---",
        "",
        about["edition_line"],
        "",
        "# What changed",
        "",
        "Each edition lists exactly what it changes, adds or removes; everything else carries",
        "over unchanged. In the wording below, removed words are <del>struck through</del>,",
        "added words are <ins>underlined</ins>, and unchanged paragraphs are folded away.",
    ]
    for edition in reversed(editions):
        if edition.based_on is None:
            continue
        parts += _edition_changes(by_id[edition.based_on], edition)
    return "\n".join(parts) + "\n"


def _edition_changes(old: Edition, new: Edition) -> list[str]:
    parts = [
        "",
        f"## {new.title}, from {old.title} {{ #e{new.id} }}",
        "",
        new.description,
        "",
        "### Clauses",
    ]
    order: dict[str, int] = {}
    for key in (*new.clauses, *old.clauses):  # the new edition's order; removed ones after
        order.setdefault(key, len(order))
    clause_changes = sorted(
        (c for c in new.changes if c.collection == "clauses" and c.key is not None),
        key=lambda c: order[c.key or ""],
    )
    for change in clause_changes:
        anchor = f"e{new.id}-{change.key}"
        before, after = old.clauses.get(change.key), new.clauses.get(change.key)
        shown = after or before
        assert shown is not None  # noqa: S101 - the loader checked the amendment
        title = render.heading(new if after else old, shown)
        parts += [
            "",
            f"#### {title} ({KIND_WORDS[change.kind]}) {{ #{anchor} }}",
            "",
            change.summary,
            "",
        ]
        links = []
        for edition, clause in ((old, before), (new, after)):
            if clause is not None:
                target = md_link(PAGE, clause_page(edition.id, clause), clause.id)
                links.append(f"[{citation(edition, clause).removeprefix('LVL Rules, ')}]({target})")
        parts += [" → ".join(links), ""]
        old_text = _clause_text(old, before.id) if before else ""
        new_text = _clause_text(new, after.id) if after else ""
        parts.append(clause_diff(old_text, new_text))
    parts += ["", "### The technique chart", "", *_chart_changes(old, new)]
    for collection, heading in COLLECTION_TITLES.items():
        rows = [c for c in new.changes if c.collection == collection]
        if rows:
            parts += ["", f"### {heading}", ""]
            parts += [
                f"- **{_record_name(old, new, collection, c.key)}** ({KIND_WORDS[c.kind]}): "
                f"{c.summary}"
                for c in rows
            ]
    return parts


def _record_name(old: Edition, new: Edition, collection: str, key: str | None) -> str:
    """A record's human name (its title, label or name) from whichever edition has it."""
    for edition in (new, old):
        records = getattr(edition, collection)
        found = records.get(key) if isinstance(records, dict) else None
        if found is None and not isinstance(records, dict):
            found = next((r for r in records if r.id == key), None)
        if found is not None:
            for attribute in ("title", "label", "name"):
                value = getattr(found, attribute, None)
                if isinstance(value, str):
                    return value
    return str(key)


def _clause_text(edition: Edition, clause_id: str) -> str:
    clause = edition.clauses[clause_id]
    return f"{render.heading(edition, clause)}\n\n{render.body(edition, clause)}"


def _chart_changes(old: Edition, new: Edition) -> list[str]:
    link = linker(new, PAGE)
    rows = [f"| Technique | {old.title} | {new.title} | Change |", "|---|---|---|---|"]
    for technique_id, technique in new.techniques.items():
        before = first_allowed(old, technique_id) if technique_id in old.techniques else "—"
        after = first_allowed(new, technique_id)
        rows.append(f"| {technique.name} | {before} | {after} | {moved(before, after)} |")
    clause = new.eligibility.clause
    intro = (
        f"When each technique first becomes legal ({link(clause, '§' + clause)}). "
        "Groups build on each other: a technique allowed from a group is allowed for every "
        "group after it."
    )
    # A long table at the end of the page: laid out only once it nears the screen.
    return [intro, "", '<div class="lvl-later" markdown>', "", *rows, "", "</div>"]
