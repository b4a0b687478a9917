"""A deploy over a served build, as the deploy tests make one: the next build, derived from
the one served (a whole second build costs minutes) the way a real deploy changes a site.

A release changes the scripts and amends the pages: every script of ours differs, so it is
published under a new name (the code folder's is a hash of them all,
build_scripts/publish/code_folder.py), every page names the new ones and carries the new
text, and the last step of a build writes the host files again (precompressed siblings,
``sw.js`` with the new build's version, ``_headers``).
The engine's files stay as they were, as in a release that changes no engine: a new service
worker copies them from the old cache instead of downloading them again."""

from __future__ import annotations

import re
from pathlib import Path

from offline_page import build_of

from build_scripts.publish import code_folder
from build_scripts.publish.host_files import write_host_files

MARK = "lvl-test-build"  # <meta name=...> on every page of a derived build: which build it is
FIRST = "A"  # the mark of a build no deploy made (it has no such tag)
SECTION = re.compile(r"^rules/([^/]+)/([^/]+)/$")


def publish_next_build(site: Path, mark: str) -> str:
    """Make the build served from ``site`` the next one, marked ``mark`` (every page says
    so, :func:`build_mark`); return its service worker's version."""
    tag = f'<meta name="{MARK}" content="{mark}">'
    for page in site.rglob("*.html"):
        text = re.sub(rf'<meta name="{MARK}"[^>]*>', "", page.read_text("utf-8"))
        page.write_text(text.replace("</head>", f"{tag}</head>", 1), "utf-8")
    deploy_new_scripts(site)
    return build_of(site)["version"]


def deploy_new_scripts(site: Path) -> None:
    """A new build whose every script of ours differs from the old build's (a line added
    to each), each published where the build publishes it (its code folder named by them
    all, the search worker by its own hash: build_scripts/publish/code_folder.py) and the
    pages naming them there; the pages' other content as it was."""
    main = code_folder.published_in(site, "assets/app/main.js")
    old_folder = main.removesuffix(code_folder.within("assets/app/main.js"))
    (worker,) = site.glob("assets/javascripts/workers/search-when-free.*.js")
    renamed = {}
    contents = {}
    scripts = [path for path in sorted((site / old_folder).rglob("*")) if path.is_file()]
    for path in [*scripts, worker]:
        if path.suffix not in (".js", ".mjs"):
            path.unlink()  # a precompressed copy of the old script
            continue
        content = path.read_bytes() + b"\n// the new build\n"
        path.write_bytes(content)
        relative = path.relative_to(site).as_posix()
        if source := code_folder.source_of(relative):
            contents[source] = content
        else:
            source = re.sub(r"\.[0-9a-f]+\.js$", ".js", relative)
            renamed[relative] = code_folder.hashed_name(source, content)
            path.rename(site / renamed[relative])
            for suffix in (".br", ".gz"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
    renamed[old_folder] = code_folder.folder_name(contents)
    (site / old_folder).rename(site / renamed[old_folder])
    for page in site.rglob("*.html"):
        text = page.read_text("utf-8")
        for old, new in renamed.items():
            text = text.replace(old, new)
        page.write_text(text, "utf-8")
        for suffix in (".br", ".gz"):
            page.with_name(page.name + suffix).unlink(missing_ok=True)
    write_host_files(site)


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
