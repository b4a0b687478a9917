"""Read the editions shipped in the package (or a folder given by a test) into models.

The only place that reads the package's data files. Editions are loaded by their exact
ID; "latest" and numbers are resolved by the faces (:mod:`lvl_rules.faces.library`).
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from ..errors import RulesError
from ..model import COLLECTIONS, SETTINGS, Change, Edition
from ..model.edition import OPTIONAL
from ..model.reader import Table
from .amendments import Origins, apply_amendment, check_amendment_target
from .checks import check_edition

AMENDMENT_FILE = "amendment.toml"


# A folder of more editions, beside those shipped (the tests' fixture editions, which are
# never published): its editions join the package's, and may amend them.
MORE_EDITIONS = "LVL_RULES_MORE_EDITIONS"


def default_root() -> Traversable:
    """The editions folder shipped in the package, joined by the folder that
    ``LVL_RULES_MORE_EDITIONS`` names, if it is set."""
    shipped = files("lvl_rules").joinpath("editions")
    more = os.environ.get(MORE_EDITIONS)
    return cast(Traversable, _Folders((shipped, Path(more)))) if more else shipped


@dataclass(frozen=True, slots=True)
class _Folders:
    """Several editions folders read as one (what the loader asks of a folder)."""

    folders: tuple[Traversable, ...]
    name: str = "editions"

    def iterdir(self) -> Iterator[Traversable]:
        for folder in self.folders:
            yield from folder.iterdir()

    def joinpath(self, name: str) -> Traversable:
        found = [folder.joinpath(name) for folder in self.folders]
        return next((entry for entry in found if entry.is_dir()), found[0])


def edition_ids(root: Traversable | None = None) -> tuple[str, ...]:
    """The IDs of every edition, oldest first."""
    root = root or default_root()
    ids = [entry.name for entry in root.iterdir() if entry.is_dir() and entry.name.isdigit()]
    return tuple(sorted(ids, key=int))


def edition_meta(edition_id: str, root: Traversable | None = None) -> dict[str, str | None]:
    """What an edition's own data says of its place on the timeline: its status, the date
    it came into force (if given) and the edition it amends (None for a full rulebook)."""
    about = _edition_data(edition_id, root or default_root())[0]["edition"]
    return {
        "id": edition_id,
        "status": about.get("status"),
        "amends": about.get("based_on"),
        "in_force_from": about.get("in_force_from"),
    }


def load_edition(edition_id: str, root: Traversable | None = None) -> Edition:
    """The complete edition with this exact ID (amendments merged), built once and cached."""
    return _load(edition_id, root)


def load_all(root: Traversable | None = None) -> tuple[Edition, ...]:
    """Every edition, oldest first."""
    return tuple(load_edition(edition, root) for edition in edition_ids(root))


def clear_cache() -> None:
    """Forget loaded editions, so edited data files are read again (the site's live reload)."""
    _load.cache_clear()
    _edition_data.cache_clear()


@functools.cache
def _load(edition_id: str, root: Traversable | None) -> Edition:
    data, origins, changes = _edition_data(edition_id, root or default_root())
    edition = Edition.from_data(data, origins, changes=changes)
    check_edition(edition, origins)
    if edition.id != edition_id:
        raise RulesError(
            "folder-mismatch", field="edition.id", file=origins.get(("edition", None)),
            id=edition.id, folder=edition_id,
        )  # fmt: skip
    return edition


@functools.cache
def _edition_data(
    edition_id: str, root: Traversable
) -> tuple[dict[str, Any], Origins, tuple[Change, ...]]:
    folder = root.joinpath(edition_id)
    amendment = folder.joinpath(AMENDMENT_FILE)
    if amendment.is_file():
        table = read_toml(amendment, f"editions/{edition_id}/{AMENDMENT_FILE}")
        earlier = tuple(e for e in edition_ids(root) if int(e) < int(edition_id))
        base_id = check_amendment_target(table, earlier)
        base, base_origins, _ = _edition_data(base_id, root)
        data, origins, changes = apply_amendment(base, base_origins, table)
        return _own_place(data, table, base_id), origins, changes
    data: dict[str, Any] = {}
    origins: Origins = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        label = f"editions/{edition_id}/{entry.name}"
        for name, value in read_toml(entry, label).raw().items():
            if name in data:
                raise RulesError("table-twice", file=label, table=name, other=origins[(name, None)])
            data[name] = value
            origins[(name, None)] = label
            if isinstance(value, dict):
                for key in value:
                    origins[(name, key)] = label
    for name in (*SETTINGS, *COLLECTIONS):
        if name not in data and name not in OPTIONAL:
            raise RulesError(
                "tables-missing", field=name, folder=f"editions/{edition_id}", table=name
            )
    return data, origins, ()


# What an amended edition never takes from the edition it amends: where it stands.
_OWN = ("status", "in_force_from")


def _own_place(data: dict[str, Any], amendment: Table, base_id: str) -> dict[str, Any]:
    """The amended data with the edition's own place on the timeline: the edition it
    amends (``amends``), and its status and date as the amendment itself gives them (a
    status it does not give is an error, not the amended edition's)."""
    own = amendment.raw().get("change", {}).get("edition", {})
    about = data["edition"]
    for key in _OWN:
        if key in own:
            about[key] = own[key]
        else:
            about.pop(key, None)
    if "status" not in own:
        raise RulesError("status-missing", field="edition.status", file=amendment.file)
    about["based_on"] = base_id
    return data


def read_toml(entry: Traversable, label: str) -> Table:
    """A data file of the package as a Table, its errors naming ``label``."""
    raw = entry.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesError(
            "not-utf8", field=label, file=label, position=error.start,
            line=raw.count(b"\n", 0, error.start) + 1,
        ) from None  # fmt: skip
    try:
        parsed = tomllib.loads(text)
    except ValueError as error:  # TOMLDecodeError, or an integer too long to read
        raise RulesError("not-toml", field=label, file=label, reason=str(error)) from None
    except RecursionError:
        raise RulesError("toml-too-deep", field=label, file=label) from None
    return Table(parsed, file=label, path="")
