"""The MkDocs hook: the one path by which `mkdocs build`, `mkdocs serve` and `make serve`
generate the site from lvl_rules.

- on_config: clear cached rule data (live reload) and build the navigation from it;
- on_files: add every generated page and data file as a virtual file (nothing is
  written into docs/);
- on_env: write the browser engine (Pyodide + the lvl_rules wheel) into the site, before
  any page, so that the pages that start it can carry its manifest (the template global
  `lvl_engine_manifest`);
- on_post_build: the offline step (CSP <meta> in every page, the service worker,
  _headers).
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the hook is loaded by file path, not as a package
    sys.path.insert(0, str(ROOT))

from markupsafe import Markup  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402

from build_scripts import engine_step, navigation, offline, site_pages  # noqa: E402
from lvl_rules import load_all  # noqa: E402
from lvl_rules.loading import clear_cache  # noqa: E402

TIMINGS: dict[str, float] = {}
COMMAND = {"name": "build"}
log = logging.getLogger("mkdocs.plugins.lvl_rules")


def on_startup(command: str, dirty: bool) -> None:
    """Remember whether this is `mkdocs serve`, whose live reload needs an inline script."""
    del dirty
    COMMAND["name"] = command


def on_config(config: Any) -> Any:
    """Read the rules afresh and lay out the navigation from them."""
    started = time.perf_counter()
    clear_cache()
    config["nav"] = navigation.nav(load_all())
    TIMINGS["config"] = time.perf_counter() - started
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add every generated page and data file."""
    started = time.perf_counter()
    for path, content in site_pages.generate(load_all()).items():
        files.append(File.generated(config, path, content=content))
    TIMINGS["generate"] = time.perf_counter() - started
    return files


def on_env(env: Any, config: Any, files: Files) -> Any:
    """Publish the browser engine into the (by now cleaned) site directory, and give the
    templates its manifest."""
    del files
    started = time.perf_counter()
    summary = engine_step.publish_engine(Path(config["site_dir"]))
    # Our own JSON, with every "<" escaped by manifest_element(): safe to put in as is.
    element = engine_step.manifest_element(summary["manifest"])
    env.globals["lvl_engine_manifest"] = Markup(element)  # noqa: S704
    log.info(
        "LVL Rules timings: generate %.3fs, engine %.3fs (snapshot %s)",
        TIMINGS.get("generate", 0.0),
        time.perf_counter() - started,
        "cached" if summary.get("snapshot_cached") else "made",
    )
    return env


def on_post_build(config: Any) -> None:
    """Write the offline files (not for `mkdocs serve`)."""
    if COMMAND["name"] == "serve":
        # `mkdocs serve` is for editing: its live reload is an inline script, which the
        # policy forbids, and a service worker would keep showing the old pages. `make
        # serve` serves a real build, with both.
        log.info("LVL Rules: mkdocs serve: no CSP <meta> and no service worker")
        return
    # Last: the CSP <meta> in every page, sw.js (hashes every file) and _headers.
    started = time.perf_counter()
    offline_summary = offline.write_offline_files(Path(config["site_dir"]))
    log.info(
        "LVL Rules offline: %.3fs, build %s, %d pages, shell %.1f MB, engine %.1f MB",
        time.perf_counter() - started,
        offline_summary["version"],
        offline_summary["pages"],
        offline_summary["shell_bytes"] / 1e6,
        offline_summary["engine_bytes"] / 1e6,
    )
