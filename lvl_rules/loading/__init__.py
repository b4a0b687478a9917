"""Load, amend and check the editions: the only room that reads the package's data files."""

from .editions import clear_cache, default_root, edition_ids, load_all, load_edition
from .inputs import read_input

__all__ = [
    "clear_cache",
    "default_root",
    "edition_ids",
    "load_all",
    "load_edition",
    "read_input",
]
