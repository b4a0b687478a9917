"""Load, amend and check the editions: the only room that reads the package's data files."""

from . import editions, glossary
from .editions import default_root, edition_ids, load_all, load_edition
from .inputs import read_input
from .timeline import Entry, Timeline, timeline


def clear_cache() -> None:
    """Forget loaded editions, the glossary and the timeline, so edited data files are
    read again (the site's live reload)."""
    editions.clear_cache()
    glossary.load_glossary.cache_clear()
    timeline.cache_clear()


__all__ = [
    "Entry",
    "Timeline",
    "clear_cache",
    "default_root",
    "edition_ids",
    "load_all",
    "load_edition",
    "read_input",
    "timeline",
]
