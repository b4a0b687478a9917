// The calculator's log, drawn from the match's owner (match-owner.js): one item per
// event (its match time, the engine's lines, each citing its clause, or why it is not
// scored), then the calls waiting for the engine. A tap on an item corrects or deletes that event. Only what
// changed is drawn again, and a long log in slices that keep the page responsive.

import { callWords } from "./call-words.js";
import { citeLink } from "./division-form.js";
import { clockText } from "./match-clock.js";
import { openPicker } from "./pickers.js";
import { readingMark } from "./reading-mark.js";
import { fill } from "./page-data.js";

const SLICE = 300; // log items drawn per task
const BLOCK = 200; // log items per list: a list out of view is not laid out (match.css)

export function drawLog(owner, { page, form, data, words }) {
  let match = owner.match;
  const log = page.querySelector("#calc-log");
  const root = new URL(form.dataset.root, document.baseURI);
  const dialog = page.querySelector("#calc-editor");
  const items = [];
  const blocks = [];
  const waitingList = document.createElement("ol");
  waitingList.className = "lvl-log-waiting";
  let shown = { events: [], firsts: [], status: null, limited: new Map(), edition: null };
  let drawing = 0;

  log.addEventListener("click", (event) => {
    if (event.target.closest("a")) return; // a clause link
    const item = event.target.closest("li[data-event]");
    if (item) owner.correct(Number(item.dataset.event));
  });
  wireEditor();

  /** The first line of each event (the lines come sorted by event). */
  function firstLines() {
    const firsts = new Array(match.events.length).fill(null);
    for (const line of match.lines) if (line.event < firsts.length && firsts[line.event] === null) firsts[line.event] = line;
    return firsts;
  }

  function draw() {
    if (match !== owner.match) shown = { events: [], firsts: [], status: null, limited: new Map(), edition: null };
    match = owner.match;
    const events = match.events;
    const firsts = firstLines();
    const edition = match.division.edition;
    let from = 0;
    if (shown.status === match.status && shown.edition === edition) {
      const end = Math.min(shown.events.length, events.length);
      while (from < end && shown.events[from] === events[from] && shown.firsts[from] === firsts[from]) from++;
      for (const index of new Set([...shown.limited.keys(), ...match.limited.keys()])) {
        if (shown.limited.get(index) !== match.limited.get(index)) from = Math.min(from, index);
      }
    }
    from = Math.min(from, items.length); // a long log may still be drawing
    for (const item of items.splice(from)) item.remove();
    for (const block of blocks.splice(Math.ceil(from / BLOCK))) block.remove();
    shown = { events, firsts, status: match.status, limited: match.limited, edition };
    log.dataset.source = match.source ?? "";
    if (!match.source) delete log.dataset.source;
    drawWaiting();
    const token = ++drawing;
    const slices = async () => {
      for (let start = from; start < events.length; start += SLICE) {
        if (token !== drawing) return;
        for (let index = start; index < Math.min(events.length, start + SLICE); index++) {
          const item = logItem(index);
          items.push(item);
          block(index).append(item);
        }
        if (start + SLICE < events.length) await yieldToPage();
      }
      log.append(waitingList); // after the last block
    };
    return slices();
  }

  function drawWaiting() {
    const waiting = match.waiting;
    waitingList.replaceChildren(
      ...waiting.map((change) => {
        const item = document.createElement("li");
        item.dataset.waiting = "true";
        const athlete = change.event?.athlete;
        const who = athlete === "A" || athlete === "B" ? `${owner.setup.label(athlete)}: ` : "";
        item.textContent = fill(words.call_waiting, { call: `${who}${change.label}` });
        return item;
      }),
    );
    if (!waitingList.isConnected) log.append(waitingList);
  }

  /** The list that holds the log item of event `index` (made when first needed). */
  function block(index) {
    const number = Math.floor(index / BLOCK);
    while (blocks.length <= number) {
      const list = document.createElement("ol");
      list.className = "lvl-log-block";
      list.start = blocks.length * BLOCK + 1;
      waitingList.before(list);
      blocks.push(list);
    }
    return blocks[number];
  }

  function logItem(index) {
    const event = match.events[index];
    const item = document.createElement("li");
    item.dataset.event = String(index);
    const number = document.createElement("button");
    number.type = "button";
    number.className = "lvl-log-n";
    number.textContent = fill(words.correct_title, { n: index + 1 });
    number.setAttribute("aria-label", fill(words.correct, { n: index + 1 }));
    item.append(number, " ");
    if (Number.isFinite(event?.time)) {
      const time = document.createElement("span");
      time.className = "lvl-log-time";
      time.textContent = clockText(event.time * 1000, { up: true });
      item.append(time, " ");
    }
    const limited = match.limited.get(index);
    const lines = match.status === "scored" && limited === undefined ? match.linesOf(index) : [];
    if (!lines.length || lines.some((line) => line.refused)) {
      item.dataset.scored = "false";
      const text = document.createElement("span");
      if (limited !== undefined) text.textContent = limited;
      else if (lines.length) text.textContent = lines.map((line) => line.effect).join(" ");
      else text.textContent = match.status === "division" ? words.waiting_division : words.waiting_engine;
      // The event in words (issue 39, item 13); its JSON only for an event no call makes.
      const call = callWords(event, data.calls?.[match.division.edition], words, (a) => owner.setup.label(a));
      const raw = document.createElement(call ? "span" : "code");
      raw.textContent = call ?? shortJSON(event);
      item.append(text, " ", raw);
      return item;
    }
    for (const line of lines) {
      const text = document.createElement("span");
      text.className = "lvl-line";
      text.append(`${line.effect} `);
      if (line.cite) text.append(citeLink(root, match.division.edition, line.cite));
      const mark = readingMark(root, match.division.edition, line.readings, words.our_reading);
      if (mark) text.append(" ", mark);
      item.append(text, " ");
    }
    return item;
  }

  // ------------------------------------------------------------ corrections

  function wireEditor() {
    dialog.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      const target = dialog.target;
      dialog.close();
      if (button.dataset.give && target && typeof target === "object") {
        owner.replace(target, { ...target, athlete: button.dataset.give });
      } else if ("delete" in button.dataset && dialog.target !== undefined) {
        owner.remove(target);
      }
    });
  }

  /** Open the editor on event `at` (a correction keeps to that event, wherever it goes). */
  function edit(at) {
    const event = match.events[at];
    if (at < 0 || at >= match.events.length) return;
    dialog.target = event;
    dialog.querySelector("#calc-editor-title").textContent = fill(words.correct_title, { n: at + 1 });
    const lines = match.linesOf(at).map((line) => line.effect);
    dialog.querySelector("#calc-editor-line").textContent = lines.join(" ") || match.limited.get(at) || shortJSON(event);
    const athlete = event && typeof event === "object" ? event.athlete : undefined;
    for (const button of dialog.querySelectorAll("[data-give]")) {
      const name = button.dataset.give;
      button.textContent = fill(words.give_to, { name: owner.setup.label(name) });
      button.hidden = !(athlete === "A" || athlete === "B") || athlete === name;
    }
    openPicker(dialog);
  }

  owner.subscribe((_, change) => {
    if (!page.isConnected) return;
    if (change.kind === "correct") edit(change.at);
    else if (change.kind === "match" || change.kind === "setup" || change.kind === "writing") draw();
  });
  draw();
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

function shortJSON(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text ??= String(value);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}
