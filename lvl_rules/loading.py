"""Read the editions shipped in the package (or a folder given by a test) into models."""

from __future__ import annotations

import functools
import tomllib
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from .amendments import Origins, apply_amendment, check_amendment_target
from .errors import RulesError, allowed
from .model import Change, Edition
from .model.checks import check_edition
from .tables import Table

LATEST = "latest"
AMENDMENT_FILE = "amendment.toml"


def _default_root() -> Traversable:
    return files("lvl_rules").joinpath("editions")


def edition_ids(root: Traversable | None = None) -> tuple[str, ...]:
    """The IDs of every edition, oldest first."""
    root = root or _default_root()
    ids = [entry.name for entry in root.iterdir() if entry.is_dir() and entry.name.isdigit()]
    return tuple(sorted(ids, key=int))


def resolve_edition(edition: str | int, root: Traversable | None = None) -> str:
    """Turn ``"latest"``, ``2`` or ``"2"`` into an edition ID, or raise RulesError."""
    known = edition_ids(root)
    wanted = str(edition).strip()
    if wanted == LATEST:
        return known[-1]
    if wanted not in known:
        raise RulesError(
            f"edition {wanted!r} does not exist; allowed: {allowed((*known, LATEST))}",
            field="edition",
        )
    return wanted


def load_edition(edition: str | int = LATEST, root: Traversable | None = None) -> Edition:
    """The complete edition (amendments merged), built once and then cached."""
    return _load(resolve_edition(edition, root), root)


def clear_cache() -> None:
    """Forget loaded editions, so edited data files are read again (the site's live reload)."""
    _load.cache_clear()
    _edition_data.cache_clear()


def load_all(root: Traversable | None = None) -> tuple[Edition, ...]:
    """Every edition, oldest first."""
    return tuple(load_edition(edition, root) for edition in edition_ids(root))


@functools.cache
def _load(edition_id: str, root: Traversable | None) -> Edition:
    data, origins, changes = _edition_data(edition_id, root or _default_root())
    edition = Edition.from_data(data, origins, changes=changes)
    check_edition(edition, origins)
    if edition.id != edition_id:
        raise RulesError(
            f"{origins.get(('edition', None))}: key 'edition.id' is '{edition.id}' but the "
            f"folder is editions/{edition_id}",
            field="edition.id",
        )
    return edition


@functools.cache
def _edition_data(
    edition_id: str, root: Traversable
) -> tuple[dict[str, Any], Origins, tuple[Change, ...]]:
    folder = root.joinpath(edition_id)
    amendment = folder.joinpath(AMENDMENT_FILE)
    if amendment.is_file():
        table = _read(amendment, f"editions/{edition_id}/{AMENDMENT_FILE}")
        earlier = tuple(e for e in edition_ids(root) if int(e) < int(edition_id))
        base_id = check_amendment_target(table, earlier)
        base, base_origins, _ = _edition_data(base_id, root)
        return apply_amendment(base, base_origins, table)
    data: dict[str, Any] = {}
    origins: Origins = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        label = f"editions/{edition_id}/{entry.name}"
        for name, value in _read(entry, label).raw().items():
            if name in data:
                raise RulesError(f"{label}: table '{name}' is also in {origins[(name, None)]}")
            data[name] = value
            origins[(name, None)] = label
            if isinstance(value, dict):
                for key in value:
                    origins[(name, key)] = label
    return data, origins, ()


def _read(entry: Traversable, label: str) -> Table:
    try:
        parsed = tomllib.loads(entry.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{label}: not valid TOML: {error}", field=label) from None
    return Table(parsed, file=label, path="")
