"""Every sentence a person reads is written in lvl_rules/words/, and the build puts it into
the page: the site's scripts hold none, they only fill numbers and names into the page's
patterns. A string literal that reads like a sentence (a capitalised word followed by two
more, or a capitalised phrase ending in a full stop) is one a script would show; the
console's messages, for developers, are left out."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [
    *sorted((ROOT / "docs" / "assets").rglob("*.js")),
    ROOT / "build_scripts" / "publish" / "sw.js",
]

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
SENTENCE = re.compile(r"\b[A-Z][a-z]+(?: [a-z]+){2,}|^.[A-Z][a-z]+ [^.]*\.\W?$")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//.*|\s//\s.*$")


def sentences(script: Path) -> list[str]:
    """The string literals of a script that read like a sentence, with their line."""
    found = []
    text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), script.read_text("utf-8"))
    for number, line in enumerate(text.splitlines(), 1):
        code = LINE_COMMENT.sub("", line)
        if "console." in code:
            continue
        found += [f"{number}: {lit}" for lit in LITERAL.findall(code) if SENTENCE.search(lit)]
    return found


def test_the_site_scripts_hold_no_sentence():
    """No script of the site (pages, engine, service worker) writes a sentence itself."""
    found = {str(script.relative_to(ROOT)): sentences(script) for script in SCRIPTS}
    assert {} == {name: lines for name, lines in found.items() if lines}


def test_the_check_finds_a_sentence(tmp_path):
    """The check itself: a message typed into a script is found."""
    sample = tmp_path / "sample.js"
    sample.write_text('text.textContent = "The engine is ready.";\nconst x = "ready";\n', "utf-8")
    assert ['1: "The engine is ready."'] == sentences(sample)
