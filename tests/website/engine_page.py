"""The rules engine of an open page, as the browser tests look at it (shared by them)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

# The page's own engine: the module its engine-client script tag loaded (one instance per
# page), awaited until it is ready.
_READY = """async () => {
  const { engine } = await import(document.querySelector("script[src*=engine-client]").src);
  const { versions, timings } = await engine.ready;
  return { versions, timings, readyAt: engine._startedAt + engine.status.elapsed };
}"""


_ASK = """async (request) => {
  const { engine } = await import(document.querySelector("script[src*=engine-client]").src);
  return engine.request(request);
}"""


def engine_answer(page: Page, request: dict[str, Any]) -> Any:
    """The page's engine's answer (its ``result``) to one JSON API request."""
    return page.evaluate(_ASK, request)


def engine_when_ready(page: Page) -> dict[str, Any]:
    """Wait until the page's engine is ready; return its ``versions`` and ``timings``
    (as the worker reports them) and ``readyAt`` (ms since navigation)."""
    return page.evaluate(_READY)
