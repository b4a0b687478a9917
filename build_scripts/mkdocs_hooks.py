"""The MkDocs hook: the one path by which `mkdocs build`, `mkdocs serve` and `make site`
generate the site from lvl_rules.

- on_config: clear cached rule data (live reload), build the navigation from it, and
  put every Markdown table in a named region (build_scripts.pages.table_regions); broken
  rule data stops the build with the loader's message as MkDocs's one error, no traceback;
- on_files: add every generated page and data file as a virtual file (nothing is
  written into docs/), our stylesheets as one (build_scripts.pages.stylesheet), and
  publish our scripts under names that change with their content
  (build_scripts.publish.code_folder);
- on_page_markdown: fill in the hand-written home page's words about the edition in force
  (build_scripts.pages.home);
- on_page_content: link each glossary term's first use on a page of an edition to the
  glossary (build_scripts.pages.glossary_page);
- on_env: write the browser engine (build_scripts.bundle) into the site before any page,
  and give the templates what they print from the build: the engine's manifest
  (`lvl_engine_manifest`) and its client's words (`lvl_engine_words`), the offline box's
  words (`lvl_offline_words`, lvl_rules/words/offline.py), the page
  Content-Security-Policy (`lvl_page_policy`), whether the site's address is public
  (`lvl_public_site`: link previews), what each page fetches from its <head>
  on (`lvl_preload_scripts`, `lvl_preload_modules`: build_scripts.pages.preloads), and
  where each of our scripts is published (the `lvl_code` filter: a script's path under
  docs/ to its path in the site);
- on_post_build (after Material's search plugin has written its index): one search entry
  per place to land, each chart row and foul among them (build_scripts.pages.search_entries).

MkDocs loads this file by its path; run it as `python -m mkdocs …` from the repository
root, which makes the root importable, so the build imports `build_scripts` as a package.
The publish steps that need the finished site (PDFs, service worker, _headers) run after
MkDocs, in `python -m build_scripts.build_site`.
"""

from __future__ import annotations

import importlib.util
import logging
import time
from pathlib import Path
from typing import Any

if importlib.util.find_spec("build_scripts") is None:
    raise SystemExit(
        "LVL Rules: run MkDocs as `.venv/bin/python -m mkdocs …` from the repository root "
        "(the hook imports the build_scripts package from there)"
    )

from markupsafe import Markup
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from build_scripts.bundle import engine
from build_scripts.bundle.manifest import manifest_element, words_element
from build_scripts.bundle.wheel import browser_wheel
from build_scripts.pages import (
    division_pages,
    glossary_page,
    home,
    lookup_page,
    navigation,
    preloads,
    search_entries,
    search_worker,
    site_pages,
    stylesheet,
    vendor,
)
from build_scripts.pages.forms import LINK_STYLESHEET, link_stylesheet
from build_scripts.pages.table_regions import TableRegions
from build_scripts.pages.urls import public_address
from build_scripts.publish import code_folder, security
from lvl_rules import Edition, RulesError, load_all
from lvl_rules.faces.site import clear_cache, engine_words, offline_words

TIMINGS: dict[str, float] = {}
COMMAND = {"name": "build"}
# This build's scripts, where on_files published them (build_scripts.publish.code_folder).
PUBLISHED: dict[str, code_folder.Code] = {}
log = logging.getLogger("mkdocs.plugins.lvl_rules")


def on_startup(command: str, dirty: bool) -> None:
    """Remember whether this is `mkdocs serve`, whose live reload needs an inline script."""
    del dirty
    COMMAND["name"] = command


def page_policy() -> str | None:
    """The policy every page carries in its <meta>; none under `mkdocs serve`, whose live
    reload is an inline script the policy forbids (`make serve` serves a real build)."""
    if COMMAND["name"] == "serve":
        return None
    return security.attribute_safe(security.meta_policy())


def editions() -> tuple[Edition, ...]:
    """Every edition; broken data is MkDocs's one error line, the loader's message naming
    file and key (a PluginError: no traceback, and `mkdocs serve` keeps serving)."""
    try:
        return load_all()
    except RulesError as error:
        raise PluginError(f"LVL Rules data: {error}") from None


def on_config(config: Any) -> Any:
    """Read the rules afresh, lay out the navigation from them, add our Markdown extension."""
    started = time.perf_counter()
    clear_cache()
    config["nav"] = navigation.nav(editions())
    if not any(isinstance(e, TableRegions) for e in config["markdown_extensions"]):
        config["markdown_extensions"].append(TableRegions())
    TIMINGS["config"] = time.perf_counter() - started
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add every generated page and data file; publish our scripts by their content."""
    started = time.perf_counter()
    for path, content in site_pages.generate(editions(), page_policy=page_policy()).items():
        files.append(File.generated(config, path, content=content))
    # extra_css names it (mkdocs.yml): combined with our stylesheets.
    files.append(File.generated(config, LINK_STYLESHEET, content=link_stylesheet(editions())))
    stylesheet.combine(files, config)
    vendor.add(files, config)
    PUBLISHED["code"] = code_folder.publish(files, config)
    # Each answer of My division at its own address, which names its (published) script.
    answered = time.perf_counter()
    answers = lookup_page.rules_table(editions())
    pages = division_pages.division_pages(
        editions(), answers, script=PUBLISHED["code"].path(division_pages.SCRIPT),
        page_policy=page_policy(), site_url=public_address(config["site_url"] or ""),
    )  # fmt: skip
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    log.info(
        "LVL Rules answers' own pages: %d, %d bytes, %.2fs", len(pages),
        sum(len(content.encode()) for content in pages.values()),
        time.perf_counter() - answered,
    )  # fmt: skip
    TIMINGS["generate"] = time.perf_counter() - started
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """The home page, written by hand, with the edition in force filled in."""
    del config, files
    if page.file.src_uri == home.HOME:
        return home.home_markdown(markdown, editions())
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    """A page of an edition with each glossary term's first use linked to the glossary."""
    del config, files
    return glossary_page.link_first_uses(html, page.file.src_uri)


def on_env(env: Any, config: Any, files: Files) -> Any:
    """Publish the browser engine into the (by now cleaned) site directory, and give the
    templates its manifest and the page policy."""
    del files
    started = time.perf_counter()
    summary = engine.build_bundle(Path(config["site_dir"]), browser_wheel())
    # Our own JSON, with every "<" escaped by manifest_element(): safe to put in as is.
    element = manifest_element(summary["manifest"])
    env.globals["lvl_engine_manifest"] = Markup(element)  # noqa: S704
    # The same for the engine client's words; the offline box's words (overrides/main.html).
    env.globals["lvl_engine_words"] = Markup(words_element(engine_words.ERRORS))  # noqa: S704
    env.globals["lvl_offline_words"] = offline_words
    env.globals["lvl_page_policy"] = page_policy()
    # Link previews name a page's address only where the site has a public one.
    env.globals["lvl_public_site"] = public_address(config["site_url"] or "") is not None
    code = PUBLISHED["code"]
    env.filters["lvl_code"] = code.path
    env.globals["lvl_preload_scripts"] = lambda app: preloads.scripts(config, code, app)
    env.globals["lvl_preload_modules"] = lambda app: preloads.modules(config, code, app)
    our_search_worker = code.path(search_worker.OUR_WORKER_SOURCE)
    env.filters["lvl_search_when_free"] = lambda block: search_worker.search_when_free(
        block, our_search_worker
    )
    if env.globals["lvl_page_policy"] is None:
        log.info("LVL Rules: mkdocs serve: no CSP <meta> and no service worker")
    log.info(
        "LVL Rules timings: generate %.3fs, engine %.3fs (standard library %s)",
        TIMINGS.get("generate", 0.0),
        time.perf_counter() - started,
        "cached" if summary.get("stdlib_cached") else "made",
    )
    return env


@event_priority(-100)  # after Material's search plugin (priority 0) has written its index
def on_post_build(config: Any) -> None:
    """Rewrite the search index: one entry per place a reader can land."""
    count = search_entries.rewrite_index(Path(config["site_dir"]), editions())
    log.info("LVL Rules search: %d entries", count)
