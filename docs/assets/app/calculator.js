// /calculator/: record a match event by event; the engine scores the whole list each
// time, so the score, the log (each line citing its clause) and the result always come
// from lvl_rules. An event the engine refuses is not added: nothing recorded is lost.

import { engine } from "../engine/engine-client.js";
import { citeLink, fillForm, markInvalid, readForm, showError, syncEditionFields, toParams } from "./division-form.js";
import { showEngineStatus } from "./status.js";

export function mount(form) {
  const page = form.closest("article") ?? document;
  const app = {
    form,
    page,
    root: new URL(form.dataset.root, document.baseURI),
    events: [],
    division: null,
    error: page.querySelector("#calc-error"),
    log: page.querySelector("#calc-log"),
    last: page.querySelector("#calc-last"),
    result: page.querySelector("#match-result"),
    announcer: page.querySelector("#calc-announce"),
    summary: "",
    share: page.querySelector("#calc-share"),
    queue: Promise.resolve(),
  };
  showEngineStatus(engine, page);
  keepBoardHeight(page.querySelector("#calc-board"));
  const params = new URLSearchParams(location.search);
  fillForm(form, params);
  app.division = readForm(form);
  const fromLink = readLinkEvents(params);
  form.addEventListener("change", (event) => later(app, () => changeDivision(app, event)));
  page.querySelector("#calc-recorder").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-event]");
    if (button) {
      const recorded = eventFrom(app, button);
      later(app, () => record(app, recorded));
    }
  });
  page.querySelector("#calc-undo").addEventListener("click", () => later(app, () => retry(app, app.events.slice(0, -1), "Last event undone.")));
  page.querySelector("#calc-reset").addEventListener("click", () => later(app, () => retry(app, [], "New match.")));
  if (fromLink.error) showError(app.error, fromLink.error);
  if (fromLink.events.length || params.has("age")) later(app, () => loadLink(app, fromLink.events, fromLink.error));
  else render(app, null);
}

/** Publish the sticky scoreboard's height, so focus never lands under it (lvl.css). */
function keepBoardHeight(board) {
  if (!board || typeof ResizeObserver === "undefined") return;
  const root = document.documentElement.style;
  new ResizeObserver(() => root.setProperty("--lvl-board-height", `${board.offsetHeight}px`)).observe(board);
}

/** Run page actions one after the other, in the order the person made them. */
function later(app, action) {
  app.queue = app.queue.then(action).catch((error) => console.error("LVL Rules calculator:", error));
}

async function retry(app, events, said) {
  try {
    await score(app, events, { said });
  } catch {
    // score() has shown the engine's message
  }
}

function readLinkEvents(params) {
  const raw = params.get("events");
  if (raw === null || raw === "") return { events: [] };
  try {
    const events = JSON.parse(raw);
    if (Array.isArray(events)) return { events };
    return { events: [], error: new Error("The events in this link are not a list, so none were loaded.") };
  } catch (error) {
    return { events: [], error: new Error(`The events in this link could not be read (${error.message}).`) };
  }
}

/** Load events from a link: keep every event up to the first one the engine refuses. */
async function loadLink(app, events, linkError) {
  try {
    await score(app, events, { quiet: true, said: loaded(events.length) });
    if (linkError) showError(app.error, linkError);
  } catch (error) {
    if (error.kind !== "rules") return;
    const index = /^events\[(\d+)\]/.exec(error.field ?? "");
    if (!index) {
      // The division itself is wrong: say so and mark the field; the person can fix it.
      const both = linkError ? `${linkError.message} ${error.message}` : error.message;
      showError(app.error, new Error(both));
      markInvalid(app.form, error.field);
      return;
    }
    const kept = Number(index[1]);
    await score(app, events.slice(0, kept), { said: loaded(kept) }).catch(() => {});
    showError(app.error, new Error(`Event ${Number(index[1]) + 1} of this link was not recorded: ${error.message}`));
  }
}

function loaded(count) {
  return count ? `Match loaded from the link: ${plural(count, "event")}.` : "";
}

function eventFrom(app, button) {
  const event = JSON.parse(button.dataset.event);
  const scope = button.closest("fieldset");
  const pick = (name) => scope.querySelector(`[data-picker="${name}"]`);
  const athlete = app.page.querySelector('input[name="athlete"]:checked').value;
  if (event.type !== "end" && !event.athlete) event.athlete = athlete;
  switch (event.type) {
    case "advantage":
      if (pick("reason").value) event.reason = pick("reason").value;
      break;
    case "penalty":
      event.foul ??= pick("foul").value;
      if (event.athlete !== "both" && pick("defending").checked) event.defending = true;
      break;
    case "severe-foul":
      event.foul = pick("severe").value;
      break;
    case "technique":
      event.technique = pick("technique").value;
      break;
    case "panel":
      event.rulings = [...scope.querySelectorAll("[data-ruling]")].map((s) => s.value);
      break;
    case "loss-of-consciousness":
      if (pick("head_trauma").checked) event.head_trauma = true;
      break;
    case "end":
      if (pick("referee_decision").value) event.referee_decision = pick("referee_decision").value;
      if (pick("both_injured").checked) event.both_injured = true;
      if (pick("final").checked) event.final = true;
      if (pick("random_draw").value) event.random_draw = pick("random_draw").value;
      break;
  }
  return event;
}

async function record(app, event) {
  try {
    await score(app, [...app.events, event]);
  } catch {
    // score() has shown the engine's message; the log keeps what it had
  }
}

async function changeDivision(app, event) {
  if (event.target.name === "athlete" || event.target.closest(".lvl-recorder")) return;
  if (event.target.name === "edition") syncEditionFields(app.form);
  const before = app.division;
  app.division = readForm(app.form);
  try {
    await score(app, app.events, { said: "Division changed." });
  } catch (error) {
    if ((error.field ?? "").startsWith("events")) {
      // The recorded events do not fit the new edition: go back, keep the match.
      app.division = before;
      fillForm(app.form, toParams(before));
      showError(app.error, new Error(`These events do not fit that division, so it was not changed: ${error.message}`));
    }
  }
}

/** Score `events` for the current division; on success they become the match. */
async function score(app, events, { quiet = false, said } = {}) {
  const request = { action: "score", ...app.division, events };
  try {
    const report = await engine.request(request);
    const before = app.summary;
    app.events = events;
    showError(app.error, null);
    markInvalid(app.form, null);
    render(app, report);
    announce(app, report, before, said);
    return report;
  } catch (error) {
    if (error.kind === "rules" && !quiet) {
      showError(app.error, error);
      markInvalid(app.form, error.field);
    }
    throw error;
  }
}

function render(app, report) {
  const params = toParams(app.division);
  if (app.events.length) params.set("events", JSON.stringify(app.events));
  history.replaceState(history.state, "", `?${params}`);
  app.share.href = location.href;
  app.share.textContent = app.events.length ? `this match (${plural(app.events.length, "event")})` : "this division";
  for (const name of ["A", "B"]) {
    const panel = app.page.querySelector(`[data-athlete="${name}"]`);
    const tally = report?.athletes[name] ?? { points: 0, advantages: 0, penalties: 0, disqualified: false };
    for (const field of ["points", "advantages", "penalties"]) {
      panel.dataset[field] = String(tally[field]);
      panel.querySelector(`[data-field="${field}"]`).textContent = String(tally[field]);
    }
    panel.dataset.disqualified = String(tally.disqualified);
    panel.querySelector('[data-field="status"]').textContent = tally.disqualified
      ? `Disqualified from the ${tally.disqualified_from}`
      : "";
  }
  const result = report?.result;
  app.result.dataset.winner = result?.winner ?? "";
  app.result.dataset.method = result?.method ?? "";
  app.result.replaceChildren(result ? result.summary : "No events yet.");
  if (result?.cite) app.result.append(" ", citeLink(app.root, report.division.edition, result.cite));
  const lines = report?.log ?? [];
  app.log.replaceChildren(...lines.map((line) => logLine(app, report, line)));
  app.last.textContent = lines.length ? `Last: ${lines.at(-1).effect}` : "";
  const ended = Boolean(result?.ended);
  for (const button of app.page.querySelectorAll("button[data-event]")) {
    if (button.disabled !== ended) button.disabled = ended; // unchanged: no style work
  }
  app.page.querySelector("#calc-undo").disabled = app.events.length === 0;
}

/**
 * Tell screen readers what the last action did and the score, in one status message:
 * `said` for undo, new match, division and link, else what the new event did.
 */
function announce(app, report, before, said) {
  app.summary = report.result.summary;
  if (said === "") return; // a division from a link: nothing has happened yet
  const last = app.events.length - 1;
  const what = said ?? report.log.filter((line) => line.event === last).map((line) => line.effect).join(" ");
  const tallies = ["A", "B"].map((name) => {
    const t = report.athletes[name];
    return `Athlete ${name}: ${plural(t.points, "point")}, ${plural(t.advantages, "advantage")}, ${plural(t.penalties, "penalty", "penalties")}.`;
  });
  const result = report.result;
  const outcome = result.ended || result.summary !== before ? result.summary : "";
  app.announcer.textContent = [what, ...tallies, outcome].filter(Boolean).join(" ");
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function logLine(app, report, line) {
  const item = document.createElement("li");
  item.dataset.event = String(line.event);
  const number = document.createElement("span");
  number.className = "lvl-log-n";
  number.textContent = `Event ${line.event + 1}`;
  item.append(number, ` ${line.effect} `, citeLink(app.root, report.division.edition, line.cite));
  return item;
}
