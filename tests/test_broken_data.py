"""Deliberately broken edition data: the loader rejects it, naming the file and the key.

The cases are ``tests/broken/*.toml`` (their format: ``broken_editions.py``).
``expect`` lists words the error message must contain, ``absent`` words it must not (a
file that is not at fault). ``xfail`` (a reason) marks a known defect of the loader's
messages: a strict xfail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from broken_editions import CASES, apply, editions_copy, read_case
from cli_contract import PREFIX
from timeline_names import EDITIONS, FULL

from lvl_rules import RulesError, load_all, load_edition
from lvl_rules.faces.cli import main
from lvl_rules.loading import clear_cache
from lvl_rules.loading import editions as editions_module


def test_there_are_enough_broken_cases() -> None:
    """The broken-data folder covers many kinds of mistake."""
    assert len(CASES) >= 15


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_an_intact_copy_loads(tmp_path: Path, edition_id: str) -> None:
    """An unchanged copy of the editions loads, so each failure below is the corruption's."""
    edition = load_edition(edition_id, root=editions_copy(tmp_path))
    assert edition_id == edition.id


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_broken_data_is_rejected(
    tmp_path: Path, path: Path, request: pytest.FixtureRequest
) -> None:
    """The loader rejects the corrupted copy with a message naming file, table and key."""
    case = read_case(path)
    if "xfail" in case:
        request.applymarker(pytest.mark.xfail(strict=True, reason=case["xfail"]))
    root = editions_copy(tmp_path)
    apply(case, root)
    with pytest.raises(RulesError) as caught:
        load_edition(case["edition"], root=root)
    message = str(caught.value)
    assert case["expect"] == [word for word in case["expect"] if word in message], message
    assert [] == [word for word in case.get("absent", []) if word in message], message


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_the_cli_says_the_loaders_message_alone(
    tmp_path: Path,
    path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With the broken data in place of the shipped editions, ``lvl-rules editions`` exits
    2 with the loader's message as its one line: first and alone, no traceback."""
    case = read_case(path)
    if "xfail" in case:
        pytest.skip("a known defect of the loader's messages (see the case)")
    root = editions_copy(tmp_path)
    apply(case, root)
    with pytest.raises(RulesError) as caught:
        load_all(root=root)
    monkeypatch.setattr(editions_module, "default_root", lambda: root)
    clear_cache()
    try:
        status = main(["editions"])
    finally:
        monkeypatch.undo()
        clear_cache()
    out, err = capsys.readouterr()
    assert (2, "", f"{PREFIX}{caught.value}\n") == (status, out, err)


# Corruptions too large to write out in a case file: (name, file, text appended, words).
GENERATED = [
    ("toml-integer-too-long", "1/scoring.toml", "\n[extra]\nbig = " + "9" * 5000 + "\n",
     ["editions/1/scoring.toml", "not valid TOML"]),
    ("toml-nested-too-deep", "1/scoring.toml", "\n[extra]\ndeep = " + "[" * 100_000 + "\n",
     ["editions/1/scoring.toml", "not valid TOML", "nested too deeply"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "file", "appended", "words"), GENERATED, ids=[case[0] for case in GENERATED]
)
def test_generated_corruption_is_rejected(
    tmp_path: Path, name: str, file: str, appended: str, words: list[str]
) -> None:
    """A 5,000-digit integer or 100,000 nested arrays in a data file: the loader names the
    file in one line, no ValueError or RecursionError."""
    del name
    root = editions_copy(tmp_path)
    apply({"file": file, "append": appended}, root)
    with pytest.raises(RulesError) as caught:
        load_edition(FULL, root=root)
    message = str(caught.value)
    assert (words, 1) == ([word for word in words if word in message], len(message.splitlines()))
