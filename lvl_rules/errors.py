"""The one error type lvl_rules raises, for bad input and for bad rule data alike.

An error is raised as a problem code with its details, never as a sentence. This module
sits under every room (the model, loading and the engines raise errors too), so it imports
none of them, the words included: the sentence ``str(error)`` gives is made by
:func:`lvl_rules.words.errors.message`, which :mod:`lvl_rules.faces` hands to
:func:`phrase_with` when the package is imported (Python imports ``lvl_rules``, and with it
the faces, before any module of it, so every error anyone holds speaks those words).

Besides the type, the locators an error names: a data file (:data:`UNKNOWN_FILE`,
:func:`amended`), a key in it (:func:`data_error`), and a failed read's own reason
(:func:`reason_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Phrase = Callable[[str, Mapping[str, Any]], str]  # (problem code, details) -> the sentence

UNKNOWN_FILE = "edition data"  # where a record came from, when no file is known


def _unphrased(problem: str, details: Mapping[str, Any]) -> str:
    """Before the words are given (never, once ``lvl_rules`` is imported): the code and
    its details."""
    return f"{problem}: {dict(details)!r}"


_phrase: Phrase = _unphrased


def phrase_with(phrase: Phrase) -> None:
    """Give :class:`RulesError` the function that makes its sentence (done once, by
    :mod:`lvl_rules.faces`, with :func:`lvl_rules.words.errors.message`)."""
    global _phrase  # set once, as the package is imported
    _phrase = phrase


class RulesError(ValueError):
    """Something given to lvl_rules was wrong.

    ``problem`` is a code such as ``"age-out-of-range"``; ``details`` are what the message
    needs (the value given, what is allowed). ``field`` names the input field or data key
    at fault when there is one (``"age"``, ``"events[3].foul"``,
    ``"editions/1/scoring.toml: positions.mount.points"``). ``str(error)`` is the message.
    """

    def __init__(self, problem: str, /, *, field: str | None = None, **details: Any) -> None:
        super().__init__(problem)
        self.problem = problem
        self.field = field
        self.details = details

    def __str__(self) -> str:
        return _phrase(self.problem, {**self.details, "field": self.field})


def data_error(file: str, where: str, problem: str, /, **details: Any) -> RulesError:
    """An error about key ``where`` of the data file ``file`` (a path such as
    ``positions.mount.points``); its field is ``"<file>: <where>"``."""
    return RulesError(
        "data-key", field=f"{file}: {where}", file=file, where=where, problem=problem, **details
    )


def amended(previous: str | None, file: str) -> str:
    """Where an amended record comes from: ``editions/1/x.toml as amended by editions/2/y``."""
    return f"{previous} as amended by {file}" if previous else file


def reason_of(error: Exception) -> str:
    """The system's own words for a failed read or write: ``No space left on device``."""
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)
