// /calculator/: record a match with each athlete's buttons; the rules engine scores it,
// so the score, the log (each line citing its clause) and the result always come from
// lvl_rules. This module wires the page: the match model (match-state.js) and its clock,
// names and record (match-clock.js, match-setup.js, match-store.js, match-link.js), and
// the views that draw them (calculator-view.js, calculator-log.js, match-mode.js).
//
// A person's input is never dropped: the events recorded (or given in a link) stay in
// the page, the address and this browser's record of the match until the person removes
// them. An event the engine refuses is kept, marked and explained in the log, and the
// events around it are scored; a button press the engine refuses is not added (the
// message says why). Every change can be undone and redone, after a reload too.

import { engine } from "../engine/engine-client.js";
import { drawLog } from "./calculator-log.js";
import { drawBoard } from "./calculator-view.js";
import { fillForm, followAge, readForm, syncEditionFields, toParams } from "./division-form.js";
import { Clock } from "./match-clock.js";
import { eventProblem, linkFor, readLink } from "./match-link.js";
import { startMatchMode } from "./match-mode.js";
import { Setup } from "./match-setup.js";
import { Match } from "./match-state.js";
import { isMatchId, MatchStore, newMatchId } from "./match-store.js";
import { MatchWriter } from "./match-writer.js";
import { fill, pageData } from "./page-data.js";
import { wirePickers } from "./pickers.js";
import { showEngineStatus } from "./status.js";

const KEEP_AFTER_MS = 400; // the record is written once changes pause (and when put away)

export async function mount(form) {
  const page = form.closest("article") ?? document;
  const data = pageData();
  const words = data.words;
  const url = new URL(location.href);
  const params = url.searchParams;
  showEngineStatus(engine, page);
  fillForm(form, params);
  keepUnknownValues(form, params, words);
  delete document.documentElement.dataset.lvlLinkEdition; // the form is as the link gave it

  const id = isMatchId(params.get("match")) ? params.get("match") : newMatchId();
  const writer = new MatchWriter(id);
  await writer.claim({ takeOver: takingOver(id) }); // read-only while another tab records it
  const store = new MatchStore();
  const kept = store.read(id);
  const setup = new Setup(data.setup).read(params, kept?.setup);
  const clock = Clock.from(kept?.clock, { rule: (count) => countRule(form, data, count) });
  const length = Number(params.get("length"));
  if (!kept?.clock && Number.isInteger(length) && length > 0) clock.setLength(length * 1000);

  const link = await readLink(url, data.limits, words);
  const events = link.given || !kept?.events ? link.events : kept.events;
  const division = readForm(form);
  const same = Boolean(kept?.events) && JSON.stringify(kept.events) === JSON.stringify(events);
  const answered = same && kept.rules === engine.rules && JSON.stringify(kept.division) === JSON.stringify(division);
  const match = new Match({
    key: `${id}.${newMatchId()}`,
    ask: (request) => engine.request({ ...request, legality: true }),
    problem: (event, index) => eventProblem(event, index, data.limits, words),
    division,
    names: setup.labels(),
    events,
    history: same ? kept.history : [],
    future: same ? kept.future : [],
    answer: answered ? kept.answer : null,
  });

  const keptAt = kept?.events && !link.given ? kept.saved : 0; // when the match last changed
  const calculator = { page, form, data, words, match, clock, setup, id, raw: link.raw ?? null, keptAt };
  calculator.record = (event, label) => record(calculator, event, label);
  showWriting(calculator, writer.writing);
  writer.onChange = (writing) => showWriting(calculator, writing);
  page.querySelector("#calc-take-over")?.addEventListener("click", () => takeOver(id));
  calculator.board = drawBoard(calculator);
  calculator.log = drawLog(calculator);
  calculator.mode = startMatchMode(calculator, params);
  calculator.refresh = () => {
    calculator.board.draw();
    calculator.mode.draw();
    writeAddress(calculator);
  };
  if (!store.storage) showKept(page, { kept: false, why: "blocked" }, words);
  if (link.error) calculator.board.say(link.error, { error: true });
  if (clock.resumed) calculator.mode.clockNotice(resumedText(clock.resumed, words));

  // What is kept: after every change, once changes pause, and when the page is put away.
  // The address changes once the person changes something, or when the page is put away:
  // until then it stays as it was opened, which the theme's in-page links (made absolute
  // when the page loaded) still point to.
  let pause = null;
  const save = () => {
    clearTimeout(pause);
    if (page.isConnected && !calculator.readOnly) {
      const record = { rules: engine.rules, ...match.toJSON(), clock: clock.toJSON(), setup: setup.toJSON() };
      showKept(page, store.write(id, record), words);
    }
  };
  calculator.keep = () => {
    clearTimeout(pause);
    pause = setTimeout(save, KEEP_AFTER_MS);
  };
  calculator.touch = () => {
    if (!calculator.changed) {
      calculator.changed = true;
      writeAddress(calculator); // from now on the address names the match
    }
    calculator.keep();
  };
  const putAway = () => {
    if (!page.isConnected) return;
    calculator.changed = true;
    writeAddress(calculator);
    save();
  };
  addEventListener("pagehide", putAway);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      clock.putAway();
      putAway();
    } else if (clock.back()) {
      calculator.mode.clockNotice(resumedText(clock.resumed, words));
      calculator.refresh();
    }
  });

  match.subscribe((_, done) => {
    if (!page.isConnected) return;
    if (done?.changes.some((change) => change.kind !== "rescore")) {
      calculator.raw = null; // the person acted: the link is theirs now
      calculator.board.clearSaid();
      calculator.changed = true;
    }
    calculator.refresh();
    if (done) calculator.keep();
  });

  form.addEventListener("change", (event) => {
    if (event.target.closest("[data-setup], dialog")) return;
    if (event.target.name === "edition") syncEditionFields(form);
    followAge(form); // the LVLs or belts of the age entered
    match.setDivision(readForm(form));
  });
  wirePickers(calculator, (event, label) => record(calculator, event, label));
  page.querySelector("#calc-undo").addEventListener("click", () => match.undo());
  page.querySelector("#calc-redo").addEventListener("click", () => match.redo());
  page.querySelector("#calc-reset").addEventListener("click", () => newMatch(calculator));

  calculator.refresh();
  match.rescore();
}

// ---------------------------------------------------------------- one writer per match

const TAKE_OVER_KEY = "lvl-rules.take-over";

/** Read-only while another tab records the match: nothing here can change it, keep it
 * or tell the audience screens. */
function showWriting(calculator, writing) {
  calculator.readOnly = !writing;
  const note = calculator.page.querySelector("#calc-read-only");
  if (note) note.hidden = writing;
  for (const part of calculator.page.querySelectorAll("#calc-board > :not(.lvl-banner)")) part.inert = !writing;
}

/** Take the match over: this page is loaded again from the match as last kept, and
 * takes the match from the tab recording it. */
function takeOver(id) {
  try {
    sessionStorage.setItem(TAKE_OVER_KEY, id);
  } catch {
    // no session storage: the page asks again, and gets the match once the other lets go
  }
  location.reload();
}

function takingOver(id) {
  try {
    const asked = sessionStorage.getItem(TAKE_OVER_KEY) === id;
    sessionStorage.removeItem(TAKE_OVER_KEY);
    return asked;
  } catch {
    return false;
  }
}

/** Whether the match is kept in this browser: if not (storage full or blocked), said at
 * once and until it is, with its link and its sheet to keep instead. */
function showKept(page, { kept, why }, words) {
  const note = page.querySelector("#calc-not-kept");
  if (!note || (!kept && note.dataset.dismissed === why)) return; // said, and seen
  if (!note.dataset.wired) {
    note.dataset.wired = "true";
    note.querySelector('[data-not-kept="dismiss"]').addEventListener("click", () => {
      note.dataset.dismissed = note.dataset.why;
      note.hidden = true;
    });
  }
  if (kept) delete note.dataset.dismissed; // kept again: a new failure is said again
  note.hidden = kept;
  note.dataset.why = why ?? "";
  if (!kept) note.firstElementChild.textContent = why === "full" ? words.not_kept_full : words.not_kept_blocked;
}

/** "Time resumed after 3 min away: check the clock." (or that the device's clock went back). */
function resumedText(resumed, words) {
  if (resumed.back) return words.clock_went_back;
  const seconds = Math.round(resumed.away / 1000);
  const away = seconds >= 60 ? fill(words.away_minutes, { n: Math.round(seconds / 60) }) : fill(words.away_seconds, { n: seconds });
  return fill(words.clock_resumed, { away });
}

/** Record a call: the match time it was made at goes with it. */
export function record(calculator, event, label) {
  const { match, clock } = calculator;
  if (calculator.readOnly) return;
  const timed = { ...event };
  if (clock.running || clock.elapsed() > 0) timed.time = Math.floor(clock.elapsed() / 1000);
  return match.press(timed, label ?? "");
}

/** A count's rule in the edition shown (its seconds, which clock it follows, its call). */
function countRule(form, data, count) {
  const edition = form.elements.edition.value;
  const counts = data.counts[edition] ?? data.counts[Object.keys(data.counts).at(-1)] ?? {};
  return Object.hasOwn(counts, count) ? counts[count] : null;
}

/** The address: the division, the match's id, names, length, mode, and its events. */
async function writeAddress(calculator) {
  const { match, setup, clock, id } = calculator;
  const token = (calculator.writing = (calculator.writing ?? 0) + 1);
  const params = toParams(match.division);
  params.set("match", id);
  setup.addParams(params);
  if (clock.length) params.set("length", String(Math.round(clock.length / 1000)));
  if (calculator.mode?.shown) params.set("mode", "match");
  let hash = "";
  const raw = calculator.raw;
  if (raw) {
    if (raw.hash) hash = `#${new URLSearchParams({ [raw.name]: raw.value })}`;
    else params.set(raw.name, raw.value);
  } else {
    ({ hash } = await linkFor(params, match.toJSON().events));
  }
  if (token !== calculator.writing || !calculator.page.isConnected) return; // a later change wrote its own
  const address = new URL(`?${params}${hash}`, location.href);
  if (calculator.changed && address.href !== location.href) history.replaceState(history.state, "", address);
  calculator.board.shared(address.href);
}

/** A new match: this one stays kept in this browser (Back returns to it). */
function newMatch(calculator) {
  const { match, form } = calculator;
  const params = toParams(readForm(form));
  params.set("match", newMatchId());
  if (calculator.clock.length) params.set("length", String(Math.round(calculator.clock.length / 1000)));
  const next = new URL(`?${params}`, location.href);
  calculator.keep();
  // Followed as a link is (as the theme itself does): its instant navigation keeps the
  // engine running; without it, a plain page load.
  match.settled().then(() => {
    const link = document.createElement("a");
    link.href = next.href;
    document.body.append(link);
    link.click();
    link.remove();
  });
}

/** An edition or prior experience the form does not know: kept, for the engine to name. */
function keepUnknownValues(form, params, words) {
  const edition = params.get("edition");
  const select = form.elements.edition;
  if (edition && ![...select.options].some((o) => o.value === edition)) {
    select.add(new Option(fill(words.unknown_value, { value: edition }), edition));
    select.value = edition;
    syncEditionFields(form);
  }
  const known = new Set([...form.querySelectorAll('input[name="experience"]:not(:disabled)')].map((box) => box.value));
  const unknown = params
    .getAll("experience")
    .flatMap((v) => v.split(","))
    .filter((v) => v && !known.has(v));
  if (!unknown.length) return;
  const holder = document.createElement("div");
  holder.className = "lvl-field";
  for (const value of unknown) {
    const label = document.createElement("label");
    label.className = "lvl-check";
    const box = document.createElement("input");
    Object.assign(box, { type: "checkbox", name: "experience", value, checked: true });
    label.append(box, ` ${fill(words.unknown_value, { value })}`);
    holder.append(label);
  }
  form.append(holder);
}
