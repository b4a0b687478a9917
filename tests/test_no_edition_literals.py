"""No edition ID or list of editions is written in code or tests: they ask the timeline
(``lvl_rules.timeline``). The data (``lvl_rules/editions/``), the cases written per
edition (``tests/cases/<edition>/``), the goldens and the fixture editions are data; an
example in a comment, or in a docstring between double backquotes, is no decision."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from timeline_names import EDITIONS

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = {
    "lvl_rules": ("*.py",),
    "build_scripts": ("*.py", "*.js", "*.mjs", "*.j2"),
    "docs/assets": ("*.js",),
    "overrides": ("*.html",),
    "tests": ("*.py", "*.mjs", "*.js"),
}
SKIPPED = (
    "docs/assets/vendor/", "tests/golden/", "tests/fixture_editions/",
    "tests/test_no_edition_literals.py",  # its examples of what it finds
)  # fmt: skip
COMMENT = ("#", "//", "*", "/*", '"""')  # a docstring's first line is prose too
EXAMPLE = re.compile(r"``.*?``")
ID = r"\d+"
# Where an edition ID is written as one: loaded, passed, compared, in an address.
PATTERNS = {
    "loaded": rf"load_edition\(\s*[\"']?{ID}[\"']?\s*[,)]",
    "passed": rf"\bedition[\"']?\s*[=:]\s*[\"']{ID}[\"']",
    "passed as a number": rf"\bedition\s*=\s*{ID}\b",
    "an option": rf"[\"']--edition[\"']\s*,\s*[\"']{ID}[\"']",
    "compared": rf"edition\w*(\.id)?\s*[!=]==?\s*[\"']{ID}[\"']",
    "an address": rf"\b(rules|cite|data)/{ID}(/|\.json)|[?&]edition={ID}\b",
    "an ID": rf"[\"']id[\"']\s*:\s*[\"']{ID}[\"']",
}
EVERY = r"\s*,\s*".join(f"[\"']{re.escape(e)}[\"']" for e in EDITIONS)
PATTERNS["a list of the editions"] = rf"[\[({{]\s*{EVERY}\s*,?\s*[\])}}]"
FOUND = re.compile("|".join(f"(?:{p})" for p in PATTERNS.values()))
# In a test, a title written into the words it expects ("Edition 2, in force") decides
# which edition too: it asks timeline_names.TITLE. (In code, such words are prose.)
IN_WORDS = re.compile(rf"[\"'][^\"']*\bEditions? {ID}\b[^\"']*[\"']")


def _files() -> list[Path]:
    found = []
    for folder, globs in SEARCHED.items():
        for glob in globs:
            found += (ROOT / folder).rglob(glob)
    return sorted(
        path for path in set(found)
        if not any(path.relative_to(ROOT).as_posix().startswith(s) for s in SKIPPED)
    )  # fmt: skip


def literals(path: Path) -> list[str]:
    """Each line of a file that writes an edition ID or the list of editions."""
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if not line.strip().startswith(COMMENT)
        and any(p.search(EXAMPLE.sub("", line)) for p in _patterns(path))
    ]


def _patterns(path: Path) -> tuple[re.Pattern[str], ...]:
    in_tests = path.relative_to(ROOT).parts[0] == "tests"
    return (FOUND, IN_WORDS) if in_tests else (FOUND,)


@pytest.mark.host
def test_no_edition_id_is_written_in_code_or_tests() -> None:
    """No literal edition ID or list of editions outside the data and the fixtures."""
    found = [line for path in _files() for line in literals(path)]
    assert [] == found, f"{len(found)} lines:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        'load_edition("7")',
        "division(edition=7, age=30)",
        '{"edition": "7", "age": 30}',
        '["eligibility", "--edition", "7"]',
        'if edition.id == "7":',
        'page.goto(f"{url}/rules/7/techniques/")',
        '"/lookup/?edition=7&age=30"',
        f"for edition in ({', '.join(repr(e) for e in EDITIONS)}):",
    ],
)
def test_the_search_finds_each_way_of_writing_one(line: str) -> None:
    """The search finds an edition ID loaded, passed, compared, in an address, listed."""
    assert FOUND.search(line)


@pytest.mark.parametrize(
    "line", ['assert "§7 Fouls · Edition 2, in force" == title', 'f"Editions 1 and 2"']
)
def test_the_search_finds_a_title_a_test_expects(line: str) -> None:
    """In a test, an edition's title written into the words it expects is found too."""
    assert IN_WORDS.search(line)
