"""Typed reading of one TOML table, with errors that name the file and the key.

Read each key with a typed getter, then call :meth:`Table.finish` to reject keys nobody
read: a typo in the data must not be silently ignored.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from ..errors import RulesError, data_error
from . import markup as syntax

MISSING: Any = object()


class Table:
    """One TOML table being read; every error names its file and key path."""

    def __init__(self, data: Any, *, file: str, path: str) -> None:
        if not isinstance(data, dict):
            raise RulesError(
                "not-a-table", field=f"{file}: {path}", file=file, where=path, value=data
            )
        self._data: dict[str, Any] = data
        self._read: set[str] = set()
        self.file = file
        self.path = path

    def fail(self, key: str, problem: str, /, **details: Any) -> RulesError:
        """An error about ``key`` of this table (``problem`` is a data-problem code)."""
        where = ".".join(part for part in (self.path, key) if part)
        return data_error(self.file, where, problem, **details)

    def names(self) -> tuple[str, ...]:
        """The table's keys, in file order."""
        return tuple(self._data)

    def raw(self, *, without: tuple[str, ...] = ()) -> dict[str, Any]:
        """A copy of the table's plain data minus ``without``; marks every key as read."""
        self._read.update(self._data)
        return {k: copy.deepcopy(v) for k, v in self._data.items() if k not in without}

    def has(self, key: str) -> bool:
        """Whether the table holds ``key``."""
        return key in self._data

    def _get(self, key: str, default: Any) -> Any:
        self._read.add(key)
        if key in self._data:
            return self._data[key]
        if default is MISSING:
            raise self.fail(key, "missing")
        return default

    def text(
        self, key: str, default: Any = MISSING, *, choices: tuple[str, ...] = (),
        markup: bool = False,
    ) -> Any:  # fmt: skip
        """A non-empty string, optionally one of ``choices``; Markdown without HTML, with
        references and markers only if ``markup`` (:mod:`.markup`)."""
        value = self._get(key, default)
        if value is default and default is not MISSING:
            return value
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, "not-text", value=value)
        if choices and value not in choices:
            raise self.fail(key, "not-one-of", value=value, choices=choices)
        wrong = syntax.problem(value, markup=markup)
        if wrong is not None:
            raise self.fail(key, wrong[0], value=wrong[1])
        return value

    def integer(self, key: str, default: Any = MISSING, *, minimum: int = 0) -> Any:
        """A whole number no smaller than ``minimum``."""
        value = self._get(key, default)
        if value is default and default is not MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, "not-whole", value=value)
        if value < minimum:
            raise self.fail(key, "too-small", value=value, minimum=minimum)
        return value

    def boolean(self, key: str, default: Any = MISSING) -> Any:
        """true or false."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, "not-flag", value=value)
        return value

    def texts(self, key: str, default: Any = MISSING) -> tuple[str, ...]:
        """An array of non-empty strings (whole numbers are read as their text)."""
        value = self._get(key, default)
        if not isinstance(value, list | tuple):
            raise self.fail(key, "not-array", value=value)
        out = []
        for item in value:
            if isinstance(item, int) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str) or not item.strip():
                raise self.fail(key, "not-texts", value=item)
            out.append(item)
        if len(set(out)) != len(out):
            raise self.fail(key, "repeated-value")
        return tuple(out)

    def table(self, key: str, default: Any = MISSING) -> Table:
        """A sub-table."""
        value = self._get(key, default)
        return Table(value, file=self.file, path=self._sub(key))

    def keyed(self, key: str, default: Any = MISSING) -> Iterator[tuple[str, Table]]:
        """A table of tables, in file order: ``[key.<id>]``."""
        outer = self.table(key, default)
        for item_id in outer.names():
            yield item_id, outer.table(item_id)

    def array(self, key: str, default: Any = MISSING) -> Iterator[Table]:
        """An array of tables: ``[[key]]``."""
        value = self._get(key, default)
        if not isinstance(value, list):
            raise self.fail(key, "not-tables", value=value)
        for index, item in enumerate(value):
            yield Table(item, file=self.file, path=f"{self._sub(key)}[{index}]")

    def finish(self) -> None:
        """Reject keys that no getter read."""
        unknown = sorted(set(self._data) - self._read)
        if unknown:
            raise self.fail(unknown[0], "unknown-key", known=sorted(self._read))

    def _sub(self, key: str) -> str:
        shown = f'"{key}"' if "." in key else key
        return f"{self.path}.{shown}" if self.path else shown
