"""Every Markdown table of a page in a focusable region named by the heading it comes
under, so that a table wider than a phone can be scrolled by keyboard and screen readers
say what it holds (axe: scrollable-region-focusable).

A Python-Markdown extension the MkDocs hook adds to the site's Markdown: the tables of
clause texts, the scoring tables and the changes page alike. Material still wraps each
table in its own scrolling container when the page loads; lvl.css makes ours the one
that scrolls. Tables we write as HTML (the chart, the lookup's results) carry their own
named region.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

REGION_CLASS = "lvl-table"
HEADINGS = frozenset(f"h{level}" for level in range(1, 7))
# After the table of contents (priority 5), which gives every heading its id.
PRIORITY = 4


class TableRegions(Extension):
    """Wrap each table in ``<div class="lvl-table" tabindex="0" role="region"
    aria-labelledby="{heading id}">`` (no role where no heading comes before it)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        """Register the tree processor."""
        md.treeprocessors.register(_Wrap(md), "lvl_table_regions", PRIORITY)


class _Wrap(Treeprocessor):
    def run(self, root: Element) -> None:
        parents = {child: parent for parent in root.iter() for child in parent}
        for table in list(root.iter("table")):
            parent = parents[table]
            if parent.get("class") == REGION_CLASS:
                continue
            region = Element("div", {"class": REGION_CLASS, "tabindex": "0"})
            heading = _heading_before(table, parents)
            if heading is not None:
                region.set("role", "region")
                region.set("aria-labelledby", heading)
            parent.insert(list(parent).index(table), region)
            parent.remove(table)
            region.append(table)
            region.tail, table.tail = table.tail, None


def _heading_before(node: Element, parents: dict[Element, Element]) -> str | None:
    """The id of the nearest heading before ``node``, at its level or further out."""
    while node in parents:
        parent = parents[node]
        siblings = list(parent)
        for sibling in reversed(siblings[: siblings.index(node)]):
            if sibling.tag in HEADINGS and sibling.get("id"):
                return sibling.get("id")
        node = parent
    return None
