""" "My division" (/lookup/) in Chromium on a phone (390 px): the questions people bring,
by the form and by the link; the first answer with the engine blocked and before it is
ready on a slow first visit; plain messages on the fields; who may use a technique.

Every technique row is checked against the engine in Python (lvl_rules.faces.my_division),
the same package the page's table was made from and its engine runs.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

import lvl_rules
from lvl_rules.faces.my_division import answer

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000  # generous: a cold start on a loaded 2-core CI machine
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ANSWERED = "#lookup-results:not([hidden]) #lookup-rows tr[data-technique]"
PARENT = "edition=2&age=13&belt=white&uniform=gi"
WRESTLER = "edition=2&age=30&belt=blue&lvl=3&uniform=nogi&experience=wrestling"
# Slow 4G as Chromium's DevTools emulate it (and Lighthouse's mobile preset).
SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000,
           "uploadThroughput": 84_375}  # fmt: skip


@pytest.fixture
def phone(chromium, site_url):
    """A fresh phone-sized browser context per test (cold cache); no request may go to
    another origin, and no console error may occur unless the test expects it."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    seen = {"foreign": [], "errors": [], "expected": []}
    origin = site_url.rstrip("/")
    page.on("request", lambda r: seen["foreign"].append(r.url)
            if not r.url.startswith((origin, "data:", "blob:")) else None)  # fmt: skip

    def console(message) -> None:
        if message.type == "error" and not any(x in message.text for x in seen["expected"]):
            seen["errors"].append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.seen = seen
    yield page
    context.close()
    assert [] == seen["foreign"]


@pytest.fixture
def tabled(phone):
    """The phone page with every engine file failing: the page answers from its table
    (the test that the table and the engine agree on every key is test_lookup_table.py).
    Spares the tests that need no engine its start-up; the failed loads are expected."""
    phone.route("**/engine/**", lambda route: route.abort())
    phone.seen["expected"].append("net::ERR_FAILED")
    return phone


def rows(page) -> dict[str, bool]:
    page.wait_for_selector(ANSWERED, timeout=ENGINE_MS)
    return {
        row.get_attribute("data-technique"): row.get_attribute("data-legal") == "true"
        for row in page.query_selector_all("#lookup-rows tr[data-technique]")
    }


def expected(**fields) -> dict[str, bool]:
    found = answer(fields)["placement"]["answer"]
    return {**dict.fromkeys(found["legal"], True),
            **{item["id"]: False for item in found["not_legal"]}}  # fmt: skip


def form(page):
    return page.locator("#lookup-form")


def check_the_parents_answer(page) -> None:
    """13, white belt, Gi: the chart's legal and restricted techniques, the statement on
    techniques the chart does not list, jumping guard as a foul with its cost, the youth
    scale."""
    assert expected(edition="2", age="13", belt="white", uniform="gi") == rows(page)
    legal = page.locator('#lookup-rows tr[data-technique="leg-stretching-submission"]')
    assert "✓ Legal for you" in legal.inner_text()
    heel = page.locator('#lookup-rows tr[data-technique="heel-hook"]')
    assert "Legal for you from age 18 at brown belt or above, in No-Gi" in heel.inner_text()
    assert "✗ Not legal for you" in heel.inner_text()
    # Told apart by colour too, not only by words and marks.
    colours = page.evaluate(
        """() => ['leg-stretching-submission', 'heel-hook'].map((id) => getComputedStyle(
             document.querySelector(`#lookup-rows tr[data-technique="${id}"]`)).backgroundColor)"""
    )
    assert colours[0] != colours[1]
    unlisted = page.locator("#lookup-unlisted").inner_text()
    assert "armbar" in unlisted
    assert "is not restricted by these rules" in unlisted
    jump = page.locator('#lookup-fouls li[data-foul="jump-guard"]')
    assert "true" == jump.get_attribute("data-applies")
    assert "The next penalty on your scale" in jump.inner_text()
    assert "2 points to the opponent if done while defending" in jump.inner_text()
    scale = page.locator('#lookup-ladder table[data-ladder="under-15"]')
    assert 6 == scale.locator("tbody tr").count()
    assert "Your 6th penalty disqualifies you" in page.locator("#lookup-disqualifies").inner_text()


def check_the_wrestlers_answer(page) -> None:
    """30, blue belt, No-Gi, wrestling: heel hook (brown and black belts), closed-guard
    compression (legal), and what changed for him since Edition 1 at LVL 3."""
    fields = {"edition": "2", "age": "30", "belt": "blue", "uniform": "nogi"}
    assert expected(**fields, experience=["wrestling"]) == rows(page)
    heel = page.locator('#lookup-rows tr[data-technique="heel-hook"]')
    assert "false" == heel.get_attribute("data-legal")
    assert "Legal for you from brown belt" in heel.inner_text()
    squeeze = page.locator('#lookup-rows tr[data-technique="closed-guard-compression"]')
    assert "true" == squeeze.get_attribute("data-legal")
    changed = page.locator('#lookup-compare tr[data-id="heel-hook"]')
    changed.wait_for()
    assert "✓ Legal" in changed.locator("td").nth(0).inner_text()
    assert "✗ Not legal" in changed.locator("td").nth(1).inner_text()
    assert changed.locator("a").nth(0).get_attribute("href").endswith("/cite/1/1/")
    assert changed.locator("a").nth(1).get_attribute("href").endswith("/cite/2/1/")
    remark = page.locator('[data-message-for="experience"]:not([hidden])')
    assert "only moves white belts up" in remark.inner_text()


def test_the_parents_question_by_link(phone, site_url):
    """A shared link answers the parent's question; the engine then answers the same."""
    phone.goto(f"{site_url}lookup/?{PARENT}")
    check_the_parents_answer(phone)
    phone.wait_for_selector('#lookup-source[data-source="engine"]', timeout=ENGINE_MS)
    check_the_parents_answer(phone)
    assert [] == phone.seen["errors"]


def test_the_engine_confirms_the_table_without_drawing_again(phone, site_url):
    """The engine's answer is the table's: the page then only says the engine answered;
    the rows drawn from the table stay (no second layout of the whole answer)."""
    held = []
    phone.route(f"{site_url}engine/**", lambda route: held.append(route))  # held back
    phone.goto(f"{site_url}lookup/?{PARENT}")
    phone.wait_for_selector(ANSWERED)
    assert "table" == phone.locator("#lookup-source").get_attribute("data-source")
    drawn = phone.locator("#lookup-rows tr").first.element_handle()
    for route in held:
        route.continue_()
    phone.unroute(f"{site_url}engine/**")  # those asked for since go on too
    phone.wait_for_selector('#lookup-source[data-source="engine"]', timeout=ENGINE_MS)
    assert drawn.evaluate("(row) => row.isConnected")
    check_the_parents_answer(phone)
    form(phone).get_by_label("No-Gi", exact=True).check()  # a new question: a new answer
    phone.wait_for_selector('#lookup-results[data-query*="uniform=nogi"]')
    assert not drawn.evaluate("(row) => row.isConnected")
    assert expected(edition="2", age="13", belt="white", uniform="nogi") == rows(phone)
    assert [] == phone.seen["errors"]


def test_the_parents_question_by_the_form(tabled, site_url):
    """The labelled form gives the same answer, and the link then reproduces it."""
    tabled.goto(f"{site_url}lookup/")
    form(tabled).get_by_label("Age", exact=True).fill("13")
    form(tabled).get_by_label("Belt (Edition 2)", exact=True).select_option("white")
    form(tabled).get_by_label("Gi", exact=True).check()
    tabled.get_by_role("button", name="Show my division").click()
    check_the_parents_answer(tabled)
    assert "edition=2&age=13&belt=white&uniform=gi" in tabled.url
    assert [] == tabled.seen["errors"]


def test_the_wrestlers_question_by_link(phone, site_url):
    """The blue belt's link answers heel hook, closed-guard compression and what changed."""
    phone.goto(f"{site_url}lookup/?{WRESTLER}")
    check_the_wrestlers_answer(phone)
    assert [] == phone.seen["errors"]


def test_the_wrestlers_question_by_the_form(tabled, site_url):
    """By the form: first without his LVL (the page asks for it to compare), then with."""
    tabled.goto(f"{site_url}lookup/")
    form(tabled).get_by_label("Age", exact=True).fill("30")
    form(tabled).get_by_label("Belt (Edition 2)", exact=True).select_option("blue")
    form(tabled).get_by_label("Wrestling experience").check()
    form(tabled).get_by_label("No-Gi", exact=True).check()
    tabled.get_by_role("button", name="Show my division").click()
    needs = tabled.locator('#lookup-compare [data-needs="lvl"]')
    needs.wait_for(timeout=ENGINE_MS)
    assert "cannot be worked out from a belt" in needs.inner_text()
    form(tabled).get_by_label("LVL (Edition 1)", exact=True).select_option("3")
    check_the_wrestlers_answer(tabled)
    assert "lvl=3" in tabled.url
    assert [] == tabled.seen["errors"]


def test_the_first_answer_with_the_engine_blocked(phone, site_url):
    """With every engine file failing, the page still answers, from its table, and goes
    on answering changes."""
    phone.route("**/engine/**", lambda route: route.abort())
    phone.goto(f"{site_url}lookup/?{PARENT}")
    check_the_parents_answer(phone)
    assert "table" == phone.locator("#lookup-source").get_attribute("data-source")
    form(phone).get_by_label("No-Gi", exact=True).check()
    phone.wait_for_selector('#lookup-results[data-query*="uniform=nogi"]')
    assert expected(edition="2", age="13", belt="white", uniform="nogi") == rows(phone)
    blocked = [e for e in phone.seen["errors"] if "ERR_FAILED" not in e]
    assert [] == [e for e in blocked if "engine" not in e.lower()]


def test_the_first_answer_before_the_engine_on_slow_4g(phone, site_url):
    """A first visit over emulated slow 4G: the answer is there while the engine is
    still on its way, and says it came from the table."""
    session = phone.context.new_cdp_session(phone)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SLOW_4G)
    phone.goto(f"{site_url}lookup/?{PARENT}", wait_until="commit", timeout=ENGINE_MS)
    phone.wait_for_selector(ANSWERED, timeout=ENGINE_MS)
    state = phone.evaluate(
        """async () => (await import(document.querySelector("script[src*=engine-client]").src))
             .engine.state"""
    )
    assert "ready" != state
    assert "table" == phone.locator("#lookup-source").get_attribute("data-source")
    check_the_parents_answer(phone)


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("edition=2&age=3&uniform=gi", "age", "The rules start at age 4"),
        ("edition=2&age=130&uniform=gi", "age", "The rules go up to age 120"),
        ("edition=2&age=30&belt=grey&uniform=gi", "belt",
         "Kids' belts are for athletes under 16: choose white, blue, purple, brown or black."),
        ("edition=1&age=10&lvl=3&uniform=gi", "lvl", "Under 16, the LVL changes nothing"),
    ],
)  # fmt: skip
def test_plain_messages_on_the_field(tabled, site_url, query, field, words):
    """Age 3, age 130, a kids' belt at 30, an LVL at 10: a plain message on the field
    (an LVL at 10 is a remark: the answer is still given); the page keeps working."""
    tabled.goto(f"{site_url}lookup/?{query}")
    message = tabled.locator(f'#lookup-form [data-message-for="{field}"]:not([hidden])')
    message.wait_for(timeout=ENGINE_MS)
    assert words in message.inner_text()
    assert "None" not in message.inner_text()
    if field != "lvl":
        control = tabled.locator(f'#lookup-form [name="{field}"]').first
        assert "true" == control.get_attribute("aria-invalid")
        assert tabled.locator("#lookup-results").is_hidden()
    form(tabled).get_by_label("Age", exact=True).fill("30")
    form(tabled).get_by_label("Belt (Edition 2)", exact=True).select_option("purple")
    form(tabled).get_by_label("LVL (Edition 1)", exact=True).select_option("3")
    form(tabled).get_by_label("Edition", exact=True).select_option("2")
    tabled.get_by_role("button", name="Show my division").click()
    assert expected(edition="2", age="30", belt="purple", uniform="gi") == rows(tabled)
    assert tabled.locator(f'#lookup-form [data-message-for="{field}"]').is_hidden()
    assert [] == tabled.seen["errors"]


def test_the_belt_list_follows_the_age(tabled, site_url):
    """At 30 the belt list offers only the belts that exist at 30; at 10 the kids' belts."""
    tabled.goto(f"{site_url}lookup/")
    form(tabled).get_by_label("Age", exact=True).fill("30")
    offered = "(s) => [...s.options].filter((o) => !o.hidden && o.value).map((o) => o.value)"
    belt = form(tabled).get_by_label("Belt (Edition 2)", exact=True)
    tabled.wait_for_function(
        "() => document.querySelector('#lookup-belt-2 option[value=grey]').hidden"
    )
    assert ["white", "blue", "purple", "brown", "black"] == belt.evaluate(offered)
    form(tabled).get_by_label("Age", exact=True).fill("10")
    tabled.wait_for_function(
        "() => document.querySelector('#lookup-belt-2 option[value=blue]').hidden"
    )
    assert ["white", "grey", "yellow", "orange", "green"] == belt.evaluate(offered)


def test_who_may_use_a_technique(phone, site_url):
    """'Who may use' names the divisions where the engine says a technique is legal."""
    phone.goto(f"{site_url}lookup/?edition=2&technique=heel-hook")
    result = phone.locator("#divisions-result p")
    result.wait_for(timeout=ENGINE_MS)
    assert "Adults, brown and black belts (No-Gi)" in result.inner_text()


@pytest.mark.parametrize("query", [PARENT, WRESTLER], ids=["parent", "wrestler"])
def test_my_division_prints_on_one_a4_page(tabled, site_url, query):
    """Printed, the answer fits one A4 page, with every technique of the chart on it."""
    tabled.goto(f"{site_url}lookup/?{query}")
    found = rows(tabled)
    tabled.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(tabled.pdf(format="A4", print_background=True)))
    assert 1 == len(pdf.pages)
    text = " ".join(pdf.pages[0].extract_text().split())
    names = {t.id: t.name for t in lvl_rules.load_edition("2").techniques.values()}
    assert [] == [names[t] for t in found if " ".join(names[t].split()) not in text]
