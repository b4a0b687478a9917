"""The Jinja2 environment for generated pages (Markdown out, so no HTML autoescape)."""

from __future__ import annotations

from pathlib import Path

import jinja2

from lvl_rules.faces.site import site_words as words

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=False,  # noqa: S701 - the templates produce Markdown, not HTML
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
# Every page of a draft edition opens with its banner (draft_notice.md.j2).
TEMPLATES.globals["draft_notice"] = words.draft_notice
TEMPLATES.globals["edition_choice"] = words.edition_choice  # "Edition 3 (draft)"
# Front matter strings as JSON (valid YAML), their words as written: "§8", not "\u00a78".
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": True}
