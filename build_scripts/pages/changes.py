"""The "What changed" page: every amended record of an edition, with word-level diffs."""

from __future__ import annotations

import difflib
import json
import re
from html import escape

from lvl_rules.faces.site import (
    COLLECTION_TITLES,
    KIND_WORDS,
    UNIFORM_NAMES,
    Edition,
    citation,
    first_allowed,
    impact,
    impact_words,
    moved,
    not_in,
    unchanged_paragraphs,
)
from lvl_rules.faces.site import markdown as render
from lvl_rules.faces.site import site_words as words

from . import page_meta
from .clause_blocks import linker
from .reading_marks import reading_mark
from .urls import clause_page, href, md_link

PAGE = "rules/changes.md"
_TOKENS = re.compile(r"\s+|[^\s]+")
_EMPHASIS = re.compile(r"\*\*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ROW_RULE = re.compile(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*")
_BULLET = re.compile(r"^[-*+]\s+")
_NUMBERED = re.compile(r"^\d+\.\s+")


Block = tuple[str, str]  # (kind: "p", "li", "ol", "row" or "title", plain text)
BREAK = "\x00"  # between two blocks, in the word sequence a diff runs over


def clause_diff(old: str, new: str, sides: tuple[str, str]) -> str:
    """The old and the new text side by side (stacked on a phone), block by block:
    unchanged runs folded away, each changed run with its words marked inside each side
    (removed words struck out on the old side, added words underlined on the new).
    ``sides``: the two sides' names. No Markdown marker is left in the text."""
    a, b = _blocks(old), _blocks(new)
    parts = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            parts.append(f'<p class="lvl-same">{unchanged_paragraphs(i2 - i1)}</p>')
            continue
        before, after = _marked(a[i1:i2], b[j1:j2])
        parts.append(
            '<div class="lvl-diff-pair">'
            f'<div class="lvl-diff-old"><p class="lvl-diff-side">{escape(sides[0])}</p>'
            f"{before or _nothing(sides[0])}</div>"
            f'<div class="lvl-diff-new"><p class="lvl-diff-side">{escape(sides[1])}</p>'
            f"{after or _nothing(sides[1])}</div></div>"
        )
    return f'<div class="lvl-diff" data-search-exclude>{"".join(parts)}</div>'


def _nothing(side: str) -> str:
    return f'<p class="lvl-same">{escape(not_in(side))}</p>'


def _blocks(markdown: str) -> list[Block]:
    """Rule text as blocks of plain text: paragraphs, list items, table rows."""
    blocks: list[Block] = []
    paragraph: list[str] = []

    def close() -> None:
        if paragraph:
            blocks.append(("p", " ".join(paragraph)))
            paragraph.clear()

    for line in _plain(markdown).splitlines():
        text = line.strip()
        if not text:
            close()
        elif _ROW_RULE.fullmatch(text):
            continue  # a table's |---|---| line
        elif text.startswith("|"):
            close()
            cells = [cell.strip() for cell in text.strip("|").split("|")]
            blocks.append(("row", " · ".join(cells)))
        elif _BULLET.match(text):
            close()
            blocks.append(("li", _BULLET.sub("", text, count=1)))
        elif _NUMBERED.match(text):
            close()
            blocks.append(("ol", _NUMBERED.sub("", text, count=1)))
        else:
            paragraph.append(text)
    close()
    if blocks:
        blocks[0] = ("title", blocks[0][1])  # the clause's heading comes first
    return blocks


def _marked(old: list[Block], new: list[Block]) -> tuple[str, str]:
    """Both sides of a changed run as HTML, words compared across the whole run."""
    a, b = _tokens(old), _tokens(new)
    keep_a, keep_b = [False] * len(a), [False] * len(b)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            keep_a[i1:i2] = [True] * (i2 - i1)
            keep_b[j1:j2] = [True] * (j2 - j1)
    return _html(old, a, _joined(a, keep_a), "del"), _html(new, b, _joined(b, keep_b), "ins")


def _joined(tokens: list[str], kept: list[bool]) -> list[bool]:
    """A space between two changed words is part of the change: one mark, not two."""
    out = list(kept)
    for i in range(1, len(tokens) - 1):
        if tokens[i].isspace() and tokens[i] != BREAK and not kept[i - 1] and not kept[i + 1]:
            out[i] = False
    return out


def _tokens(blocks: list[Block]) -> list[str]:
    tokens: list[str] = []
    for index, (_, text) in enumerate(blocks):
        if index:
            tokens.append(BREAK)
        tokens += _TOKENS.findall(text)
    return tokens


def _html(blocks: list[Block], tokens: list[str], kept: list[bool], mark: str) -> str:
    """One side: each block's words, the ones not kept inside <del> or <ins>."""
    if not blocks:
        return ""
    texts: list[str] = []
    current: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            words = "".join(run)
            core = words.strip()
            if core:
                lead = words[: len(words) - len(words.lstrip())]
                tail = words[len(words.rstrip()) :]
                current.append(f"{escape(lead)}<{mark}>{escape(core)}</{mark}>{escape(tail)}")
            else:
                current.append(escape(words))
            run.clear()

    for token, keep in zip(tokens, kept, strict=True):
        if token == BREAK:
            flush()
            texts.append("".join(current))
            current.clear()
        elif keep:
            flush()
            current.append(escape(token))
        else:
            run.append(token)
    flush()
    texts.append("".join(current))
    out: list[str] = []
    open_list = ""
    for (kind, _), text in zip(blocks, texts, strict=True):
        wanted = {"li": "ul", "ol": "ol"}.get(kind, "")
        if open_list and wanted != open_list:
            out.append(f"</{open_list}>")
            open_list = ""
        if wanted and not open_list:
            out.append(f"<{wanted}>")
            open_list = wanted
        if wanted:
            out.append(f"<li>{text}</li>")
        elif kind == "title":
            out.append(f'<p class="lvl-diff-title">{text}</p>')
        elif kind == "row":
            out.append(f'<p class="lvl-diff-row">{text}</p>')
        else:
            out.append(f"<p>{text}</p>")
    if open_list:
        out.append(f"</{open_list}>")
    return "".join(out)


def _plain(markdown: str) -> str:
    return _LINK.sub(r"\1", _EMPHASIS.sub("", markdown))


def changes_markdown(editions: tuple[Edition, ...]) -> str:
    """The whole page, newest edition first."""
    by_id = {e.id: e for e in editions}
    about = page_meta.for_page_about_editions(editions, "What changed")
    parts = [
        "---",
        about["meta"],
        f"description: {json.dumps(words.DESCRIPTIONS['changes'], ensure_ascii=False)}",
        "---",
        "",
        about["edition_line"],
        "",
        "# What changed",
        "",
        "Each edition lists exactly what it changes, adds or removes; everything else carries",
        "over unchanged. For each changed clause, the summary comes first, then the old and",
        "the new wording side by side: removed words are <del>struck through</del> in the old,",
        "added words are <ins>underlined</ins> in the new, and unchanged paragraphs are folded",
        "away. Where a change is our reading of an update that is silent, not the",
        "federation's own words, it says so and links to the editorial note.",
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
        *(_for_you(old, new) if new.status == words.DRAFT else []),
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
            *_readings(new, "clauses", change.key),
        ]
        links = []
        for edition, clause in ((old, before), (new, after)):
            if clause is not None:
                target = md_link(PAGE, clause_page(edition.id, clause), clause.id)
                links.append(f"[{citation(edition, clause).removeprefix('LVL Rules, ')}]({target})")
        parts += [" → ".join(links), ""]
        old_text = _clause_text(old, before.id) if before else ""
        new_text = _clause_text(new, after.id) if after else ""
        parts.append(clause_diff(old_text, new_text, (old.title, new.title)))
    parts += ["", f"### {words.changes_chart_heading(new)}", "", *_chart_changes(old, new)]
    for collection, heading in COLLECTION_TITLES.items():
        rows = [c for c in new.changes if c.collection == collection]
        if rows:
            parts += ["", f"### {heading}", ""]
            parts += [
                f"- **{_record_name(old, new, collection, c.key)}** ({KIND_WORDS[c.kind]}): "
                f"{c.summary}{_reading_tail(new, collection, c.key)}"
                for c in rows
            ]
    return parts


def _mark(edition: Edition, collection: str, key: str | None) -> str:
    return reading_mark(edition, PAGE, [n.id for n in edition.readings(collection, key)])


def _readings(edition: Edition, collection: str, key: str | None) -> list[str]:
    """A paragraph marking what in a change is our reading, with its notes; none if none."""
    mark = _mark(edition, collection, key)
    return [f'<p class="lvl-reading-mark" markdown>{mark}</p>', ""] if mark else []


def _reading_tail(edition: Edition, collection: str, key: str | None) -> str:
    mark = _mark(edition, collection, key)
    return f" {mark}" if mark else ""


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
        mark = _reading_tail(new, "techniques", technique_id)
        rows.append(f"| {technique.name} | {before} | {after} | {moved(before, after)}{mark} |")
    clause = new.eligibility.clause
    intro = (
        f"When each technique first becomes legal ({link(clause, '§' + clause)}). "
        "Groups build on each other: a technique allowed from a group is allowed for every "
        "group after it."
    )
    # A long table at the end of the page: laid out only once it nears the screen.
    return [intro, "", '<div class="lvl-later" markdown>', "", *rows, "", "</div>"]


def _for_you(old: Edition, new: Edition) -> list[str]:
    """A draft's "What this would change for you": each group of divisions whose answer
    would change (``impact``, from the engine My division's table is made from), to open
    and read, with a link to My division asking for one of them in the draft."""
    said = impact_words.FOR_YOU
    found = impact(new)
    parts = [
        f"### {said['heading']} {{ #e{new.id}-for-you }}",
        "",
        said["draft_intro"].format(new=new.title, old=old.title),
        "",
    ]
    if not found["divisions"]:
        parts += [said["none"], ""]
    lines = impact_words.for_you(found, old, new)
    for row, shown in zip(found["divisions"], lines, strict=True):
        items = "".join(f"<li>{escape(line)}</li>" for line in shown["changes"])
        link = f'<a href="{_lookup_link(new, row)}">{escape(said["lookup"])}</a>'
        parts += [
            f'<details class="lvl-for-you"><summary>{escape(shown["division"])}</summary>'
            f"<ul>{items}</ul><p>{link}</p></details>",
            "",
        ]
    everyone = impact_words.everyone(found, old, new)
    text = said["everyone"].format(changes="; ".join(everyone)) if everyone else None
    parts += [text or said["everyone_none"], ""]
    return parts


def _lookup_link(edition: Edition, row: dict[str, object]) -> str:
    """My division asking for the first division of a group, in this edition."""
    uniforms: list[str] = row["uniforms"]  # type: ignore[assignment]
    ages: list[list[int]] = row["ages"]  # type: ignore[assignment]
    ranks: dict[str, list[str | None]] = row["ranks"]  # type: ignore[assignment]
    axis = edition.eligibility.axis
    query = {"edition": edition.id, "age": str(ages[0][0]), "uniform": uniforms[0]}
    rank = next((r for r in ranks.get(axis, []) if r), None)
    if rank is not None:
        query[axis] = rank
    assert uniforms[0] in UNIFORM_NAMES  # noqa: S101 - the engine's uniforms
    return href(PAGE, "lookup/") + "?" + "&amp;".join(f"{k}={v}" for k, v in query.items())
