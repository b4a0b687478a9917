// The calculator's board, drawn from the match's owner (match-owner.js): each athlete's
// name, colour and score (athlete-panel.js), the result, the last call, what is waiting and why, which buttons may record
// now, and the sentence a screen reader hears after each change. Every number and
// sentence of the rules comes from the engine's answer; the words around them are the
// page's (page data, from lvl_rules.words.match).

import { athleteShown, drawAthlete } from "./athlete-panel.js";
import { citeLink, markInvalid, showError } from "./division-form.js";
import { fill, plural } from "./page-data.js";
import { readingMark } from "./reading-mark.js";
import { shareButton } from "./share.js";

const ATHLETES = ["A", "B"];

export function drawBoard(owner, { page, form, data, words }) {
  const section = page.querySelector("#calc-board");
  const result = page.querySelector("#match-result");
  const last = page.querySelector("#calc-last");
  const waiting = page.querySelector("#calc-waiting");
  const error = page.querySelector("#calc-error");
  const announcer = page.querySelector("#calc-announce");
  const share = page.querySelector("#calc-share");
  const root = new URL(form.dataset.root, document.baseURI);
  let summary = "";
  let match = owner.match;
  let illegal = null;
  let otherUniform = null;

  // The match's link, to the share sheet (or copied): the address as it is at the tap.
  shareButton(page.querySelector("#calc-share-button"), () => ({
    url: share.href,
    title: document.title,
    text: owner.match.answer?.result.summary ?? "",
  }));

  last.addEventListener("click", () => owner.correct(Number(last.dataset.event)));

  function draw() {
    match = owner.match;
    drawAthletes();
    drawResult();
    drawLast();
    drawTrouble();
    enableButtons();
    drawLegality();
  }

  function drawAthletes() {
    for (const athlete of ATHLETES) {
      const panel = page.querySelector(`.lvl-athlete[data-athlete="${athlete}"]`);
      drawAthlete(panel, athleteShown(owner, athlete, words), words, [section.querySelector(`.lvl-half[data-half="${athlete}"]`)]);
    }
  }

  function drawResult() {
    const outcome = match.answer?.result;
    const any = match.events.length > 0;
    result.dataset.winner = outcome?.winner ?? "";
    result.dataset.method = outcome?.method ?? "";
    result.dataset.ended = String(Boolean(outcome?.ended));
    section.dataset.ended = result.dataset.ended; // match.css shows the result in match mode
    page.querySelector("#calc-sheet-end").hidden = !outcome?.ended || match.status !== "scored";
    if (match.status === "scored" && outcome && any) {
      result.replaceChildren(outcome.summary);
      if (outcome.cite) result.append(" ", citeLink(root, match.division.edition, outcome.cite));
      const mark = readingMark(root, match.division.edition, outcome.readings, words.our_reading);
      if (mark) result.append(" ", mark);
    } else if (any || match.waiting.length) {
      result.replaceChildren(match.status === "division" ? words.waiting_division : words.waiting_engine);
    } else {
      result.replaceChildren(words.no_events);
    }
  }

  function drawLast() {
    const index = match.events.length - 1;
    const lines = index >= 0 ? match.linesOf(index) : [];
    const shown = lines.length && match.status === "scored" ? lines.map((line) => line.effect).join(" ") : "";
    last.hidden = !shown;
    last.textContent = shown ? fill(words.last, { effect: shown }) : "";
    last.dataset.event = shown ? String(index) : "";
    const count = match.waiting.length;
    waiting.hidden = count === 0;
    waiting.textContent = count ? plural(words.calls_waiting, count) : "";
  }

  function drawTrouble() {
    const trouble = match.trouble;
    // Nothing is said missing before a division is asked for (a field typed, a link's).
    const said = match.status === "division" && owner.asked;
    markInvalid(form, said ? trouble?.field : null);
    section.dataset.status = match.status;
    // Every change has had its turn and the engine has answered (a hook for the tests).
    section.dataset.settled = String(!match.pending.length && match.status !== "waiting");
    if (said) {
      show(fill(words.division_error, { message: trouble.message }));
    } else if (match.status === "failed") {
      show(fill(words.engine_failed, { message: trouble.message }));
    } else if (owner.notice) {
      show(owner.notice.message);
    } else if (owner.said) {
      show(owner.said);
    } else {
      const marked = match.status === "scored" ? refusedCount() : 0;
      show(marked ? plural(words.not_scored_events, marked) : null);
    }
  }

  function refusedCount() {
    let count = match.limited.size;
    for (const line of match.lines) if (line.refused && !match.limited.has(line.event)) count++;
    return count;
  }

  function show(message) {
    showError(error, message ? new Error(message) : null);
  }

  /** Which buttons can record now: none without a valid division; once the match has
   * ended, only what may follow it; after time, only what the rules allow then. */
  function enableButtons() {
    const ended = match.status === "scored" && Boolean(match.answer?.result.ended);
    const timeUp = !ended && match.timeExpired;
    const noDivision = match.status === "division";
    for (const button of section.querySelectorAll(".lvl-controls [data-preset]")) {
      const event = owner.preset(button.dataset.preset);
      const kind = event && data.events[event.type];
      let off = noDivision && !button.dataset.count;
      if (kind && ended) off = !kind.after_end;
      else if (kind && timeUp) off = !kind.after_time;
      if (button.disabled !== off) button.disabled = off;
    }
    page.querySelector("#calc-undo").disabled = !match.canUndo;
    page.querySelector("#calc-redo").disabled = !match.canRedo;
  }

  /** The techniques that are illegal for the division first in the technique picker, and
   * the fouls and counts of the other uniform left out (the engine's `other_uniform`). */
  function drawLegality() {
    drawUniform(match.answer?.other_uniform);
    const list = match.answer?.illegal;
    if (!list || list === illegal) return;
    illegal = list;
    const off = new Set(list);
    for (const picker of section.querySelectorAll('dialog [data-legal-group="true"]')) {
      const dialog = picker.closest("dialog");
      const group = dialog.querySelector('[data-legal-group="false"]');
      for (const button of dialog.querySelectorAll('button[data-slot="technique"]')) {
        (off.has(button.dataset.value) ? group : picker).append(button);
      }
      for (const heading of dialog.querySelectorAll("[data-legal-heading]")) heading.hidden = !group.children.length;
    }
  }

  /** Redrawn only for a new answer of the engine, like the techniques above: every other
   * change (the clock, a prompt, a call waiting) leaves the pickers as they are. */
  function drawUniform(other) {
    if (!other || other === otherUniform) return;
    otherUniform = other;
    const fouls = new Set(other.fouls);
    const counts = new Set(other.counts);
    for (const button of section.querySelectorAll('button[data-slot="foul"]')) button.hidden = fouls.has(button.dataset.value);
    for (const button of section.querySelectorAll("button[data-count]")) button.hidden = counts.has(button.dataset.count);
    for (const heading of section.querySelectorAll(".lvl-picker-group:not([data-legal-heading])")) {
      heading.hidden = !heading.nextElementSibling?.querySelector("button:not([hidden])");
    }
    // Said where the counts are: which are not offered, marked as the reading it is.
    for (const note of section.querySelectorAll("[data-counts-away]")) {
      const away = [...note.closest("dialog").querySelectorAll("button[data-count][hidden]")];
      note.hidden = !away.length;
      note.replaceChildren(fill(words.counts_away, { names: away.map((b) => b.textContent.trim()).join(", ") }));
      const mark = away.length && readingMark(root, match.division.edition, other.readings, words.our_reading);
      if (mark) note.append(" ", mark);
    }
  }

  /** What a screen reader hears after a change: what it did, then the score. */
  function announce(done) {
    if (!done || match.status !== "scored" || !match.answer) return;
    const kinds = done.changes.map((change) => change.kind);
    let what = "";
    if (kinds.includes("undo")) what = words.undone;
    else if (kinds.includes("redo")) what = words.redone;
    else if (kinds.includes("division")) what = words.division_changed;
    else if (kinds.includes("remove")) what = words.deleted_event;
    else if (kinds.includes("replace")) what = words.corrected_event;
    else if (done.added) {
      const index = match.events.length - 1;
      what = match.linesOf(index).map((line) => line.effect).join(" ");
    }
    const tallies = ATHLETES.map((athlete) => {
      const t = match.answer.athletes[athlete];
      return fill(words.tally, {
        name: owner.setup.label(athlete),
        points: plural(words.count_points, t.points),
        advantages: plural(words.count_advantages, t.advantages),
        penalties: plural(words.count_penalties, t.penalties),
      });
    });
    const outcome = match.answer.result;
    const before = summary;
    summary = outcome.summary;
    const changed = outcome.ended || outcome.summary !== before ? outcome.summary : "";
    announcer.textContent = [what, ...tallies, changed].filter(Boolean).join(" ");
  }
  /** The link to share, once the address is written, and the match sheet's. */
  function shared() {
    const address = new URL(owner.address, location.href);
    share.href = address.href;
    for (const link of page.querySelectorAll('[data-not-kept="link"]')) link.href = address.href;
    for (const link of page.querySelectorAll('#calc-sheet, #calc-sheet-end, [data-not-kept="sheet"]')) {
      const sheet = new URL(link.getAttribute("href"), location.href);
      link.href = `${sheet.pathname}${address.search}${address.hash}`;
    }
    const count = match.events.length;
    share.textContent = count ? plural(words.share_match, count) : words.share_division;
  }

  owner.subscribe((_, change) => {
    if (!page.isConnected) return;
    if (change.kind === "address") return shared();
    draw();
    if (change.kind === "match") announce(change.done);
  });
  draw();
}
