"""The last step of a build: the files a host serves beside the pages.

:func:`write_host_files` runs once every page, the engine and the PDFs are written
(``build_scripts.build_site``), and in this order:

1. a precompressed ``.gz`` beside each sizeable text file (:mod:`.precompress`);
2. ``sw.js``, the service worker that keeps the whole site for offline use
   (:mod:`.service_worker`); it lists every file, so it comes after all of them;
3. ``_headers`` for a static host (:mod:`.headers`).

Manual run (the tests do this after changing a built site):
``python -m build_scripts.publish.host_files SITE_DIR``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from build_scripts.publish.headers import write_host_headers
from build_scripts.publish.precompress import precompress
from build_scripts.publish.service_worker import build_version, write_service_worker


def write_host_files(site_dir: Path) -> dict[str, object]:
    """Precompressed copies, ``sw.js`` and ``_headers``; return a summary."""
    site_dir = Path(site_dir)
    compressed = precompress(site_dir)
    files = write_service_worker(site_dir)
    write_host_headers(site_dir)
    summary: dict[str, object] = {"version": build_version(files), "compressed": compressed}
    for group in ("shell", "engine"):
        sizes = [size for _, size, kind in files.values() if kind == group]
        summary[f"{group}_files"], summary[f"{group}_bytes"] = len(sizes), sum(sizes)
    return summary


def main(argv: list[str] | None = None) -> int:
    """Run the step on a built site directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", type=Path)
    args = parser.parse_args(argv)
    print(json.dumps(write_host_files(args.site_dir), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
