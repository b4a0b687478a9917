""" "My division" (/lookup/) in Chromium on a phone (390x844): every kind of question the
page answers, by the form and by the link, from the rules table the build wrote into it,
and never a request for a file of the rules engine (they are blocked, and each test
checks that none was asked for); the answer at a glance on the first screen; the fields
that change nothing at the age entered not asked; plain messages on the fields; who may
use a technique; the whole answer on one A4 page.

Every answer is checked against the engine in Python (lvl_rules.faces.my_division, and
the JSON API for who may use a technique), the package the page's table was made from.
"""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader
from timeline_names import FULL, IN_FORCE, TITLE

import lvl_rules
from lvl_rules.faces import api
from lvl_rules.faces.my_division import answer

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
RESULTS = "#lookup-results:not([hidden])"
READY = "#lookup-form[data-ready]"  # lookup.js has mounted: the form answers
ANSWERED = f"{RESULTS} #lookup-rows tr[data-technique]"
PARENT = f"edition={IN_FORCE}&age=13&belt=white&uniform=gi"
NINE = f"edition={IN_FORCE}&age=9&uniform=gi"
WRESTLER = f"edition={IN_FORCE}&age=30&belt=blue&lvl=3&uniform=nogi&experience=wrestling"
ADULT_BLUE = f"edition={IN_FORCE}&age=30&belt=blue&uniform=gi"
# Material's header stays at the top of a phone's screen, over the page.
HEADER = ".md-header"


@pytest.fixture
def phone(chromium, site_url):
    """A fresh phone-sized browser context per test (cold cache). Every file of the rules
    engine is blocked, and none may be asked for (nothing under /engine/, not
    assets/engine/*.js); no request may go to another origin, and no console error occur."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    seen = {"foreign": [], "errors": [], "engine": []}
    origin = site_url.rstrip("/")
    page.on("request", lambda r: seen["foreign"].append(r.url)
            if not r.url.startswith((origin, "data:", "blob:")) else None)  # fmt: skip

    def engine_file(route) -> None:
        seen["engine"].append(route.request.url)
        route.abort()

    page.route("**/engine/**", engine_file)
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.seen = seen
    yield page
    context.close()
    assert [] == seen["foreign"]
    assert [] == seen["engine"]
    assert [] == seen["errors"]


def rows(page) -> dict[str, bool]:
    """Each technique's row of the answer: legal or not (the rows are in folded sections:
    they are there whether open or not)."""
    page.wait_for_selector(ANSWERED, state="attached")
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


def unfold(page, fold: str) -> None:
    """Open a folded section of the answer, as a person does: a tap on its heading."""
    if not page.locator(f"#{fold}").evaluate("(fold) => fold.open"):
        page.locator(f"#{fold} > summary").click()
    page.locator(f"#{fold}[open]").wait_for()


def asked(page) -> set[str]:
    """The fields of the form a person sees, by name."""
    return set(
        page.evaluate(
            """() => [...document.querySelectorAll('#lookup-form [name]')]
                 .filter((c) => c.offsetParent !== null && !c.disabled).map((c) => c.name)"""
        )
    )


def check_the_parents_answer(page) -> None:
    """13, white belt, Gi: the chart's legal and restricted techniques, the statement on
    techniques the chart does not list, jumping guard as a foul with its cost, the youth
    scale."""
    assert expected(edition=IN_FORCE, age="13", belt="white", uniform="gi") == rows(page)
    glance = page.locator("#lookup-glance").inner_text()
    assert "From age 16: Choke with a spinal lock" in glance
    assert "Youth protection scale (under 15): 1st marked only" in glance
    unfold(page, "lookup-may-do")
    legal = page.locator('#lookup-rows tr[data-technique="leg-stretching-submission"]')
    assert "✓ Legal for you" in legal.inner_text()
    unlisted = page.locator("#lookup-unlisted").inner_text()
    assert "armbar" in unlisted
    assert "is not restricted by these rules" in unlisted
    unfold(page, "lookup-not-allowed")
    heel = page.locator('#lookup-rows tr[data-technique="heel-hook"]')
    assert "Legal for you from age 18 at brown belt or above, in No-Gi" in heel.inner_text()
    assert "✗ Not legal for you" in heel.inner_text()
    assert (
        heel.get_by_role("link", name="Its row in the technique chart")
        .get_attribute("href")
        .endswith(f"/rules/{IN_FORCE}/techniques/#technique-heel-hook")
    )
    # Told apart by colour too, not only by words and marks.
    colours = page.evaluate(
        """() => ['leg-stretching-submission', 'heel-hook'].map((id) => getComputedStyle(
             document.querySelector(`#lookup-rows tr[data-technique="${id}"]`)).backgroundColor)"""
    )
    assert colours[0] != colours[1]
    unfold(page, "lookup-fouls-box")
    jump = page.locator('#lookup-fouls li[data-foul="jump-guard"]')
    assert "true" == jump.get_attribute("data-applies")
    assert "The next penalty on your scale" in jump.inner_text()
    assert "2 points to the opponent if done while defending" in jump.inner_text()
    unfold(page, "lookup-scale-box")
    scale = page.locator('#lookup-ladder table[data-ladder="under-15"]')
    assert 6 == scale.locator("tbody tr").count()
    assert "Your 6th penalty disqualifies you" in page.locator("#lookup-ladder").inner_text()


def check_the_wrestlers_answer(page) -> None:
    """30, blue belt, No-Gi, wrestling: heel hook (brown and black belts), closed-guard
    compression (legal), and what changed for him since Edition 1: the form of Edition 2
    asks no Edition 1 LVL (issue 40), so heel hook is among what depends on it."""
    fields = {"edition": IN_FORCE, "age": "30", "belt": "blue", "uniform": "nogi"}
    assert expected(**fields, experience=["wrestling"]) == rows(page)
    brown = page.locator('#lookup-not-yet li[data-when="rank=brown,black"]').inner_text()
    assert brown.startswith("From brown belt: ")
    assert "Heel hook" in brown
    heel = page.locator('#lookup-rows tr[data-technique="heel-hook"]')
    assert "false" == heel.get_attribute("data-legal")
    squeeze = page.locator('#lookup-rows tr[data-technique="closed-guard-compression"]')
    assert "true" == squeeze.get_attribute("data-legal")
    unfold(page, "lookup-changed-box")
    depends = page.locator('#lookup-compare [data-depends="lvl"]')
    depends.wait_for()
    assert f"depending on your LVL in {TITLE[FULL]}" in depends.inner_text()
    assert "Heel hook" in depends.inner_text()
    remark = page.locator('[data-message-for="experience"]:not([hidden])')
    assert "only moves white belts up" in remark.inner_text()


def test_the_parents_question_by_link(phone, site_url):
    """A shared link answers the parent's question from the page alone."""
    phone.goto(f"{site_url}lookup/?{PARENT}")
    check_the_parents_answer(phone)


def test_the_parents_question_by_the_form(phone, site_url):
    """The labelled form gives the same answer, and the link then reproduces it; at 13
    the form asks for nothing but age and uniform (and the edition)."""
    phone.goto(f"{site_url}lookup/")
    assert {"edition", "age", "uniform"} == asked(phone)  # as built: before the script too
    phone.wait_for_selector(READY)
    assert {"edition", "age", "uniform"} == asked(phone)
    form(phone).get_by_label("Age", exact=True).fill("13")
    form(phone).get_by_label("Gi", exact=True).check()
    phone.get_by_role("button", name="Show my division").click()
    assert {"edition", "age", "uniform"} == asked(phone)
    check_the_parents_answer(phone)
    assert f"edition={IN_FORCE}&age=13&uniform=gi" in phone.url


def test_the_wrestlers_question_by_link(phone, site_url):
    """The blue belt's link answers heel hook, closed-guard compression and what changed."""
    phone.goto(f"{site_url}lookup/?{WRESTLER}")
    check_the_wrestlers_answer(phone)


def test_the_wrestlers_question_by_the_form(phone, site_url):
    """By the form: from 30 it asks for the belt and his experience, not an LVL of another
    edition; what changed says what depends on that LVL and what changed for everyone."""
    phone.goto(f"{site_url}lookup/")
    phone.wait_for_selector(READY)
    form(phone).get_by_label("Age", exact=True).fill("30")
    phone.wait_for_function("() => !document.querySelector('#lookup-belt').disabled")
    assert {"edition", "age", "belt", "experience", "uniform"} == asked(phone)
    form(phone).get_by_label("Belt", exact=True).select_option("blue")
    form(phone).get_by_label("Wrestling experience").check()
    form(phone).get_by_label("No-Gi", exact=True).check()
    phone.get_by_role("button", name="Show my division").click()
    check_the_wrestlers_answer(phone)
    depends = phone.locator('#lookup-compare [data-depends="lvl"]')
    assert "cannot be worked out from a belt" in depends.inner_text()


def test_a_9_year_old_at_a_glance(phone, site_url):
    """A parent of a 9-year-old in Gi, on a 390x844 phone: the form asks for no belt, no
    experience and no LVL; after the answer, one screen says first what she may do (the
    armbar, kimura, ...: everything the chart does not restrict), then what she may not do
    yet and from when, what disqualifies (the severe fouls one tap away) and the penalty
    scale in a line; the detail is folded below it."""
    phone.goto(f"{site_url}lookup/")
    phone.wait_for_selector(READY)
    form(phone).get_by_label("Age", exact=True).fill("9")
    assert {"edition", "age", "uniform"} == asked(phone)
    phone.get_by_role("button", name="Show my division").click()
    phone.wait_for_selector(RESULTS)
    assert {"edition", "age", "uniform"} == asked(phone)
    facts = answer({"edition": IN_FORCE, "age": "9", "uniform": "gi"})["placement"]["answer"]
    assert expected(edition=IN_FORCE, age="9", uniform="gi") == rows(phone)
    # The first screen after the answer holds all of it, below the page's header.
    phone.wait_for_function(
        "() => document.querySelector('#lookup-results').getBoundingClientRect().top < 100"
    )
    top = phone.locator(HEADER).bounding_box()
    glance = phone.locator("#lookup-glance").bounding_box()
    title = phone.locator("#lookup-results-title").bounding_box()
    assert title["y"] >= top["y"] + top["height"]
    assert glance["y"] + glance["height"] <= PHONE["viewport"]["height"]
    may = phone.locator("#lookup-may li")
    assert (
        may.nth(0)
        .inner_text()
        .startswith(
            "You may use everything the chart does not restrict, such as the armbar, kimura, "
            "rear-naked choke"
        )
    )
    assert 1 == may.count()  # nothing of the chart yet: the lines below say from when
    lines = phone.locator("#lookup-not-yet li")
    assert "From age 13: Submissions that stretch the legs apart." == lines.nth(0).inner_text()
    assert "From age 16: " in lines.nth(1).inner_text()
    assert "Front guillotine choke" in lines.nth(1).inner_text()
    assert lines.last.inner_text().startswith("Never, for any athlete: Slam")
    penalties = phone.locator("#lookup-disqualifies").inner_text()
    assert "Youth protection scale (under 15): 1st marked only" in penalties
    assert "6th disqualification" in penalties
    assert "A disciplinary foul: disqualification from the whole competition" in penalties
    severe = phone.locator("#lookup-disqualifies details")
    assert f"{len(facts['severe'])} severe fouls" in severe.inner_text()
    severe.locator("summary").click()  # one tap away
    listed = severe.locator("li[data-foul]")
    assert facts["severe"] == [
        listed.nth(i).get_attribute("data-foul") for i in range(listed.count())
    ]
    assert "Hold prohibited for the division" in severe.inner_text()
    for fold in ("lookup-may-do", "lookup-not-allowed", "lookup-fouls-box", "lookup-scale-box"):
        assert phone.locator(f"#{fold}:not([open])").is_visible()


def test_what_changed_for_an_adult_blue_belt_without_an_lvl(phone, site_url):
    """An adult blue belt who gives no Edition 1 LVL: what changed lists the scoring
    changes of Edition 2, which concern every athlete, each with its clause."""
    phone.goto(f"{site_url}lookup/?{ADULT_BLUE}")
    phone.wait_for_selector(RESULTS)
    unfold(phone, "lookup-changed-box")
    everyone = phone.locator("#lookup-compare ul.lvl-everyone")
    said = everyone.inner_text()
    for words in (
        "Takedown: Takedowns from the knees score 2 points.",
        "Knee on belly: Reverse knee on belly scores 2 points.",
        "Mount: Reverse mount and mount with both arms trapped score 4 points.",
        "Back control: Crossed feet, body triangle and both arms trapped score 4 points.",
        "A locked submission that is escaped scores 2 points instead of an advantage.",
    ):
        assert words in said
    mount = everyone.locator('li[data-change="positions/mount"] a')
    assert mount.get_attribute("href").endswith(f"/cite/{IN_FORCE}/5.4/")
    assert (
        f"What {TITLE[IN_FORCE]} changed for every athlete:"
        in phone.locator("#lookup-compare").inner_text()
    )
    assert "Wrist lock" in phone.locator('#lookup-compare [data-depends="lvl"]').inner_text()


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        (f"edition={IN_FORCE}&age=3&uniform=gi", "age", "The rules start at age 4"),
        (f"edition={IN_FORCE}&age=130&uniform=gi", "age", "The rules go up to age 120"),
        (f"edition={IN_FORCE}&age=thirty&uniform=gi", "age", "Enter the athlete's age in years"),
        (f"edition={IN_FORCE}&age=30&belt=grey&uniform=gi", "belt",
         "Kids' belts are for athletes under 16: choose white, blue, purple, brown or black."),
        (f"edition={IN_FORCE}&age=30&uniform=gi", "belt",
         f"From age 16, {TITLE[IN_FORCE]} goes by belt"),
        (f"edition={FULL}&age=30&lvl=7&uniform=gi", "lvl", "Choose a LVL from the list"),
        # issue 36, item 11: an unknown or empty uniform ("this page's app failed to load")
        (f"edition={IN_FORCE}&age=30&belt=blue&uniform=no-gi", "uniform", "Choose Gi or No-Gi"),
        (f"edition={IN_FORCE}&age=30&belt=blue&uniform=", "uniform", "Choose Gi or No-Gi"),
    ],
)  # fmt: skip
def test_plain_messages_on_the_field(phone, site_url, query, field, words):
    """Age 3, age 130, an age in words, a kids' belt at 30, no belt at 30, an LVL that does
    not exist, an unknown or empty uniform: a plain message on the field; the
    page keeps working."""
    phone.goto(f"{site_url}lookup/?{query}")
    message = phone.locator(f'#lookup-form [data-message-for="{field}"]:not([hidden])')
    message.wait_for()
    assert words in message.inner_text()
    assert "None" not in message.inner_text()
    control = phone.locator(f'#lookup-form [name="{field}"]').first
    assert "true" == control.get_attribute("aria-invalid")
    assert phone.locator("#lookup-results").is_hidden()
    form(phone).get_by_label("Edition", exact=True).select_option("2")
    form(phone).get_by_label("Age", exact=True).fill("30")
    form(phone).get_by_label("Belt", exact=True).select_option("purple")
    form(phone).get_by_label("Gi", exact=True).check()
    phone.get_by_role("button", name="Show my division").click()
    assert expected(edition=IN_FORCE, age="30", belt="purple", uniform="gi") == rows(phone)
    assert phone.locator(f'#lookup-form [data-message-for="{field}"]').is_hidden()


def test_the_adult_form_says_nothing_wrong_before_a_field_is_left(phone, site_url):
    """Issue 40: the form shows the edition in force's words and rank field only (no LVL,
    which is another edition's), and, an age typed, says nothing is wrong with the belt
    before the belt is left; left empty, it says what is needed. Edition 1 chosen, its
    intro speaks of the LVL."""
    phone.goto(f"{site_url}lookup/")
    intro = phone.locator(".lvl-edition-words p:visible")
    assert 1 == intro.count()
    assert "LVL" not in intro.inner_text()
    assert "belt" in intro.inner_text()
    phone.wait_for_selector(READY)
    form(phone).get_by_label("Age", exact=True).fill("25")
    phone.wait_for_selector(f'#lookup-form[data-answered="edition={IN_FORCE}&age=25&uniform=gi"]')
    assert form(phone).get_by_label("Belt", exact=True).is_visible()
    assert form(phone).get_by_label("LVL", exact=True).is_hidden()
    assert 0 == phone.locator("#lookup-form [data-message-for]:not([hidden])").count()
    assert 0 == phone.locator("#lookup-form [aria-invalid]").count()
    form(phone).get_by_label("Belt", exact=True).focus()
    form(phone).get_by_label("No-Gi", exact=True).focus()  # the belt left empty
    message = phone.locator('#lookup-form [data-message-for="belt"]:not([hidden])')
    message.wait_for()
    assert "goes by belt" in message.inner_text()
    form(phone).get_by_label("Edition", exact=True).select_option(FULL)
    assert "LVL" in intro.inner_text()
    assert form(phone).get_by_label("Belt", exact=True).is_hidden()


def test_what_the_form_asks_follows_the_age(phone, site_url):
    """At 30 the form asks for the belt (only those that exist at 30) and the experience,
    no LVL of another edition; at 10 for none of them, and a belt chosen at 30 changes
    nothing at 10."""
    phone.goto(f"{site_url}lookup/?{ADULT_BLUE}")
    phone.wait_for_selector(RESULTS)
    offered = "(s) => [...s.options].filter((o) => !o.hidden && o.value).map((o) => o.value)"
    belt = form(phone).get_by_label("Belt", exact=True)
    assert ["white", "blue", "purple", "brown", "black"] == belt.evaluate(offered)
    assert {"edition", "age", "belt", "experience", "uniform"} == asked(phone)
    form(phone).get_by_label("Age", exact=True).fill("10")
    phone.wait_for_selector(f'#lookup-results[data-query="edition={IN_FORCE}&age=10&uniform=gi"]')
    assert {"edition", "age", "uniform"} == asked(phone)
    assert expected(edition=IN_FORCE, age="10", uniform="gi") == rows(phone)
    assert f"edition={IN_FORCE}&age=10&uniform=gi" in phone.url


def test_odd_ages_the_table_answers(phone, site_url):
    """The oldest age (120), an age typed with spaces: answered like any other."""
    phone.goto(f"{site_url}lookup/?edition={FULL}&age=120&lvl=2&uniform=nogi")
    assert expected(edition=FULL, age="120", lvl="2", uniform="nogi") == rows(phone)
    form(phone).get_by_label("Age", exact=True).fill("017")
    phone.wait_for_selector('#lookup-results[data-query*="age=017"]')
    assert expected(edition=FULL, age="17", lvl="2", uniform="nogi") == rows(phone)


@pytest.mark.parametrize(("edition", "technique"), [("2", "heel-hook"), ("1", "wrist-lock")])
def test_who_may_use_a_technique(phone, site_url, edition, technique):
    """'Who may use' gives the engine's answer (made at build time) for the edition and
    technique, with its clause and the technique's row in the chart: by link and by the
    form."""
    said = json.loads(
        api.handle(
            json.dumps({"action": "divisions-for", "edition": edition, "technique": technique})
        )
    )["result"]
    phone.goto(f"{site_url}lookup/?edition={edition}&technique={technique}")
    result = phone.locator("#divisions-result p")
    assert said["summary"] in result.inner_text()
    assert (
        result.get_by_role("link", name=f"§{said['cite']}")
        .get_attribute("href")
        .endswith(f"/cite/{edition}/{said['cite']}/")
    )
    assert (
        result.get_by_role("link", name="Its row in the technique chart")
        .get_attribute("href")
        .endswith(f"/rules/{edition}/techniques/#technique-{technique}")
    )
    phone.get_by_label("Technique", exact=True).select_option("slam")
    phone.get_by_role("button", name="Show divisions").click()
    phone.wait_for_selector('#divisions-result p[data-technique="slam"]')
    assert "Slam: not legal in any division." in phone.locator("#divisions-result").inner_text()
    assert "technique=slam" in phone.url


def test_who_may_use_an_unknown_technique(phone, site_url):
    """A link naming a technique that is not in the list: the page says to choose one."""
    phone.goto(f"{site_url}lookup/?technique=nope")
    assert "Choose a technique from the list." == phone.locator("#divisions-result").inner_text()


@pytest.mark.parametrize("query", [PARENT, WRESTLER, NINE], ids=["parent", "wrestler", "nine"])
def test_my_division_prints_on_one_a4_page(phone, site_url, query):
    """Printed, the answer fits one A4 page, with every technique of the chart on it, its
    folded sections open; on the screen they are folded again afterwards."""
    phone.goto(f"{site_url}lookup/?{query}")
    found = rows(phone)
    phone.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(phone.pdf(format="A4", print_background=True)))
    assert 1 == len(pdf.pages)
    text = " ".join(pdf.pages[0].extract_text().split())
    names = {t.id: t.name for t in lvl_rules.load_edition(IN_FORCE).techniques.values()}
    assert [] == [names[t] for t in found if " ".join(names[t].split()) not in text]
    phone.emulate_media(media="screen")
    assert 0 == phone.locator("#lookup-results details[open]").count()


def test_our_readings_are_marked_in_my_division(phone, site_url):
    """An adult white belt in Edition 2: each foul and technique row our reading decides
    shows the mark with its notes linked, as the answer names them, and the descriptions
    are marked ours."""
    params = {"edition": IN_FORCE, "age": "30", "belt": "white", "uniform": "gi"}
    facts = answer(params)["placement"]["answer"]
    anchor = f"#e{params['edition']}-"
    phone.goto(f"{site_url}lookup/?" + "&".join(f"{k}={v}" for k, v in params.items()))
    rows(phone)
    marked = [fact for fact in facts["fouls"] if fact.get("readings")]
    assert marked
    for fact in marked:
        # A foul of the uniform only is named with the others of it, in one line.
        line = (
            "li[data-uniform]" if fact["status"] == "uniform" else f'li[data-foul="{fact["id"]}"]'
        )
        links = phone.locator(f"#lookup-fouls {line} .lvl-reading a")
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        shown = [h[h.index("#") :] for h in hrefs]
        assert [anchor + note for note in fact["readings"] if anchor + note in shown] == [
            anchor + note for note in fact["readings"]
        ]
    squeeze = phone.locator('tr[data-technique="closed-guard-compression"] .lvl-reading a')
    assert squeeze.first.get_attribute("href").endswith(anchor + "closed-guard-compression-blue")
    ours = phone.locator(".lvl-descriptions-ours a").first.get_attribute("href")
    assert ours.endswith(anchor + "technique-descriptions")
