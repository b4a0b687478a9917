"""Our stylesheets as one file: docs/assets/*.css (mkdocs.yml's extra_css, kept as the
readable sources, one per subject) are published as one ``assets/lvl.<hash>.css``.

Every page loads all of them, and on a phone's network each file is one more request in
the queue before the page can paint: on 4G (60 ms a request) the five took two rounds of
the six connections a browser opens to a host (build_scripts/pages/preloads.py gives the
measured gain of both). A rule page's first visit: 186,474 -> 179,815 bytes. The name
carries the content's hash, so the file may be cached for good.
"""

from __future__ import annotations

import hashlib
from typing import Any

from mkdocs.structure.files import File, Files


def combine(files: Files, config: Any) -> None:
    """Replace extra_css's files with the one file of their contents, in their order."""
    sources = [str(path) for path in config["extra_css"]]
    parts = []
    for path in sources:
        source = files.get_file_from_path(path)
        if source is None:
            raise SystemExit(f"LVL Rules: extra_css names {path}, which is not in docs/")
        parts.append(f"/* {path} */\n{source.content_string.strip()}\n")
        files.remove(source)
    text = "\n".join(parts)
    name = f"assets/lvl.{hashlib.sha256(text.encode()).hexdigest()[:10]}.css"
    files.append(File.generated(config, name, content=text))
    config["extra_css"] = [name]
