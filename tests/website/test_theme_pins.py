"""Material for MkDocs is extended, never repaired: each theme partial we copy or replace,
and each inline script of it we moved to a file, is pinned to the installed theme, so
upgrading the theme fails here until every copy has been compared again."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import material
import pytest

ROOT = Path(__file__).resolve().parents[2]
THEME = Path(material.__file__).parent / "templates"
OVERRIDES = ROOT / "overrides"
PIN = re.compile(r"Material for MkDocs (\S+), (partials/\S+)\s+\(sha256 ([0-9a-f]{64})\)")
# Material's inline scripts that our CSP moves to files: partial -> our file, and what
# differs (base.html writes the scope into its script; ours reads it from the tag).
SCOPE = '"{{ config.extra.scope | d(base_url) }}"'
MOVED_SCRIPTS = {
    "base.html": ("md-scope.js", (SCOPE, "document.currentScript.dataset.mdScope")),
    "content.html": ("md-content.js", None),
    "palette.html": ("md-palette.js", None),
}


def overridden_partials() -> list[Path]:
    """Our files that take the place of one of Material's (main.html, which extends the
    theme's base.html by its blocks, is the documented way in, not a copy)."""
    return sorted(
        path
        for path in OVERRIDES.rglob("*.html")
        if path.name != "main.html" and (THEME / path.relative_to(OVERRIDES)).is_file()
    )


@pytest.mark.parametrize("path", overridden_partials(), ids=lambda p: str(p.relative_to(OVERRIDES)))
def test_each_copied_partial_is_pinned_to_the_installed_theme(path):
    """The partial names the theme version and the sha256 of Material's file it replaces,
    and the installed theme's file is still that one."""
    name = path.relative_to(OVERRIDES).as_posix()
    pin = PIN.search(path.read_text(encoding="utf-8"))
    assert pin, f"{name} names no 'Material for MkDocs <version>, {name} (sha256 …)'"
    installed = hashlib.sha256((THEME / name).read_bytes()).hexdigest()
    assert (material.__version__, name, installed) == pin.groups()


def test_the_overrides_cover_every_partial_we_pin():
    """Every partial with our own markup is one of the pinned copies (and only ours are new)."""
    ours = {p.relative_to(OVERRIDES).as_posix() for p in OVERRIDES.rglob("*.html")}
    copies = {p.relative_to(OVERRIDES).as_posix() for p in overridden_partials()}
    assert {"main.html", "partials/csp.html"} == ours - copies


@pytest.mark.parametrize("partial", list(MOVED_SCRIPTS))
def test_moved_inline_scripts_are_the_theme_s_own(partial):
    """assets/theme/md-*.js holds the installed theme's inline script of that partial, the
    same code (only base.html's scope comes from the script tag)."""
    script, change = MOVED_SCRIPTS[partial]
    upstream = (THEME / "partials" / "javascripts" / partial).read_text(encoding="utf-8")
    code = re.findall(r"<script>(.*?)</script>", upstream, re.S)[-1]
    if change:
        assert 1 == code.count(change[0])
        code = code.replace(*change)
    ours = (ROOT / "docs" / "assets" / "theme" / script).read_text(encoding="utf-8")
    assert code == "\n".join(line for line in ours.splitlines() if not line.startswith("//"))


def test_the_features_our_copies_leave_out_stay_off():
    """content.html's replacement leaves out the script of content.tabs.link."""
    assert "content.tabs.link" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
