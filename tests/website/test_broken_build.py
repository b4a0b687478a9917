"""`mkdocs build --strict` with broken rule data, and the real build's text.

Every case of ``tests/broken/``, put in place of the shipped editions, stops the build
with exit 1 and the loader's message (file and key) as MkDocs's first and only error
line: no traceback, nothing published. Among them, the cases that once built with exit 0
and were published as they stood: ``{§2.3.7`` (unclosed), ``{§}``, ``{§ 2.3.7}``,
``{foo:bar}``, raw HTML in a clause; and those whose message was wrong or buried: a
Latin-1 byte (a bare UnicodeDecodeError), an empty clauses.toml (blamed on notes.toml).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from broken_editions import CASES, broken_copy

from lvl_rules import RulesError, load_all

ROOT = Path(__file__).resolve().parents[2]
# `python -m mkdocs build`, with the editions read from the folder given first instead of
# the package's own: the build's code path, the data swapped under it.
BUILD_WITH_EDITIONS = """
import pathlib, runpy, sys
import lvl_rules.loading.editions as editions
root = pathlib.Path(sys.argv.pop(1))
editions.default_root = lambda: root
sys.argv[0] = "mkdocs"
runpy.run_module("mkdocs", run_name="__main__", alter_sys=True)
"""
# The cases of issue 16 (F7), and one of each other kind of mistake the loader names; the
# command line's test runs every case (test_broken_data.py), and the hook turns any
# RulesError into MkDocs's one error line, so a build per case would only cost time.
F7 = (
    "reference_unclosed", "reference_empty", "reference_with_space", "marker_unknown_kind",
    "raw_html_in_clause", "not_utf8", "empty_clauses_file",
)  # fmt: skip
OTHERS = (
    "invalid_toml", "unknown_key_typo", "broken_cross_reference", "marker_in_foul_description",
    "raw_html_in_name", "braces_in_plain_text", "amendment_changes_missing",
)  # fmt: skip
BUILT = [path for path in CASES if path.stem in (*F7, *OTHERS)]


@pytest.fixture(scope="module")
def broken_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """Each case built: (exit status, what MkDocs printed, the loader's own message)."""

    def build(path: Path) -> tuple[str, tuple[int, str, str]]:
        folder = tmp_path_factory.mktemp(path.stem)
        root = broken_copy(path, folder)
        try:
            load_all(root=root)
            message = "(the loader accepted it)"
        except RulesError as error:
            message = str(error)
        argv = [sys.executable, "-c", BUILD_WITH_EDITIONS, str(root), "build", "--strict"]
        done = subprocess.run(
            [*argv, "--site-dir", str(folder / "site")],
            cwd=ROOT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
            check=False,
        )
        return path.stem, (done.returncode, done.stdout, message)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(build, BUILT))


def test_the_cases_exist() -> None:
    """Every case named here is a broken-data case, built below."""
    assert sorted((*F7, *OTHERS)) == sorted(path.stem for path in BUILT)


@pytest.mark.parametrize("path", BUILT, ids=[path.stem for path in BUILT])
def test_broken_data_stops_the_build_with_one_message(
    broken_builds: dict[str, tuple[int, str, str]], path: Path, tmp_path: Path
) -> None:
    """Exit 1; MkDocs's first line is the error with the loader's message, the only error
    or warning; no traceback; no site written."""
    status, output, message = broken_builds[path.stem]
    lines = [line for line in output.splitlines() if line.strip()]
    flagged = [line for line in lines if line.startswith(("ERROR", "WARNING"))]
    assert {
        "status": 1,
        "first line": True,
        "errors and warnings": 1,
        "traceback": False,
        "site written": False,
    } == {
        "status": status,
        "first line": bool(lines)
        and lines[0].startswith("ERROR")
        and lines[0].endswith(f"LVL Rules data: {message}"),
        "errors and warnings": len(flagged),
        "traceback": "Traceback" in output,
        "site written": (tmp_path.parent / path.stem / "site" / "index.html").exists(),
    }, output


def test_no_page_shows_a_marker(built_site) -> None:
    """In the real build, no page (nor the search index) shows a reference or marker as
    literal text: each was written out."""
    shown = []
    files = [*built_site.site.rglob("*.html"), *built_site.site.rglob("search_index.json")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for opening in ("{§", "{table:", "{points:", "{toc:"):
            if opening in text:
                shown.append(f"{path.relative_to(built_site.site)}: {opening}")
    assert [] == shown
