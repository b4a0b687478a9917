// /calculator/: record a match with each athlete's buttons; the engine scores it, so the
// score, the log (each line citing its clause) and the result always come from
// lvl_rules. The match mode (match-mode.js) adds the clock, the counts, the full screen
// and the audience screen.
//
// A person's input is never dropped: the events recorded (or given in a link) stay in
// the page and the URL until the person removes them. An event the engine refuses is
// kept, marked and explained in the log, and the events around it are scored; while the
// division is not valid, the events wait. A button press the engine refuses is not
// added (the message says why). Every change can be undone and redone.
//
// Scoring grows with the change, not with the match: the engine keeps the last match
// and re-scores only from the first changed event, and it sends back only the log lines
// from there (log_from); the log is redrawn from there, in slices that keep the page
// responsive.

import { engine } from "../engine/engine-client.js";
import { citeLink, fillForm, followAge, markInvalid, readForm, showError, syncEditionFields, toParams } from "./division-form.js";
import { eventProblem, parseEvents } from "./link-limits.js";
import { startMatchMode } from "./match-mode.js";
import { fill, pageData, plural } from "./page-data.js";
import { openPicker, wirePickers } from "./pickers.js";
import { rememberBoard, rememberedBoard } from "./remembered.js";
import { showEngineStatus } from "./status.js";

const HISTORY = 200; // undo steps kept
const ROUNDS = 200; // at most this many refused events are set aside in one scoring
const SLICE = 300; // log items drawn per task
const BLOCK = 200; // log items per list: a list out of view is not laid out (match.css)
// A long match goes into the URL's fragment, compressed (#events-gzip=...): the fragment
// stays in the browser (servers refuse request lines much longer than this; 8 KB is a
// common limit), and writing a URL of 10,000 plain events takes the browser ~350 ms.
const QUERY_LIMIT = 6000;
const PACKED = "events-gzip";

export function mount(form) {
  const page = form.closest("article") ?? document;
  const data = pageData();
  const app = {
    form,
    page,
    data,
    words: data.words,
    root: new URL(form.dataset.root, document.baseURI),
    events: [],
    division: null,
    report: null, // the last answer: tallies and result
    lines: [], // its log lines, with `at` (the event's index in app.events)
    sent: [], // the events scored last (the same objects as in app.events)
    sentDivision: "",
    notScored: new Map(), // index in app.events -> why it is not scored
    notScoredShown: new Map(),
    waiting: false, // the division is not valid: nothing is scored
    rendered: [], // the events the log shows, and its items
    items: [],
    blocks: [],
    drawing: 0,
    history: [],
    future: [],
    rawLink: null, // events of a link that could not be read, kept as they were: {name, value, hash}
    summary: "",
    queue: Promise.resolve(),
    error: page.querySelector("#calc-error"),
    log: page.querySelector("#calc-log"),
    last: page.querySelector("#calc-last"),
    result: page.querySelector("#match-result"),
    announcer: page.querySelector("#calc-announce"),
    share: page.querySelector("#calc-share"),
    board: page.querySelector("#calc-board"),
    listeners: new Set(), // match-mode.js: told after each render
  };
  showEngineStatus(engine, page);
  const params = new URLSearchParams(location.search);
  fillForm(form, params);
  keepUnknownValues(app, params);
  app.division = readForm(form);
  form.addEventListener("change", (event) => later(app, () => changeDivision(app, event)));
  wirePickers(app, (event) => later(app, () => record(app, event)));
  page.querySelector("#calc-undo").addEventListener("click", () => later(app, () => undo(app)));
  page.querySelector("#calc-redo").addEventListener("click", () => later(app, () => redo(app)));
  page.querySelector("#calc-reset").addEventListener("click", () => later(app, () => change(app, [], app.words.new_match)));
  app.log.addEventListener("click", (event) => {
    if (event.target.closest("a")) return; // a clause link
    const item = event.target.closest("li[data-event]");
    if (item) openEditor(app, Number(item.dataset.event));
  });
  app.last.addEventListener("click", () => {
    const at = Number(app.last.dataset.event);
    if (Number.isInteger(at)) openEditor(app, at);
  });
  wireEditor(app);
  app.redraw = () => render(app);
  app.recordEvent = (event) => later(app, () => record(app, event));
  app.isTimeExpired = () => timeExpired(app);
  app.match = startMatchMode(app, params);
  const remember = () => keepBoard(app);
  addEventListener("pagehide", remember);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) remember();
    else app.keptReport = null; // back in view: the next time it is put away, keep again
  });
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (params.has("events") || fragment.has("events") || fragment.has(PACKED) || params.has("age")) {
    later(app, () => loadLink(app, params, fragment));
  } else {
    render(app);
  }
  legality(app);
}

/** Run page actions one after the other, in the order the person made them. */
export function later(app, action) {
  app.queue = app.queue.then(action).catch((error) => console.error("LVL Rules calculator:", error));
  return app.queue;
}

// ---------------------------------------------------------------- the link

async function readLinkEvents(app, params, fragment) {
  const [name, value, hash] = params.has("events")
    ? ["events", params.get("events"), false]
    : fragment.has("events")
      ? ["events", fragment.get("events"), true]
      : [PACKED, fragment.get(PACKED), true];
  if (value === null || value === "") return { events: [] };
  const keep = (error) => {
    app.rawLink = { name, value, hash };
    return { events: [], error };
  };
  let text = value;
  try {
    if (name === PACKED) text = await unpack(value);
  } catch (error) {
    return keep(new Error(fill(app.words.not_json, { reason: error.message })));
  }
  let events;
  try {
    events = parseEvents(text, app.data.limits, app.words);
  } catch (error) {
    if (error instanceof SyntaxError) return keep(new Error(fill(app.words.not_json, { reason: error.message })));
    return keep(error); // a limit: the message names it
  }
  if (Array.isArray(events)) return { events };
  return keep(new Error(app.words.not_list));
}

/** An edition or prior experience the form does not know: kept, for the engine to name. */
function keepUnknownValues(app, params) {
  const { form } = app;
  const edition = params.get("edition");
  const select = form.elements.edition;
  if (edition && ![...select.options].some((o) => o.value === edition)) {
    select.add(new Option(fill(app.words.unknown_value, { value: edition }), edition));
    select.value = edition;
    syncEditionFields(form);
  }
  const known = new Set([...form.querySelectorAll('input[name="experience"]:not(:disabled)')].map((box) => box.value));
  const unknown = params.getAll("experience").flatMap((v) => v.split(",")).filter((v) => v && !known.has(v));
  if (!unknown.length) return;
  const holder = document.createElement("div");
  holder.className = "lvl-field";
  for (const value of unknown) {
    const label = document.createElement("label");
    label.className = "lvl-check";
    const box = document.createElement("input");
    Object.assign(box, { type: "checkbox", name: "experience", value, checked: true });
    label.append(box, ` ${fill(app.words.unknown_value, { value })}`);
    holder.append(label);
  }
  form.append(holder);
}

async function loadLink(app, params, fragment) {
  const link = await readLinkEvents(app, params, fragment);
  const linkError = link.error;
  if (linkError) showError(app.error, linkError);
  app.events = link.events;
  if (engine.state !== "ready") showRemembered(app);
  const count = app.events.length;
  await rescore(app, { said: count ? plural(app.words.loaded, count) : "" });
  if (linkError && app.error.hidden) showError(app.error, linkError);
}

// The board as the engine last answered it for this match (remembered.js), while the
// engine starts.
function showRemembered(app) {
  const division = JSON.stringify(app.division);
  const board = rememberedBoard({ rules: engine.rules, division, events: app.events });
  if (!board) return;
  app.report = board.report;
  app.lines = board.lines;
  app.log.dataset.source = "remembered";
  render(app);
}

// When the page is put away: the board, if the engine scored every event of the match.
// Closing a tab fires "visibilitychange" and then "pagehide": the board is kept once.
function keepBoard(app) {
  const scoredAll = app.sent.length === app.events.length && !app.notScored.size;
  if (!app.log.isConnected || app.waiting || !scoredAll) return; // left by instant navigation
  if (app.log.dataset.source !== "engine" || app.keptReport === app.report) return;
  app.keptReport = app.report;
  rememberBoard({
    rules: engine.rules,
    division: app.sentDivision,
    events: app.sent,
    report: app.report,
    lines: app.lines,
  });
}

// ---------------------------------------------------------------- changes

async function record(app, event) {
  const before = app.events;
  await change(app, [...before, event]);
  const at = before.length;
  if (app.notScored.has(at) && !app.waiting) {
    // A button press the rules refuse is not added; the message says why.
    const why = app.notScored.get(at);
    app.history.pop();
    await rescore(app, { events: before, quiet: true });
    showError(app.error, new Error(why));
  }
}

/** Make `events` the match, remembering the one before for undo. */
export async function change(app, events, said) {
  app.history.push(app.events);
  if (app.history.length > HISTORY) app.history.shift();
  app.future = [];
  app.rawLink = null;
  await rescore(app, { events, said });
}

async function undo(app) {
  if (!app.history.length) return;
  app.future.push(app.events);
  await rescore(app, { events: app.history.pop(), said: app.words.undone });
}

async function redo(app) {
  if (!app.future.length) return;
  app.history.push(app.events);
  await rescore(app, { events: app.future.pop(), said: app.words.redone });
}

async function changeDivision(app, event) {
  if (event.target.closest("[data-setup], dialog")) return;
  if (event.target.name === "edition") syncEditionFields(app.form);
  followAge(app.form); // the LVLs or belts of the age entered
  app.division = readForm(app.form);
  await rescore(app, { said: app.words.division_changed });
  legality(app);
}

// ---------------------------------------------------------------- scoring

/**
 * Score `events` (default: the match as it is) for the current division; they become
 * the match whatever the engine says. Refused events are set aside one by one, each
 * with the engine's reason, and the rest scored.
 */
async function rescore(app, { events = app.events, said, quiet = false } = {}) {
  app.events = events;
  const words = app.words;
  const notScored = new Map(); // beyond the limits: never sent to the engine
  for (const [index, event] of events.entries()) {
    const problem = eventProblem(event, index, app.data.limits, words);
    if (problem) notScored.set(index, problem);
  }
  let at = events.map((_, index) => index).filter((index) => !notScored.has(index));
  const division = JSON.stringify(app.division);
  let report = null;
  let failure = null;
  for (let round = 0; round <= ROUNDS && !report; round++) {
    const sent = at.map((index) => events[index]);
    const from = division === app.sentDivision ? sameStart(app.sent, sent) : 0;
    try {
      report = await engine.request({ action: "score", ...app.division, events: sent, log_from: from });
      keepLines(app, report, at, from);
      app.sent = sent;
      app.sentDivision = division;
    } catch (error) {
      const index = error.kind === "rules" ? /^events\[(\d+)\]/.exec(error.field ?? "") : null;
      if (!index || round === ROUNDS) {
        failure = error;
        break;
      }
      const refused = at[Number(index[1])];
      notScored.set(refused, fill(words.not_scored, { message: error.message }));
      at = at.filter((i) => i !== refused);
    }
  }
  app.notScored = notScored;
  app.waiting = Boolean(failure);
  if (failure) {
    delete app.log.dataset.source;
    app.report = null;
    app.sent = [];
    app.lines = [];
    const division = failure.kind === "rules" && !/^events/.test(failure.field ?? "");
    const message = division ? fill(words.division_error, { message: failure.message }) : fill(words.engine_failed, { message: failure.message });
    showError(app.error, new Error(message));
    markInvalid(app.form, division ? failure.field : null);
  } else {
    app.report = report;
    app.log.dataset.source = "engine";
    markInvalid(app.form, null);
    if (notScored.size && !quiet) showError(app.error, new Error(plural(words.not_scored_events, notScored.size)));
    else showError(app.error, null);
  }
  render(app);
  if (!quiet) announce(app, said);
}

/** How many events at the start of both lists are the very same objects. */
function sameStart(before, now) {
  const end = Math.min(before.length, now.length);
  let count = 0;
  while (count < end && before[count] === now[count]) count++;
  return count;
}

/** The log lines of the answer, after those kept from before `from` (sent indices). */
function keepLines(app, report, at, from) {
  const kept = app.lines.filter((line) => line.sent < from);
  const fresh = report.log.map((line) => ({ ...line, sent: line.event, at: at[line.event] }));
  for (const line of kept) line.at = at[line.sent]; // set-aside events may have moved
  app.lines = kept.concat(fresh);
}

// ---------------------------------------------------------------- what the page shows

function render(app) {
  const words = app.words;
  writeURL(app);
  const report = app.report;
  for (const name of ["A", "B"]) {
    const panel = app.page.querySelector(`.lvl-athlete[data-athlete="${name}"]`);
    const tally = report?.athletes[name] ?? { points: 0, advantages: 0, penalties: 0, disqualified: false };
    for (const field of ["points", "advantages", "penalties"]) {
      const text = String(tally[field]);
      if (panel.dataset[field] !== text) panel.dataset[field] = text;
      const cell = panel.querySelector(`[data-field="${field}"]`);
      if (cell.textContent !== text) cell.textContent = text;
    }
    panel.dataset.disqualified = String(tally.disqualified);
    panel.querySelector('[data-field="status"]').textContent = tally.disqualified ? words.disqualified[tally.disqualified_from] : "";
  }
  const result = report?.result;
  app.result.dataset.winner = result?.winner ?? "";
  app.result.dataset.method = result?.method ?? "";
  app.result.dataset.ended = String(Boolean(result?.ended));
  app.board.dataset.ended = app.result.dataset.ended; // match.css shows the result in match mode
  app.result.replaceChildren(result && app.events.length ? result.summary : words.no_events);
  if (result?.cite && app.events.length) app.result.append(" ", citeLink(app.root, report.division.edition, result.cite));
  const last = app.lines.at(-1);
  app.last.hidden = !last;
  app.last.textContent = last ? fill(words.last, { effect: last.effect }) : "";
  if (last) app.last.dataset.event = String(last.at);
  drawLog(app);
  enableButtons(app);
  for (const listener of app.listeners) listener(app);
}

async function writeURL(app) {
  const token = (app.writing = (app.writing ?? 0) + 1);
  const params = toParams(app.division);
  app.match?.addParams(params);
  const events = app.events.length ? JSON.stringify(app.events) : null;
  let hash = "";
  const raw = app.rawLink;
  if (raw) {
    if (raw.hash) hash = `#${new URLSearchParams({ [raw.name]: raw.value })}`;
    else params.set(raw.name, raw.value);
  } else if (events !== null) {
    if (events.length + params.toString().length <= QUERY_LIMIT) params.set("events", events);
    else hash = `#${await packed(events)}`;
  }
  if (token !== app.writing) return; // a later change has written its own
  history.replaceState(history.state, "", `?${params}${hash}`);
  app.share.href = location.href;
  app.share.textContent = app.events.length ? plural(app.words.share_match, app.events.length) : app.words.share_division;
}

/** The events, gzip-compressed in base64url, as a fragment parameter (plain where the
 * browser cannot compress). */
async function packed(text) {
  if (typeof CompressionStream !== "function") return new URLSearchParams({ events: text }).toString();
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const base64 = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `${PACKED}=${base64}`;
}

async function unpack(base64) {
  const binary = atob(base64.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** Which buttons can record now: once the match has ended, only what may follow it
 * (the restart after a disqualification in error), after time only what the rules
 * allow then; undo and redo when there is something to undo or redo. */
function enableButtons(app) {
  const ended = Boolean(app.report?.result.ended);
  const timeUp = !ended && timeExpired(app);
  const edition = app.division?.edition ?? app.form.elements.edition.value;
  const presets = app.data.presets[edition] ?? {};
  for (const button of app.board.querySelectorAll(".lvl-controls [data-preset]")) {
    const event = presets[button.dataset.preset];
    const kind = event && app.data.events[event.type];
    let off = false;
    if (kind && ended) off = !kind.after_end;
    else if (kind && timeUp) off = !kind.after_time;
    if (button.disabled !== off) button.disabled = off;
  }
  app.page.querySelector("#calc-undo").disabled = app.history.length === 0;
  app.page.querySelector("#calc-redo").disabled = app.future.length === 0;
}

/** Whether time has expired in the match as scored (the match mode's clock asks). */
export function timeExpired(app) {
  return app.sent.some((event) => event.type === "time-expired");
}

function announce(app, said) {
  const report = app.report;
  if (said === "" || !report) return; // a division from a link: nothing has happened yet
  const words = app.words;
  const last = app.sent.length - 1;
  const what = said ?? app.lines.filter((line) => line.sent === last).map((line) => line.effect).join(" ");
  const tallies = ["A", "B"].map((name) => {
    const t = report.athletes[name];
    return fill(words.tally, {
      name: app.match?.name(name) ?? fill(words.athlete, { athlete: name }),
      points: plural(words.count_points, t.points),
      advantages: plural(words.count_advantages, t.advantages),
      penalties: plural(words.count_penalties, t.penalties),
    });
  });
  const result = report.result;
  const before = app.summary;
  app.summary = result.summary;
  const outcome = result.ended || result.summary !== before ? result.summary : "";
  app.announcer.textContent = [what, ...tallies, outcome].filter(Boolean).join(" ");
}

// ---------------------------------------------------------------- the log

/** Redraw the log from the first event whose item may differ (the event itself, whether
 * it is scored, the division); long logs in slices. */
function drawLog(app) {
  const events = app.events;
  let from = sameStart(app.rendered, events);
  if (app.waitingShown !== app.waiting || app.divisionShown !== app.sentDivision) from = 0;
  for (const index of new Set([...app.notScoredShown.keys(), ...app.notScored.keys()])) {
    if (app.notScoredShown.get(index) !== app.notScored.get(index)) from = Math.min(from, index);
  }
  from = Math.min(from, app.items.length); // a long log may still be drawing
  for (const item of app.items.splice(from)) item.remove();
  for (const block of app.blocks.splice(Math.ceil(from / BLOCK))) block.remove();
  app.rendered = events;
  app.notScoredShown = app.notScored;
  app.waitingShown = app.waiting;
  app.divisionShown = app.sentDivision;
  const byEvent = new Map();
  for (const line of app.lines) {
    if (line.at < from) continue;
    if (!byEvent.has(line.at)) byEvent.set(line.at, []);
    byEvent.get(line.at).push(line);
  }
  const token = ++app.drawing;
  const draw = async () => {
    for (let start = from; start < events.length; start += SLICE) {
      if (token !== app.drawing) return;
      for (let index = start; index < Math.min(events.length, start + SLICE); index++) {
        const item = logItem(app, index, byEvent.get(index) ?? []);
        app.items.push(item);
        block(app, index).append(item);
      }
      if (start + SLICE < events.length) await yieldToPage();
    }
  };
  return draw();
}

/** The list that holds the log item of event `index` (made when first needed). */
function block(app, index) {
  const number = Math.floor(index / BLOCK);
  while (app.blocks.length <= number) {
    const list = document.createElement("ol");
    list.className = "lvl-log-block";
    list.start = app.blocks.length * BLOCK + 1;
    app.log.append(list);
    app.blocks.push(list);
  }
  return app.blocks[number];
}

/** Let the page draw and answer input between slices (not a timer: the tests' clock
 * controls timers). */
function yieldToPage() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

function logItem(app, index, lines) {
  const words = app.words;
  const item = document.createElement("li");
  item.dataset.event = String(index);
  const number = document.createElement("button");
  number.type = "button";
  number.className = "lvl-log-n";
  number.textContent = fill(words.correct_title, { n: index + 1 });
  number.setAttribute("aria-label", fill(words.correct, { n: index + 1 }));
  item.append(number, " ");
  const why = app.notScored.get(index);
  if (why !== undefined || app.waiting) {
    item.dataset.scored = "false";
    const text = document.createElement("span");
    text.textContent = why ?? words.waiting_division;
    const raw = document.createElement("code");
    raw.textContent = shortJSON(app.events[index]);
    item.append(text, " ", raw);
    return item;
  }
  for (const line of lines) {
    const text = document.createElement("span");
    text.className = "lvl-line";
    text.append(`${line.effect} `, citeLink(app.root, app.report.division.edition, line.cite));
    item.append(text, " ");
  }
  return item;
}

function shortJSON(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

// ---------------------------------------------------------------- corrections

function wireEditor(app) {
  const dialog = app.page.querySelector("#calc-editor");
  dialog.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const at = Number(dialog.dataset.event);
    if (button.dataset.give) {
      const changed = { ...app.events[at], athlete: button.dataset.give };
      const events = app.events.slice();
      events[at] = changed;
      dialog.close();
      later(app, () => change(app, events, fill(app.words.corrected, { n: at + 1 })));
    } else if ("delete" in button.dataset) {
      dialog.close();
      later(app, () => change(app, app.events.filter((_, i) => i !== at), fill(app.words.deleted, { n: at + 1 })));
    } else if ("close" in button.dataset) {
      dialog.close();
    }
  });
}

function openEditor(app, at) {
  const dialog = app.page.querySelector("#calc-editor");
  const event = app.events[at];
  if (event === undefined) return;
  const words = app.words;
  dialog.dataset.event = String(at);
  dialog.querySelector("#calc-editor-title").textContent = fill(words.correct_title, { n: at + 1 });
  const lines = app.lines.filter((line) => line.at === at).map((line) => line.effect);
  dialog.querySelector("#calc-editor-line").textContent = lines.join(" ") || app.notScored.get(at) || shortJSON(event);
  const athlete = event && typeof event === "object" ? event.athlete : undefined;
  for (const button of dialog.querySelectorAll("[data-give]")) {
    const name = button.dataset.give;
    button.textContent = fill(words.give_to, { name: app.match?.name(name) ?? fill(words.athlete, { athlete: name }) });
    button.hidden = !(athlete === "A" || athlete === "B") || athlete === name;
  }
  openPicker(dialog);
}

// ---------------------------------------------------------------- techniques

/** Put the techniques that are illegal for the division first in the technique picker. */
async function legality(app) {
  let answer;
  try {
    answer = await engine.request({ action: "eligibility", ...app.division });
  } catch {
    return; // the division is not valid yet: the catalogue order stays
  }
  const legal = new Map(answer.techniques.map((t) => [t.id, t.legal]));
  for (const picker of app.board.querySelectorAll('dialog [data-legal-group="true"]')) {
    const dialog = picker.closest("dialog");
    const illegal = dialog.querySelector('[data-legal-group="false"]');
    const buttons = [...dialog.querySelectorAll('button[data-slot="technique"]')];
    for (const button of buttons) {
      (legal.get(button.dataset.value) === false ? illegal : picker).append(button);
    }
    for (const heading of dialog.querySelectorAll("[data-legal-heading]")) {
      heading.hidden = !illegal.children.length;
    }
  }
}
