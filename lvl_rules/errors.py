"""The one error type lvl_rules raises, for bad input and for bad rule data alike."""

from __future__ import annotations

from collections.abc import Iterable


class RulesError(ValueError):
    """Something given to lvl_rules was wrong.

    The message says what was wrong and what is allowed. ``field`` names the input
    field or data key at fault when there is one (``"age"``, ``"events[3].foul"``,
    ``"editions/1/scoring.toml: positions.mount.points"``).
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def allowed(values: Iterable[object]) -> str:
    """Format the allowed values of a field for an error message."""
    shown = [str(value) for value in values]
    return ", ".join(shown) if shown else "(none)"
