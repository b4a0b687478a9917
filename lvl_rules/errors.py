"""The one error type lvl_rules raises, for bad input and for bad rule data alike.

An error is raised as a problem code with its details, never as a sentence: the words
are made by :mod:`lvl_rules.words.errors`, the one place where a message is phrased.
"""

from __future__ import annotations

from typing import Any

from .words.errors import message


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
        return message(self.problem, {**self.details, "field": self.field})


def data_error(file: str, where: str, problem: str, /, **details: Any) -> RulesError:
    """An error about key ``where`` of the data file ``file`` (a path such as
    ``positions.mount.points``); its field is ``"<file>: <where>"``."""
    return RulesError(
        "data-key", field=f"{file}: {where}", file=file, where=where, problem=problem, **details
    )
