"""What each page fetches from its <head> on (overrides/main.html): the scripts that block
its parser further down and the JavaScript modules it runs.

Without this, each of those scripts was requested only when the parser reached it, one
after the other: on 4G the lookup's first answer waited for five round trips in a row
(the palette's script, the content's, Material's bundle, ours, then the modules' import
graph one level at a time). The lists come from the sources of truth: Material's own
bundle file, MkDocs's extra_javascript, and the modules' `import … from "./…"` lines, read
where this build publishes them (build_scripts/publish/code_folder.py: each path carries
the scripts' hash).

Measured gain, with stylesheet.py (benchmarks/network.py, this build against the one
before, interleaved; medians of 3 runs, 2 on slow 4G), the lookup's first answer on a
first visit: 4G 1.82 -> 1.32 s, slow 4G 3.68 -> 1.61 s, localhost 1.55 -> 1.26 s; its
repeat visit on slow 4G 1.21 -> 1.08 s. The preloads sit after the stylesheets: placed
before them, the first answer came as soon but the first paint ~0.2 s later and the
engine worker started ~0.2 s later (on the waterfall of three 4G visits each).

That gain is the app pages' (the lookup and the calculator: large pages whose answer
waits for the scripts). A page without an app fetches from its head only the theme's two
scripts that stop the parser in the middle of the page (the palette's before the content,
the content's after it); its other scripts are at the end of a small page, where the
browser finds them soon, and fetched from the head they shared the network with what the
first paint needs. Measured on a rule section (this build against the one that preloaded
everything, interleaved): Lighthouse mobile, medians of 3, largest contentful paint
2.38 -> 1.21 s and performance 87 -> 96 (the home page: 1.74 -> 1.21 s); Chromium's
network emulation with a 4x slower CPU, medians of 5: no change (4G 1.16 -> 1.12 s,
slow 4G 1.30 -> 1.31 s).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

import material

from build_scripts.publish.code_folder import Code

# Their paths under docs/; the pages name them where this build publishes them.
THEME_SCRIPTS = ("assets/theme/md-palette.js", "assets/theme/md-content.js")
STATIC_IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}/[^"]+\.js)"', re.M | re.S)


def material_bundle() -> str:
    """The path in the site of Material's bundle (its name carries the theme's hash)."""
    theme = Path(material.__file__).parent / "templates"
    found = sorted(theme.glob("assets/javascripts/bundle.*.min.js"))
    if len(found) != 1:
        raise SystemExit(f"LVL Rules: expected one Material bundle, found {len(found)}")
    return found[0].relative_to(theme).as_posix()


def scripts(config: Any, code: Code, app: str | None) -> list[str]:
    """The classic scripts a page fetches from its <head>, in the order it runs them: on
    a page with an app (page meta `app`, or `engine`), every one it loads after <head>; on
    another, the theme's, which stop the parser in the middle of the page."""
    theme = [code.path(script) for script in THEME_SCRIPTS]
    if not app:
        return theme
    extra = [str(script) for script in config["extra_javascript"] if not _is_module(script)]
    return [*theme, material_bundle(), *extra]


def modules(config: Any, code: Code, app: str | None) -> list[str]:
    """The modules a page with an app fetches from its <head>: every module it runs at its
    start (the site's from extra_javascript, and the app's) with all they import. None on
    a page without an app."""
    if not app:
        return []
    entries = [str(script) for script in config["extra_javascript"] if _is_module(script)]
    entries.append(code.path(f"assets/app/{app}.js"))
    return list(dict.fromkeys(path for entry in entries for path in import_graph(code, entry)))


def import_graph(code: Code, entry: str) -> tuple[str, ...]:
    """``entry`` (a published path) and every module it imports statically, depth first."""
    found: list[str] = []

    def visit(path: str) -> None:
        if path in found:
            return
        found.append(path)
        for target in STATIC_IMPORT.findall(code.text(path)):
            visit(posixpath.normpath(posixpath.join(posixpath.dirname(path), target)))

    visit(posixpath.normpath(entry))
    return tuple(found)


def _is_module(script: Any) -> bool:
    return getattr(script, "type", None) == "module"
