"""The offline use of a served build, as the browser tests look at it (shared by
test_offline.py and test_offline_deploys.py): the service worker's file list, what its
cache holds, what the page says, and the console errors of a browser context."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lvl_rules.faces.site import offline_words

ENGINE_MS = 60_000  # a cold engine start on a loaded 2-core CI machine
KEPT_MS = 60_000
READY = "[data-lvl-offline-ready]"
SAID = "[data-lvl-offline-said]"
UPDATE = "[data-lvl-offline-update]"


def build_of(site: Path) -> dict:
    """The BUILD object build_scripts/publish/service_worker.py wrote into sw.js."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const BUILD = (\{.*?\});\n", text).group(1))


class Errors:
    """Console errors of a browser context (URLs a test asks for knowing they are missing
    are left out)."""

    def __init__(self, context) -> None:
        self.errors: list[str] = []
        self.missing: set[str] = set()
        context.on("console", self._console)
        context.on("weberror", lambda e: self.errors.append(str(e.error)))

    def _console(self, message) -> None:
        if message.type == "error" and message.location.get("url") not in self.missing:
            self.errors.append(f"{message.text} {message.location.get('url')}")


def wait_kept(page, state: str = "page") -> None:
    """Until the service worker says this page (or everything) is kept."""
    page.wait_for_selector(f"[data-lvl-offline~='{state}']", state="attached", timeout=KEPT_MS)


def said(name: str) -> re.Pattern[str]:
    """The sentence ``name`` of lvl_rules/words/offline.py, any megabytes filled in."""
    pattern = re.escape(offline_words.KEPT[name])
    return re.compile(re.sub(r"\\\{\w+\\\}", r"\\d+\\.\\d", pattern))


def kept_urls(page, url: str) -> list[str]:
    """What this build's cache holds, as URLs relative to the site (like sw.js's list)."""
    held = page.evaluate(
        """async () => {
          const name = (await caches.keys()).find((each) => each.startsWith("lvl-rules-"));
          return (await (await caches.open(name)).keys()).map((request) => request.url);
        }"""
    )
    return [each.removeprefix(url) for each in held]
