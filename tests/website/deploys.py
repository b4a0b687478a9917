"""A deploy over a served build, as the deploy tests make one: the next build, derived from
the one served (a whole second build costs minutes) the way a real deploy changes a site.

A release changes a script and amends the pages: every script of ours moves to a new code
folder (its name is a hash of them all, build_scripts/publish/code_folder.py), every page
names the new folder and carries the new text, and the last step of a build writes the host
files again (precompressed siblings, ``sw.js`` with the new build's version, ``_headers``).
The engine's files stay as they were, as in a release that changes no engine: a new service
worker copies them from the old cache instead of downloading them again."""

from __future__ import annotations

import re
from pathlib import Path

from build_scripts.publish.code_folder import folder_name, published_in
from build_scripts.publish.host_files import write_host_files
from build_scripts.publish.site_files import ENGINE_DIR, is_compressed_copy, site_files

MARK = "lvl-test-build"  # <meta name=...> on every page of a derived build: which build it is
FIRST = "A"  # the mark of a build no deploy made (it has no such tag)
REFERRING = (".html", ".js", ".mjs", ".css", ".json", ".xml", ".webmanifest")
SECTION = re.compile(r"^rules/([^/]+)/([^/]+)/$")


def publish_next_build(site: Path, mark: str) -> str:
    """Make the build served from ``site`` the next one, marked ``mark``; return its
    service worker's version."""
    old = published_in(site, "assets/app/main.js").removesuffix("app/main.js")
    folder = site / old
    main = folder / "app" / "main.js"
    main.write_text(f"{main.read_text('utf-8')}\n// Build {mark}.\n", encoding="utf-8")
    scripts = {
        "assets/" + path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and not is_compressed_copy(path)
    }
    new = folder_name(scripts)
    folder.rename(site / new)
    tag = f'<meta name="{MARK}" content="{mark}">'
    for path in site_files(site):
        relative = path.relative_to(site).as_posix()
        if relative.startswith(ENGINE_DIR) or is_compressed_copy(path):
            continue
        if not relative.endswith(REFERRING):
            continue
        text = path.read_text("utf-8")
        changed = text.replace(old, new)
        if relative.endswith(".html"):
            changed = re.sub(rf'<meta name="{MARK}"[^>]*>', "", changed)
            changed = changed.replace("</head>", f"{tag}</head>", 1)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
    return write_host_files(site).version


def build_mark(page) -> str:
    """Which build the open page is of (FIRST, or the mark of the deploy that made it)."""
    return page.evaluate(f"() => document.querySelector('meta[name={MARK}]')?.content ?? {FIRST!r}")


def section_of_each_edition(files: dict) -> list[str]:
    """One rule section page of each edition, from a build's sw.js file list."""
    first: dict[str, str] = {}
    for url in sorted(files):
        found = SECTION.match(url)
        if found and found.group(2) != "print":
            first.setdefault(found.group(1), url)
    return list(first.values())
