"""On a phone the navigation drawer opens onto its links, on every kind of page: the
first one shows at the top of the drawer, and tapping a link lands on its page."""

from __future__ import annotations

import pytest
from timeline_names import IN_FORCE

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PAGES = {"home": "", "rule section": f"rules/{IN_FORCE}/5/", "lookup": "lookup/"}
THEME_READY = "() => document.documentElement.classList.contains('js')"
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"
# The drawer's entries a reader sees, top to bottom: each drawn (not hidden, not
# transparent), inside the drawer and the screen, and what a tap at its middle reaches.
SEEN = """() => {
  const drawer = document.querySelector(".md-sidebar--primary").getBoundingClientRect();
  const seen = [];
  for (const entry of document.querySelectorAll(".md-sidebar--primary .md-nav__link")) {
    if (!entry.matches("a[href], label")) continue;
    const box = entry.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 40), y = box.top + box.height / 2;
    const inside = x > Math.max(0, drawer.left) && x < Math.min(innerWidth, drawer.right)
      && y > 0 && y < innerHeight;
    const drawn = entry.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    if (!inside || !drawn) continue;
    if (!entry.contains(document.elementFromPoint(x, y))) continue;
    seen.push({ text: entry.textContent.trim(), href: entry.href ?? null, x, y, top: box.top });
  }
  return seen.sort((a, b) => a.top - b.top);
}"""
SCROLLED_SIDEWAYS = """() => [...document.querySelectorAll(".md-sidebar--primary *")]
  .filter((e) => e.scrollLeft !== 0).map((e) => e.className)"""
FOCUS_IN_DRAWER = "() => Boolean(document.activeElement?.closest('.md-sidebar--primary'))"


@pytest.mark.parametrize("name", list(PAGES))
def test_the_drawer_shows_its_links_and_they_work(chromium, site_url, name):
    """At 390 px, the menu opens a drawer whose first entry is at its top and visible, and
    tapping the first link in it lands on that link's page."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(site_url + PAGES[name])
        page.wait_for_function(THEME_READY)
        page.locator('label.md-header__button[for="__drawer"]').tap()
        page.wait_for_function("() => document.getElementById('__drawer').checked")
        page.wait_for_function(SETTLED)
        seen = page.evaluate(SEEN)
        assert seen, "the open drawer shows no link"
        assert seen[0]["top"] < 150, seen[0]  # right under the drawer's title
        assert [] == page.evaluate(SCROLLED_SIDEWAYS)
        assert not page.evaluate(FOCUS_IN_DRAWER)  # nothing moves focus into it
        link = next(entry for entry in seen if entry["href"])
        page.touchscreen.tap(link["x"], link["y"])
        page.wait_for_url(link["href"])
        page.locator("h1").first.wait_for()
    finally:
        context.close()
    assert [] == errors
