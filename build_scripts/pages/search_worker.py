"""Material's search worker, started once the rules engine is not starting.

Material for MkDocs creates its search worker from the "search" URL of its configuration
(the ``<script id="__config">`` of its ``config`` block); a custom worker is its
documented way to change search. ``overrides/main.html`` passes that block through
:func:`search_when_free`, which points the URL at our worker beside Material's
(docs/assets/javascripts/workers/search-when-free.js, published with its hash in its name:
build_scripts/publish/code_folder.py), after checking that ours imports the worker this
Material names: ours holds the page's messages until the engine has started (or the
reader opens search), then imports Material's and hands them over.

Measured (benchmarks/network.py, 5 cold visits each, interleaved, medians, against the
same build with Material's worker named again: ``benchmarks/site_variants.py
search-at-once``): localhost, the calculator's first answer 1,216 -> 1,008 ms and the
lookup's rules-table answer 404 -> 328 ms (its engine answer 1,027 -> 1,030 ms); 4G, where
the network is the limit, no change (calculator 5,136 -> 5,145 ms).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

# Its path under docs/; the build publishes it beside Material's, its hash in its name.
OUR_WORKER_SOURCE = "assets/javascripts/workers/search-when-free.js"
OUR_WORKER_FILE = Path(__file__).resolve().parents[2] / "docs" / OUR_WORKER_SOURCE
IMPORTED = re.compile(r'^const MATERIAL_WORKER = "(?P<name>[^"]+)";', re.MULTILINE)
CONFIG = re.compile(
    r'(<script id="__config" type="application/json">)(?P<json>.*?)(</script>)', re.DOTALL
)
MATERIAL_WORKER = re.compile(
    r"(?P<folder>(?:.*/)?assets/javascripts/workers/)(?P<name>search\.[0-9a-f]+\.min\.js)"
)


class SearchConfigError(ValueError):
    """Material's config block is not shaped as this module expects (a theme upgrade)."""


def search_when_free(config_block: str, ours: str) -> Markup:
    """Material's config block with its search worker replaced by ours, published at
    ``ours`` (a path from the site root, in Material's workers folder)."""
    found = CONFIG.search(config_block)
    if not found:
        raise SearchConfigError(
            'Material\'s config block has no <script id="__config" type="application/json">:'
            " has the theme changed? (build_scripts/pages/search_worker.py)"
        )
    config = json.loads(found["json"])
    worker = MATERIAL_WORKER.fullmatch(str(config.get("search", "")))
    if not worker:
        raise SearchConfigError(
            f"Material's search worker is {config.get('search')!r}; expected"
            " .../assets/javascripts/workers/search.<hash>.min.js"
        )
    if worker["name"] != imported_by_ours():
        raise SearchConfigError(
            f"Material's search worker is now {worker['name']}, and {OUR_WORKER_FILE.name}"
            f" imports {imported_by_ours()}: set its MATERIAL_WORKER to the new name"
        )
    folder, _, name = ours.rpartition("/")
    if not worker["folder"].endswith(f"{folder}/"):
        raise SearchConfigError(f"our search worker is published at {ours}, not beside Material's")
    config["search"] = worker["folder"] + name
    script = f"{found[1]}{htmlsafe_json_dumps(config)}{found[3]}"
    return Markup(config_block[: found.start()] + script + config_block[found.end() :])  # noqa: S704


@cache
def imported_by_ours() -> str:
    """The name of Material's worker that ours imports (its MATERIAL_WORKER)."""
    found = IMPORTED.search(OUR_WORKER_FILE.read_text(encoding="utf-8"))
    if not found:
        raise SearchConfigError(f"{OUR_WORKER_FILE} has no MATERIAL_WORKER")
    return found["name"]
