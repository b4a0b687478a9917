"""What the pages and the engine worker are told about a build's engine: the manifest's
element in the pages that start the engine (and the engine client's words beside it), and
the wheel's entry in its lock file.

The manifest itself is written by :func:`build_scripts.bundle.engine.build_bundle`.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

# The ids engine-client.js looks for.
MANIFEST_ELEMENT_ID = "lvl-engine-manifest"
WORDS_ELEMENT_ID = "lvl-engine-words"


def manifest_element(manifest: dict[str, object]) -> str:
    """The manifest as the JSON ``<script>`` element engine-client.js looks for.

    The pages that start the engine carry it (overrides/main.html, just before the
    client's script tag): the client sends it with the worker's start message at once,
    instead of after fetching manifest.json (which it still does where a page has none).
    Pages and engine files come from one build and are revalidated (or cached offline)
    together. Every "<" is escaped, so no text in it can end the element.
    """
    return json_element(MANIFEST_ELEMENT_ID, manifest)


def words_element(words: dict[str, str]) -> str:
    """The engine client's words (lvl_rules.words.engine.ERRORS), as the JSON ``<script>``
    element it reads its error messages from; beside the manifest, in the same pages."""
    return json_element(WORDS_ELEMENT_ID, words)


def json_element(element_id: str, data: object) -> str:
    """``data`` as a JSON ``<script>`` element; every "<" is escaped, so no text in it can
    end the element."""
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{payload}</script>'


def lock_entry(wheel: Path, file_name: str, sha256: str) -> dict[str, Any]:
    """The lock file entry of our pure-Python wheel, as ``pyodide lockfile add-wheels``
    writes it (pyodide-lock 0.2.1); ``file_name`` is relative to the engine folder, the
    ``packageBaseUrl`` the worker gives Pyodide."""
    with zipfile.ZipFile(wheel) as archive:
        metadata_name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(metadata_name).decode()
        tops = sorted({n.split("/")[0] for n in archive.namelist() if ".dist-info/" not in n})
    fields = dict(
        line.split(": ", 1) for line in metadata.split("\n\n")[0].splitlines() if ": " in line
    )
    return {
        "depends": [],
        "file_name": file_name,
        "imports": tops,
        "install_dir": "site",
        "name": fields["Name"],
        "package_type": "package",
        "sha256": sha256,
        "tool": {},
        "unvendored_tests": False,
        "version": fields["Version"],
    }
