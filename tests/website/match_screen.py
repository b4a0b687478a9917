"""A browser context on one screen, as the match-mode tests use it: console errors and
requests to other origins collected (each test asserts there are none), and where each
button is on the screen."""

from __future__ import annotations

SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "phone-landscape": {
        "viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True,
    },
    "tablet": {"viewport": {"width": 1024, "height": 768}, "has_touch": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}  # fmt: skip
# Where each button's middle is, and what the page shows there: the button itself, or
# something covering it.
COVERED = """(button) => {
  const box = button.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {
    inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
    covered: !(hit && (hit === button || button.contains(hit))),
  };
}"""


class Screen:
    """One browser context on one screen; console errors and foreign requests collected."""

    def __init__(self, chromium, site_url: str, options: dict) -> None:
        self.context = chromium.new_context(**options)
        self.origin = site_url.rstrip("/")
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.context.on("request", self._request)
        self.site_url = site_url

    def _request(self, request) -> None:
        if not request.url.startswith((self.origin, "data:", "blob:")):
            self.foreign.append(request.url)

    def page(self):
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page
