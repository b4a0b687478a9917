"""Check every internal link and anchor of a built site.

Usage: ``python -m build_scripts.tools.check_links site``.

Follows <a href>, <link href>, <script src>, <img src> and meta-refresh targets that
stay on the site; each must reach a file, and a #fragment must be an id on that page.
Exit status 1 and one line per problem when anything is broken.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

BASE = "http://site.invalid/"
ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name"):
            if values.get(key) and (key == "id" or tag == "a"):
                self.ids.add(values[key] or "")
        wanted = ATTRIBUTES.get(tag)
        if wanted and values.get(wanted):
            self.targets.append(values[wanted] or "")
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            content = values.get("content") or ""
            if "url=" in content:
                self.targets.append(content.split("url=", 1)[1].strip())


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _resolve(site: Path, url_path: str) -> Path | None:
    candidate = site / unquote(url_path).lstrip("/")
    if url_path.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def check_site(site: Path) -> list[str]:
    """Every broken internal link or anchor, as ``page: target (problem)`` lines."""
    pages = {p: _parse(p) for p in sorted(site.rglob("*.html"))}
    problems = []
    for path, page in pages.items():
        here = BASE + path.relative_to(site).as_posix()
        for target in page.targets:
            absolute = urljoin(here, target)
            if not absolute.startswith(BASE):
                continue  # another site: a link for the reader, never a request the page makes
            url, fragment = urldefrag(absolute)
            found = _resolve(site, urlsplit(url).path)
            where = f"{path.relative_to(site)}: {target}"
            if found is None:
                problems.append(f"{where} (no such file)")
            elif fragment and found.suffix == ".html":
                ids = pages[found].ids if found in pages else _parse(found).ids
                if unquote(fragment) not in ids:
                    problems.append(f"{where} (no id '{unquote(fragment)}' on that page)")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the site folder named on the command line."""
    args = sys.argv[1:] if argv is None else argv
    site = Path(args[0] if args else "site")
    problems = check_site(site)
    for line in problems:
        print(line)
    print(f"{len(problems)} broken internal links or anchors in {site}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
