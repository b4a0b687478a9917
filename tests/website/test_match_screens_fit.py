"""The table official's screens under pressure (issue 39), on a phone held sideways
(844x390), upright (390x844) and a laptop (1366x768): every prompt, dialog and choice at
the end of a match fits the screen and can be answered or closed, nothing is drawn over a
control (a control's middle is the control itself: ``document.elementFromPoint``), the
count's chip covers no name or score, upright match mode shows every control without a
box that scrolls, the audience screen breaks no word; every athlete's button says whose
it is; the match sheet says the final score, the details and where the officials sign.
Every test waits for a state, never for a time."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from match_screen import COVERED
from scoreboard import SETTLED, engine_board, forty_events
from timeline_names import AMENDMENT

from lvl_rules.faces.site import match_words as words

pytestmark = pytest.mark.browser

ENGINE_MS = 60_000
SIZES = ["phone-landscape", "phone", "laptop"]
BLUE = {"edition": AMENDMENT, "age": 30, "belt": "blue", "uniform": "gi"}
DIVISION = f"edition={AMENDMENT}&age=30&belt=blue&uniform=gi"
ANA, BIA = "Ana Carolina Souza", "Beatriz Fernandes"
NAMED = f"calculator/?{DIVISION}&name_a={quote(ANA)}&name_b={quote(BIA)}&colour_b=yellow"
# Every control the match screen shows (a dialog's, when one is open), each brought into
# its box's view first (a dialog scrolls), with where it is and what covers it.
MISPLACED = """(covered) => {
  const check = eval(covered);
  const open = document.querySelector('dialog[open]');
  const scope = open ?? document.querySelector('#calc-board');
  return [...scope.querySelectorAll('button, a, select, input')]
    .filter((c) => c.getClientRects().length && !c.closest('.lvl-log-section'))
    .map((c) => {
      if (open) c.scrollIntoView({ block: 'nearest' });
      return [c.id || c.textContent.trim().slice(0, 40), check(c)];
    })
    .filter(([, at]) => !at.inside || at.covered)
    .map(([name, at]) => `${name}: ${at.inside ? '' : 'off the screen '}`
      + `${at.covered ? 'covered' : ''}`);
}"""


def ready(page):
    page.wait_for_selector("[data-engine-status][hidden]", state="attached", timeout=ENGINE_MS)
    return page


def misplaced(page) -> list[str]:
    """The controls off the screen or under something else."""
    return page.evaluate(MISPLACED, COVERED)


def half(page, athlete: str):
    return page.locator(f'.lvl-half[data-half="{athlete}"]')


def match_mode(screen, query: str = "&length=60"):
    """Match mode with long names, on a clock the test moves."""
    screen.context.clock.install(time=1_700_000_000)
    page = screen.page()
    page.goto(f"{screen.site_url}{NAMED}&mode=match{query}")
    ready(page)
    screen.context.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)
    return page


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_every_prompt_and_the_end_fit_and_can_be_answered(screen):
    """Items 2 and 3: a count's prompt and "Time has expired" fit the screen, their buttons
    on it and uncovered (they were at x 885-1065 of 844); "Record it" records the penalty;
    at the end, "Match sheet" is on the screen, uncovered (the result lay over it), and
    opens the sheet."""
    page = match_mode(screen)
    page.locator("#calc-clock").click()
    half(page, "B").get_by_role("button", name="Count 20 s…,").click()
    assert [] == misplaced(page)
    page.locator("dialog[open]").get_by_role("button", name="Stalling", exact=True).click()
    screen.context.clock.run_for(20_000)
    prompt = page.locator("#calc-prompts .lvl-prompt")
    prompt.wait_for()
    assert BIA in prompt.inner_text()
    assert [] == misplaced(page)
    prompt.get_by_role("button", name=words.UI["count_record"], exact=True).click()
    page.wait_for_function(SETTLED, arg=1)
    screen.context.clock.run_for(40_000)
    page.wait_for_function(SETTLED, arg=2)  # the time expired, recorded by the clock
    expired = page.locator("#calc-prompts .lvl-prompt", has_text=words.UI["time_expired"])
    expired.wait_for()
    assert [] == misplaced(page)
    expired.get_by_role("button", name=words.UI["count_dismiss"], exact=True).click()
    expired.wait_for(state="detached")
    page.locator(".lvl-shared").get_by_role("button", name="End of the match…").click()
    assert [] == misplaced(page)  # the end's dialog: every choice, and Record, on the screen
    page.locator("dialog[open]").get_by_role("button", name="Record", exact=True).click()
    page.wait_for_function("() => document.querySelector('#match-result').dataset.ended === 'true'")
    sheet = page.locator("#calc-sheet-end")
    sheet.wait_for()
    assert [] == misplaced(page)
    sheet.click()
    page.wait_for_url(re.compile(r"/calculator/sheet/"))


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_every_dialog_fits_and_can_be_closed(screen):
    """Each athlete's pickers, the shared ones and the tools' dialogs: every choice and
    the button that closes it on the screen (the dialog scrolls, never the page)."""
    page = match_mode(screen)
    openers = [
        half(page, "B").get_by_role("button", name=name)
        for name in ("Severe or disciplinary foul…,", "Penalty: foul…,", "Technique applied…,",
                     "More…,", "Count 20 s…,", "Mount: other kinds,")
    ]  # fmt: skip
    openers += [page.locator("#calc-time-set")]
    for opener in openers:
        opener.click()
        dialog = page.locator("dialog[open]")
        dialog.wait_for()
        assert [] == misplaced(page), opener
        dialog.locator("[data-close]").last.click()
        dialog.wait_for(state="detached")


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_the_count_chip_covers_no_name_or_score_and_moves_nothing(screen):
    """Item 5: a running count's chip lies over neither athlete's name nor score, and the
    buttons stay where they were."""
    page = match_mode(screen)
    places = """() => [...document.querySelectorAll('.lvl-half button, .lvl-shared button')]
      .map((b) => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"""
    before = page.evaluate(places)
    half(page, "A").get_by_role("button", name="Count 20 s…,").click()
    page.locator("dialog[open]").get_by_role("button", name="Stalling", exact=True).click()
    chip = page.locator('.lvl-athlete .lvl-count[data-athlete="A"]')
    chip.wait_for()
    overlaps = chip.evaluate("""(chip) => {
      const c = chip.getBoundingClientRect();
      const meet = (r) => c.left < r.right && r.left < c.right
        && c.top < r.bottom && r.top < c.bottom;
      return [...document.querySelectorAll('.lvl-athlete [data-name], .lvl-athlete dd')]
        .filter((e) => [...e.getClientRects()].some(meet)).map((e) => e.textContent);
    }""")
    assert [] == overlaps
    assert before == page.evaluate(places)
    assert [] == misplaced(page)


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_the_last_call_and_the_log_cover_no_tool(screen):
    """Item 7: the "Last:" line lies over no tool ("Full screen" was under it), the log
    open or not."""
    page = match_mode(screen)
    half(page, "A").get_by_role("button", name="Takedown, 2 points,").click()
    page.wait_for_function(SETTLED, arg=1)
    page.locator("#calc-last").wait_for()
    assert [] == misplaced(page)
    page.locator("#calc-log-toggle").click()
    page.locator("#calc-log li[data-event]").first.wait_for()
    assert [] == misplaced(page)


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_every_control_shows_without_a_box_that_scrolls(screen):
    """Item 12: match mode shows each athlete's buttons, the shared ones and the tools on
    the screen, none inside a box that scrolls ("Count 20 s" and "More…" were hidden in
    each half's own scroll, upright)."""
    page = match_mode(screen)
    assert [] == misplaced(page)
    scrolling = page.evaluate("""() => [...document.querySelectorAll(
        '.lvl-half, .lvl-shared, .lvl-tools, .lvl-clock, .lvl-athlete')]
      .filter((box) => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowY)
        && (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1))
      .map((box) => box.className + ' ' + (box.dataset.half ?? box.dataset.athlete ?? ''))""")
    assert [] == scrolling
    clipped = page.evaluate("""() => [
        ...document.querySelectorAll('.lvl-athlete dt, .lvl-athlete dd')]
      .filter((e) => e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent)""")
    assert [] == clipped  # "Penaltie" was cut off


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_the_audience_screen_breaks_no_word(screen):
    """Item 12: on the audience screen each word of a name is on one line ("Athlet / e A"
    was not), and every number is inside its athlete's panel."""
    page = match_mode(screen)
    audience = screen.page()
    audience.goto(page.locator("#calc-board-link").evaluate("(a) => a.href"))
    audience.wait_for_function(
        "() => !document.querySelector('.lvl-audience').hasAttribute('data-waiting')"
    )
    broken = audience.evaluate("""() => [...document.querySelectorAll('.lvl-audience [data-name]')]
      .flatMap((name) => {
        const text = name.firstChild;
        return [...text.textContent.matchAll(/\\S+/g)].filter((word) => {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
        }).map((word) => word[0]);
      })""")
    assert [] == broken
    outside = audience.evaluate("""() => [
        ...document.querySelectorAll('.lvl-audience .lvl-athlete')]
      .flatMap((panel) => {
        const p = panel.getBoundingClientRect();
        const shown = [...panel.querySelectorAll('[data-field], dt')].filter((e) => e.textContent);
        return shown.filter((e) => {
          const r = e.getBoundingClientRect();
          return r.left < p.left || r.right > p.right || r.top < p.top || r.bottom > p.bottom;
        }).map((e) => e.textContent);
      })""")
    assert [] == outside


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_each_athletes_button_says_the_athlete(screen):
    """Item 11: a screen reader hears the call and the athlete's name typed at the table
    ("Takedown, 2 points, Ana Carolina Souza"), not "Takedown (2)" on both sides."""
    page = screen.page()
    page.goto(f"{screen.site_url}{NAMED}")
    ready(page)
    for athlete, name in (("A", ANA), ("B", BIA)):
        calls = (f"Takedown, 2 points, {name}", f"Takedown: other kinds, {name}",
                 f"Advantage, {name}", f"More…, {name}")  # fmt: skip
        for call in calls:
            assert 1 == half(page, athlete).get_by_role("button", name=call, exact=True).count()
    half(page, "A").get_by_role("button", name=f"Mount, 4 points, {ANA}", exact=True).click()
    page.wait_for_function(SETTLED, arg=1)


def test_every_field_label_is_a_whole_phrase(built_site):
    """Item 11: each field of the calculator's pickers is labelled by a whole phrase from
    lvl_rules/words (the severe foul's was "technical or disciplinary, if no foul is
    named.")."""
    html = built_site.page("calculator/")
    labels = re.findall(r"<dialog.*?</dialog>", html, flags=re.S)
    shown = {
        re.sub(r"<[^>]+>", "", label).strip()
        for dialog in labels
        for label in re.findall(r"<label[^>]*>(.*?)</label>", dialog, flags=re.S)
    }
    phrases = {text.replace("'", "&#x27;") for text in words.FIELD_LABELS.values()}
    referees = {words.PANEL_LABEL.format(n=n) for n in (1, 2, 3)}
    assert set() == shown - phrases - referees - {words.UI["set_time_label"]}
    assert all(text[0].isupper() and not text.endswith(".") for text in shown)


DETAILS = {"date": "2026-12-07", "event": "Winter Open", "mat": "2", "match_number": "14"}


def cli_sheet(tmp_path, events, details: dict) -> dict:
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events), encoding="utf-8")
    argv = [sys.executable, "-m", "lvl_rules", "sheet", "--edition", AMENDMENT, "--age", "30",
            "--belt", "blue", "--uniform", "gi", "--name-a", ANA, "--name-b", BIA,
            "--colour-b", "yellow", "--json", str(path)]  # fmt: skip
    for name, value in details.items():
        argv += [f"--{name.replace('_', '-')}", value]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


@pytest.mark.parametrize("screen", ["laptop"], indirect=True)
def test_the_sheet_says_the_score_the_details_and_where_to_sign(screen, tmp_path):
    """Item 9: the sheet shows each athlete's final score and the result with its clause;
    the official types the date, event, mat and match number there, and they become part
    of the record (the address, the fingerprint the command line gives with the same
    details, the replay link); lines for the referee's and the table official's
    signatures; on one A4 page; its replay link opens the finished match."""
    from pypdf import PdfReader

    events = forty_events()
    page = screen.page()
    page.goto(f"{screen.site_url}calculator/sheet/?{NAMED.split('?')[1]}"
              f"&events={quote(json.dumps(events))}")  # fmt: skip
    page.wait_for_selector(".lvl-sheet[data-sheet]", state="attached", timeout=ENGINE_MS)
    expected = engine_board(BLUE, events)
    score = page.locator(".lvl-sheet-score")
    for athlete, name in (("A", ANA), ("B", BIA)):
        row = score.locator(f'tr[data-athlete="{athlete}"]')
        assert name in row.locator("th").inner_text()
        shown = tuple(int(cell) for cell in row.locator("td").all_inner_texts())
        assert expected[athlete] == shown
    without = cli_sheet(tmp_path, events, {})
    assert (
        without["fingerprint"]["sha256"] == page.locator('[data-sheet="fingerprint"]').inner_text()
    )
    result = page.locator('[data-sheet="result"]').inner_text()
    assert without["result"]["summary"] in result
    assert f"§{without['result']['cite']}" in result

    form = page.locator('[data-sheet="details-form"]')
    for name, value in DETAILS.items():
        form.locator(f'[name="{name}"]').fill(value)
    form.get_by_role("button", name=words.SHEET["details_apply"]).click()
    given = cli_sheet(tmp_path, events, DETAILS)["fingerprint"]["sha256"]
    page.wait_for_selector(f'.lvl-sheet[data-sheet="{given}"]', state="attached")
    assert given != without["fingerprint"]["sha256"]
    query = parse_qs(urlsplit(page.url).query)
    assert {name: [value] for name, value in DETAILS.items()} == {n: query[n] for n in DETAILS}
    details = page.locator('[data-sheet="details"]').inner_text()
    assert all(value in details for value in DETAILS.values())
    replay = urlsplit(page.locator('[data-sheet="replay"]').get_attribute("href"))
    assert DETAILS["event"] == parse_qs(replay.query)["event"][0]
    signers = page.locator(".lvl-sheet-signatures").inner_text()
    assert all(signer in signers for signer in words.SHEET_SIGNERS)

    page.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    assert 1 == len(pdf.pages)
    text = pdf.pages[0].extract_text()
    for needed in (*words.SHEET_SIGNERS, words.SHEET["score"], DETAILS["event"], given[:16]):
        assert needed in text.replace("\n", " "), needed
    assert words.SHEET["details_form"] not in text  # the form is not printed
    page.emulate_media(media="screen")

    page.goto(page.locator('[data-sheet="replay"]').get_attribute("href"))
    page.wait_for_function(
        "() => document.querySelector('#match-result').dataset.ended === 'true'",
        timeout=ENGINE_MS,
    )


@pytest.mark.parametrize("screen", SIZES, indirect=True)
def test_the_sheet_cuts_off_no_word(screen):
    """Item 10's "Penaltie": the sheet's score and events fit the screen's width, no
    heading cut off."""
    events = forty_events()[:5]
    page = screen.page()
    page.goto(f"{screen.site_url}calculator/sheet/?{NAMED.split('?')[1]}"
              f"&events={quote(json.dumps(events))}")  # fmt: skip
    page.wait_for_selector(".lvl-sheet[data-sheet]", state="attached", timeout=ENGINE_MS)
    cut = page.evaluate("""() => [...document.querySelectorAll('.lvl-sheet th, .lvl-sheet td')]
      .filter((cell) => cell.scrollWidth > cell.clientWidth + 1
        || cell.getBoundingClientRect().right > document.documentElement.clientWidth)
      .map((cell) => cell.textContent)""")
    assert [] == cut
