"""Typed reading of TOML tables into the model, with errors that name file and key."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from .errors import RulesError, allowed

_MISSING: Any = object()


class Table:
    """One TOML table being read; every error names its file and key path.

    Read each key with a typed getter, then call :meth:`finish` to reject keys
    nobody read (a typo in the data must not be silently ignored).
    """

    def __init__(self, data: Any, *, file: str, path: str) -> None:
        if not isinstance(data, dict):
            raise RulesError(
                f"{file}: [{path}] must be a table, not {_kind(data)}", field=f"{file}: {path}"
            )
        self._data: dict[str, Any] = data
        self._read: set[str] = set()
        self.file = file
        self.path = path

    def fail(self, key: str, problem: str) -> RulesError:
        """An error about ``key`` of this table."""
        where = ".".join(part for part in (self.path, key) if part)
        return RulesError(f"{self.file}: key '{where}' {problem}", field=f"{self.file}: {where}")

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
        if default is _MISSING:
            raise self.fail(key, "is missing")
        return default

    def text(self, key: str, default: Any = _MISSING, *, choices: tuple[str, ...] = ()) -> Any:
        """A non-empty string, optionally one of ``choices``."""
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, f"must be non-empty text, not {_kind(value)}")
        if choices and value not in choices:
            raise self.fail(key, f"is '{value}'; allowed: {allowed(choices)}")
        return value

    def integer(self, key: str, default: Any = _MISSING, *, minimum: int = 0) -> Any:
        """A whole number no smaller than ``minimum``."""
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_kind(value)}")
        if value < minimum:
            raise self.fail(key, f"is {value}; it must be at least {minimum}")
        return value

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        """true or false."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_kind(value)}")
        return value

    def texts(self, key: str, default: Any = _MISSING) -> tuple[str, ...]:
        """An array of non-empty strings (whole numbers are read as their text)."""
        value = self._get(key, default)
        if not isinstance(value, list | tuple):
            raise self.fail(key, f"must be an array, not {_kind(value)}")
        out = []
        for item in value:
            if isinstance(item, int) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str) or not item.strip():
                raise self.fail(key, f"must hold only non-empty text, not {_kind(item)}")
            out.append(item)
        if len(set(out)) != len(out):
            raise self.fail(key, "lists the same value twice")
        return tuple(out)

    def table(self, key: str, default: Any = _MISSING) -> Table:
        """A sub-table."""
        value = self._get(key, default)
        return Table(value, file=self.file, path=self._sub(key))

    def keyed(self, key: str, default: Any = _MISSING) -> Iterator[tuple[str, Table]]:
        """A table of tables, in file order: ``[key.<id>]``."""
        outer = self.table(key, default)
        for item_id in outer.names():
            yield item_id, outer.table(item_id)

    def array(self, key: str, default: Any = _MISSING) -> Iterator[Table]:
        """An array of tables: ``[[key]]``."""
        value = self._get(key, default)
        if not isinstance(value, list):
            raise self.fail(key, f"must be an array of tables, not {_kind(value)}")
        for index, item in enumerate(value):
            yield Table(item, file=self.file, path=f"{self._sub(key)}[{index}]")

    def finish(self) -> None:
        """Reject keys that no getter read."""
        unknown = sorted(set(self._data) - self._read)
        if unknown:
            raise self.fail(
                unknown[0], f"is not a known key; allowed: {allowed(sorted(self._read))}"
            )

    def _sub(self, key: str) -> str:
        shown = f'"{key}"' if "." in key else key
        return f"{self.path}.{shown}" if self.path else shown


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"{value!r} ({type(value).__name__})"
