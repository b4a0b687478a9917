"""Material's search box, as a reader uses it (shared by the browser tests)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# Whether an element is wholly on the screen, below Material's header (where a search
# result or a link lands).
ON_SCREEN = """(element) => {
  const box = element.getBoundingClientRect();
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
  return box.top >= header - 1 && box.bottom <= innerHeight && box.height > 0;
}"""


def top_result_mentions(page: Page, words: str) -> None:
    """Type ``words`` into the search box; the top result mentions them.

    Material searches on every keyup, so results for a partly typed query show first:
    ``expect`` retries until the top result is that of the whole query.
    """
    query = page.locator(".md-search__input")
    query.click()
    query.press_sequentially(words)
    expect(page.locator(".md-search-result__item").first).to_contain_text(words, ignore_case=True)


def search_results(page: Page, words: str):
    """Search ``words`` from the phone's header: the results, once the first is that of
    the whole query (Material searches on every key)."""
    page.locator('label.md-header__button[for="__search"]').tap()
    page.locator(".md-search__input").press_sequentially(words)
    results = page.locator(".md-search-result__item")
    expect(results.first.locator("h1")).to_contain_text(words, ignore_case=True)
    return results
