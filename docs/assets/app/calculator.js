// /calculator/: record a match with each athlete's buttons; the rules engine scores it,
// so the score, the log (each line citing its clause) and the result always come from
// lvl_rules. This module wires the page: the owner of the live match (match-owner.js:
// the match, its clock, names, address and record, with one subscribe) and the views
// that draw from it and call its methods (calculator-view.js, calculator-log.js,
// match-mode.js, pickers.js).
//
// A person's input is never dropped: the events recorded (or given in a link) stay in
// the page, the address and this browser's record of the match until the person removes
// them. An event the engine refuses is kept, marked and explained in the log, and the
// events around it are scored; a button press the engine refuses is not added (the
// message says why). Every change can be undone and redone, after a reload too.

import { engine } from "../engine/engine-client.js";
import { drawLog } from "./calculator-log.js";
import { drawBoard } from "./calculator-view.js";
import { fillForm, followAge, readForm, syncEditionFields } from "./division-form.js";
import { eventProblem, readLink } from "./match-link.js";
import { startMatchMode } from "./match-mode.js";
import { MatchOwner } from "./match-owner.js";
import { offerResume, wireNewMatch } from "./match-resume.js";
import { isMatchId, MatchStore, newMatchId } from "./match-store.js";
import { MatchWriter } from "./match-writer.js";
import { fill, pageData } from "./page-data.js";
import { wirePickers } from "./pickers.js";
import { showEngineStatus } from "./status.js";

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
  const store = new MatchStore();
  await writer.claim(); // read-only while another tab records it
  const link = await readLink(url, data.limits, words);
  const owner = new MatchOwner({
    id,
    params,
    link,
    data,
    division: readForm(form),
    engine: { ask: (request) => engine.request(request), rules: engine.rules },
    problem: (event, index) => eventProblem(event, index, data.limits, words),
    store,
    writer,
  });
  const view = { page, form, data, words };

  drawBoard(owner, view);
  drawLog(owner, view);
  startMatchMode(owner, view);
  showWriting(owner, view);
  showKept(owner, view);

  // The address changes once the person changes something, or when the page is put away:
  // until then it stays as it was opened, which the theme's in-page links (made absolute
  // when the page loaded) still point to.
  owner.subscribe((_, change) => {
    if (change.kind !== "address" || !page.isConnected) return;
    const address = new URL(owner.address, location.href);
    if (owner.changed && address.href !== location.href) history.replaceState(history.state, "", address);
  });
  addEventListener("pagehide", () => page.isConnected && owner.leave());
  document.addEventListener("visibilitychange", () => {
    if (!page.isConnected) return;
    if (!document.hidden) owner.back();
    else {
      owner.putAway();
      owner.leave();
    }
  });

  form.addEventListener("change", (event) => {
    if (event.target.closest("[data-setup], dialog")) return;
    if (event.target.name === "edition") syncEditionFields(form);
    followAge(form); // the LVLs or belts of the age entered
    owner.setDivision(readForm(form));
  });
  wirePickers(owner, view);
  page.querySelector("#calc-undo").addEventListener("click", () => owner.undo());
  page.querySelector("#calc-redo").addEventListener("click", () => owner.redo());
  wireNewMatch(owner, view, () => newMatch(owner));
  // Opened as a new calculator (no match named, no events given): the matches in progress.
  if (!isMatchId(params.get("match")) && !link.given) offerResume(owner, store, view);
  page.querySelector("#calc-take-over")?.addEventListener("click", () => owner.takeOver());

  owner.writeAddress();
  owner.match.rescore();
}

// ---------------------------------------------------------------- one writer per match

/** Read-only while another tab records the match: nothing here can change it, keep it
 * or tell the audience screens. */
function showWriting(owner, { page }) {
  const draw = () => {
    const writing = !owner.readOnly;
    const note = page.querySelector("#calc-read-only");
    if (note) note.hidden = writing;
    for (const part of page.querySelectorAll("#calc-board > :not(.lvl-banner)")) part.inert = !writing;
  };
  owner.subscribe((_, change) => change.kind === "writing" && draw());
  draw();
}

/** Whether the match is kept in this browser: if not (storage full or blocked), said at
 * once and until it is, with its link and its sheet to keep instead; once seen, it can be
 * dismissed, and is said again for a new failure after the match was kept. */
function showKept(owner, { page, words }) {
  const note = page.querySelector("#calc-not-kept");
  if (!note) return;
  note.querySelector('[data-not-kept="dismiss"]').addEventListener("click", () => {
    note.dataset.dismissed = note.dataset.why;
    note.hidden = true;
  });
  const draw = () => {
    const { kept, why } = owner.kept;
    if (!kept && note.dataset.dismissed === why) return; // said, and seen
    if (kept) delete note.dataset.dismissed; // kept again: a new failure is said again
    note.hidden = kept;
    note.dataset.why = why ?? "";
    if (!kept) note.firstElementChild.textContent = why === "full" ? words.not_kept_full : words.not_kept_blocked;
  };
  owner.subscribe((_, change) => change.kind === "kept" && draw());
  draw();
}

/** A new match: this one stays kept in this browser (Back returns to it). Followed as a
 * link is (as the theme itself does): its instant navigation keeps the engine running;
 * without it, a plain page load. */
async function newMatch(owner) {
  const next = new URL(await owner.next(), location.href);
  const link = document.createElement("a");
  link.href = next.href;
  document.body.append(link);
  link.click();
  link.remove();
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
