"""The Jinja2 environment for generated pages (Markdown out, so no HTML autoescape)."""

from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=False,  # noqa: S701 - the templates produce Markdown, not HTML
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
# Front matter strings as JSON (valid YAML), their words as written: "§8", not "\u00a78".
TEMPLATES.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": True}
