"""Pages paint only what they ask, on a 390x844 phone: the first paint, made before the
scripts of ours that run after it (they are held back: Playwright routing), already has
the form's state, and nothing on the page moves when they come (a 'layout-shift'
observer).

My division opened shows no field the script would hide (Belt, Prior experience, LVL),
and from a shared link the fields its answer asks for show where the page kept their
place; the calculator's engine notice covers none of the form; a rule section does not
move when its citation buttons are wired. Every wait is for a state, never for a time.
"""

from __future__ import annotations

import pytest
from timeline_names import FULL, IN_FORCE

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Our scripts: the page's modules and lvl.js (published under names that change with
# their content, in a code-<hash> folder). The theme's scripts are not held.
OURS = ("**/assets/code-*/app/**", "**/assets/code-*/lvl.js")
# ... but for the one the first paint waits for by design (blocking="render"), and the
# module it imports: My division's from a link (it says which fields the link's age asks).
FIRST_PAINT = ("/app/lookup-link.js", "/app/division-table.js")
DEPENDENT = ("belt", "experience")  # the fields of the edition in force an adult is asked
# Every layout shift not caused by input, from the first paint on (registered before any
# script of the page).
OBSERVER = """
window.lvlShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.lvlShifts.push(entry.value);
  }
}).observe({ type: "layout-shift", buffered: true });
"""
PAINTED = "() => performance.getEntriesByName('first-contentful-paint').length > 0"
# Two frames drawn: any layout shift of what came before is reported by then.
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
SHIFTED = "() => window.lvlShifts.reduce((sum, value) => sum + value, 0)"
MAX_SHIFT = 0.02
FORM_END = "#lookup-form .lvl-actions"
# A link to an edition other than the one the page is built with shows that edition's
# fields first (the calculator's form follows the link's edition).
CALCULATOR = f"edition={FULL}&age=30&lvl=3&uniform=gi"


class Held:
    """A phone page whose own scripts are held back until ``release()``."""

    def __init__(self, chromium) -> None:
        self.context = chromium.new_context(**PHONE)
        self.page = self.context.new_page()
        self.page.add_init_script(OBSERVER)
        self.waiting: list = []
        self.released = False
        for pattern in OURS:
            self.page.route(pattern, self._hold)

    def _hold(self, route) -> None:
        if self.released or route.request.url.endswith(FIRST_PAINT):
            route.continue_()
        else:
            self.waiting.append(route)

    def first_paint(self, url: str, parsed: str) -> None:
        """Open ``url`` and wait for its first paint with ``parsed`` in the page (the end of
        what the test looks at), our scripts still held."""
        self.page.goto(url, wait_until="commit")
        self.page.wait_for_selector(parsed, state="attached")
        self.page.wait_for_function(PAINTED)
        self.page.evaluate(FRAMES)

    def release(self) -> None:
        self.released = True
        for route in self.waiting:
            route.continue_()
        self.waiting.clear()

    def shifted(self) -> float:
        self.page.evaluate(FRAMES)
        return self.page.evaluate(SHIFTED)


@pytest.fixture
def held(chromium):
    opened = Held(chromium)
    yield opened
    opened.release()
    opened.context.close()


def shown_fields(page) -> set[str]:
    """The names of My division's fields a person sees."""
    return set(
        page.evaluate(
            """() => [...document.querySelectorAll('#lookup-form [name]')]
                 .filter((c) => c.checkVisibility({ visibilityProperty: true }))
                 .map((c) => c.name)"""
        )
    )


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_my_division_first_paints_no_field_it_then_hides(held, site_url):
    """Opened, My division's first paint asks for edition, age and uniform only; when its
    script has run, the same, and nothing moved."""
    held.first_paint(f"{site_url}lookup/", FORM_END)
    page = held.page
    assert {"edition", "age", "uniform"} == shown_fields(page)
    for label in ("Belt", "LVL"):
        assert page.get_by_label(label, exact=True).is_hidden()
    assert page.locator("#lookup-form legend", has_text="Prior experience").is_hidden()
    uniform = box(page, "#lookup-form fieldset:has([name=uniform])")
    held.release()
    page.wait_for_selector("#lookup-form[data-ready]")
    assert {"edition", "age", "uniform"} == shown_fields(page)
    assert uniform == box(page, "#lookup-form fieldset:has([name=uniform])")
    assert held.shifted() <= MAX_SHIFT


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (f"edition={IN_FORCE}&age=13&belt=white&uniform=gi", set()),
        (f"edition={IN_FORCE}&age=30&belt=blue&lvl=3&uniform=nogi", set(DEPENDENT)),
    ],
    ids=["13", "30"],
)
def test_a_shared_link_first_paints_the_fields_it_asks_for(held, site_url, query, asked):
    """From a shared link, the first paint shows the fields its answer asks for (those
    that depend on the age: none at 13, belt, prior experience and LVL at 30), before the
    script has run; when it has, the same, and the uniform and the button below them have
    not moved."""
    held.first_paint(f"{site_url}lookup/?{query}", FORM_END)
    page = held.page
    assert {"edition", "age", "uniform"} | asked == shown_fields(page)
    below = [box(page, "#lookup-form fieldset:has([name=uniform])"),
             box(page, "#lookup-form .lvl-actions")]  # fmt: skip
    held.release()
    page.wait_for_selector("#lookup-results:not([hidden])")
    assert {"edition", "age", "uniform"} | asked == shown_fields(page)
    assert below == [box(page, "#lookup-form fieldset:has([name=uniform])"),
                     box(page, "#lookup-form .lvl-actions")]  # fmt: skip
    assert held.shifted() <= MAX_SHIFT


def overlaps(one: dict, other: dict) -> bool:
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


def test_the_engine_notice_covers_none_of_the_calculator(held, site_url):
    """The engine's notice has its own place: at the first paint (from a link to the
    edition the page is not built with: its LVL field shown) and while the engine starts,
    it overlaps no field of the form, and once the engine is ready its place is kept (the
    form has not moved)."""
    held.first_paint(f"{site_url}calculator/?{CALCULATOR}", "#calc-setup")
    page = held.page
    notice = page.locator("[data-engine-status]")
    assert notice.is_visible()
    assert page.get_by_label("LVL", exact=True).is_visible()
    fields = page.locator("#calc-form .lvl-field:visible")
    before = [fields.nth(i).bounding_box() for i in range(fields.count())]
    assert [] == [field for field in before if overlaps(notice.bounding_box(), field)]
    held.release()
    page.wait_for_selector("[data-engine-status] [data-status-text]:not(:empty)")
    if notice.is_visible():  # still starting (on a fast machine it may be ready already)
        assert [] == [f for f in before if overlaps(notice.bounding_box(), f)]
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=120_000)
    assert page.locator(".lvl-status-ready").is_visible()
    assert before == [fields.nth(i).bounding_box() for i in range(fields.count())]


def test_a_rule_section_does_not_move_when_its_scripts_come(held, site_url):
    """A rule section (§5 in force) with its scripts held until after the first paint:
    wiring the citation buttons (shown in the place kept for them) moves nothing."""
    held.first_paint(f"{site_url}rules/{IN_FORCE}/5/", "#\\35 \\.2")
    page = held.page
    text = box(page, "#\\35 \\.1 ~ p:not(.lvl-clause-tools)")
    held.release()
    page.wait_for_selector('button.lvl-copy[data-wired="yes"]')
    assert text == box(page, "#\\35 \\.1 ~ p:not(.lvl-clause-tools)")
    assert held.shifted() <= MAX_SHIFT
