// The calculator's match mode: the screen given to a live match (site chrome out of the
// way, optionally full screen, kept awake), opened only for a division the rules accept;
// the athletes' names and colours and the match length (setup); the keyboard shortcuts;
// the clock (match-clock-view.js); and the audience screen (/calculator/board/), which
// follows this match by its id (match-broadcast.js). Drawn from the match's owner
// (match-owner.js), whose methods every control calls.

import { showClock } from "./match-clock-view.js";
import { broadcast } from "./match-broadcast.js";
import { fieldMessage } from "./division-form.js";
import { fill } from "./page-data.js";
import { keepAwake } from "./page-life.js";

export function startMatchMode(owner, view) {
  const { page, form, words } = view;
  const section = page.querySelector("#calc-board");
  const modeButton = page.querySelector("#calc-match-mode");
  const fullButton = page.querySelector("#calc-fullscreen");
  const logButton = page.querySelector("#calc-log-toggle");
  const keysDialog = page.querySelector("#calc-keys");
  const refusal = page.querySelector("#calc-mode-refused");
  showClock(owner, view);
  broadcast(owner, view);
  const awake = keepAwake(() => section.isConnected && owner.mode);

  // -------------------------------------------------------------- setup

  const { setup, clock } = owner;
  for (const input of page.querySelectorAll("[data-setup]")) {
    const athlete = input.dataset.for;
    if (input.dataset.setup === "name") input.value = setup.name[athlete];
    if (input.dataset.setup === "colour") input.value = setup.colour[athlete];
    if (input.dataset.setup === "minutes" && clock.length) input.value = String(Math.floor(clock.length / 60000));
    if (input.dataset.setup === "seconds" && clock.length) input.value = String(Math.round(clock.length / 1000) % 60);
    input.addEventListener("change", () => {
      if (input.dataset.setup === "name") owner.setName(athlete, input.value);
      else if (input.dataset.setup === "colour") owner.setColour(athlete, input.value);
      else setLength();
    });
  }

  function setLength() {
    const minutes = Number(page.querySelector('[data-setup="minutes"]').value || 0);
    const seconds = Number(page.querySelector('[data-setup="seconds"]').value || 0);
    const total = Math.round(minutes * 60 + seconds) * 1000;
    owner.setLength(Number.isFinite(total) && total > 0 ? total : null);
  }

  // -------------------------------------------------------------- the screen

  /** Match mode needs a division the rules accept: it says which field is missing. */
  function divisionProblem() {
    if (owner.match.status === "division") return owner.match.trouble;
    const missing = [...form.querySelectorAll("[required]")].find((control) => !control.disabled && !control.value);
    if (!missing) return null;
    const label = form.querySelector(`label[for="${missing.id}"]`)?.textContent.trim() ?? missing.name;
    return { field: missing.name, message: fill(words.field_needed, { field: label }) };
  }

  let refused = null; // the field match mode was refused for, while said

  /** Ask for match mode on or off: on only for a division the rules accept. */
  function setMode(on) {
    const problem = on ? divisionProblem() : null;
    refusal.hidden = !problem;
    if (problem) {
      refused = problem.field;
      owner.setMode(false);
      refusal.textContent = fill(words.match_mode_refused, { message: problem.message });
      fieldMessage(form, problem.field, problem.message);
      form.querySelector(`[name="${problem.field}"]:not(:disabled)`)?.focus();
      return;
    }
    owner.setMode(on);
  }

  /** The screen as the owner says: match mode or the page. */
  function drawMode() {
    const on = owner.mode;
    if (section.dataset.mode === (on ? "match" : "page")) return;
    section.dataset.mode = on ? "match" : "page";
    document.documentElement.classList.toggle("lvl-match", on);
    modeButton.setAttribute("aria-pressed", String(on));
    modeButton.textContent = on ? words.leave_match_mode : words.match_mode;
    if (!on) setLog(false);
    awake();
    if (on) window.scrollTo(0, 0);
  }

  function setLog(open) {
    section.dataset.log = open ? "open" : "closed";
    logButton.setAttribute("aria-expanded", String(open));
    logButton.textContent = open ? words.hide_log : words.show_log;
    // The log opens at its newest line: the one a correction is most often for.
    if (open) [...page.querySelectorAll("#calc-log li[data-event]")].at(-1)?.scrollIntoView({ block: "nearest" });
  }

  modeButton.addEventListener("click", () => {
    const on = section.dataset.mode !== "match";
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    setMode(on);
  });
  logButton.addEventListener("click", () => setLog(section.dataset.log !== "open"));
  if (document.fullscreenEnabled) {
    fullButton.hidden = false;
    fullButton.addEventListener("click", () => {
      if (document.fullscreenElement) {
        document.exitFullscreen().catch(() => {});
      } else {
        document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => {});
        if (section.dataset.mode !== "match") setMode(true);
      }
    });
    document.addEventListener("fullscreenchange", () => {
      fullButton.textContent = document.fullscreenElement ? words.leave_fullscreen : words.fullscreen;
    });
  }

  // -------------------------------------------------------------- keyboard shortcuts

  // The shortcuts do what the list says wherever the focus is (but in a field being
  // typed in, or a dialog): Space starts and stops the clock, even on a focused button,
  // whose own activation by Space is held back; only a call's button just reached with
  // the keyboard is pressed by Space (once). A call needs a fresh press: Space on a call's
  // button already pressed, Enter on one pressed with the pointer (after a click on
  // "Sweep", neither is a second sweep), or a key held down (its repeats), record nothing.
  let pressed = null; // the call's button last pressed, while it keeps the focus
  let byPointer = false; // and whether with the pointer
  section.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-preset]");
    pressed = button && button === document.activeElement ? button : null; // not a shortcut's
    byPointer = event.detail > 0;
  });
  section.addEventListener("focusout", (event) => {
    if (event.target === pressed) pressed = null;
  });
  const freshCall = (target) => Boolean(target.closest?.("button[data-preset]")) && target !== pressed;
  const typing = (target) => target.closest?.("input, select, textarea, [contenteditable]");

  function onKey(event) {
    if (!section.isConnected) {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("keyup", holdSpace);
      return;
    }
    if (event.defaultPrevented || event.altKey || event.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (typing(target)) return;
    if (event.repeat) {
      event.preventDefault(); // a key held down: one call, not one per repeat
      return;
    }
    if (event.key === "Enter" && target === pressed && byPointer) {
      event.preventDefault(); // the button just pressed: a call needs a fresh press
      return;
    }
    if (event.ctrlKey) {
      const undo = event.code === "KeyZ" && !event.shiftKey;
      const redo = event.code === "KeyY" || (event.code === "KeyZ" && event.shiftKey);
      if (undo || redo) {
        event.preventDefault();
        if (undo) owner.undo();
        else owner.redo();
      }
      return;
    }
    if (event.key === "?") {
      event.preventDefault();
      keysDialog.showModal();
      return;
    }
    if (event.code === "Space") {
      if (freshCall(target)) return; // Space presses the call's button just reached
      event.preventDefault(); // not the focused button's own activation, nor a scroll
      owner.toggleClock();
      return;
    }
    const controls = section.querySelector(".lvl-controls:not([hidden])");
    const where = event.shiftKey ? '[data-half="B"]' : '[data-half="A"]';
    const button =
      controls?.querySelector(`${where} [data-key="${event.code}"]`) ??
      controls?.querySelector(`[data-half="shared"] [data-key="${event.code}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  }

  /** A button is activated by Space when the key comes up: held back there too. */
  function holdSpace(event) {
    if (event.code !== "Space" || typing(event.target) || document.querySelector("dialog[open]")) return;
    if (freshCall(event.target)) return;
    if (event.target.closest?.("button, summary, [role='button']")) event.preventDefault();
  }
  document.addEventListener("keyup", holdSpace);
  document.addEventListener("keydown", onKey);
  page.querySelector("#calc-keys-open").addEventListener("click", () => keysDialog.showModal());
  keysDialog.addEventListener("click", (event) => {
    if (event.target === keysDialog || event.target.closest("[data-close]")) keysDialog.close();
  });

  owner.subscribe((_, change) => {
    if (!section.isConnected) return;
    if (change.kind === "mode") drawMode();
    // Opened before the engine had answered: it leaves, saying why, if the rules refuse
    // the division.
    if (change.kind === "match" && owner.match.status === "division" && owner.mode) setMode(true);
    // The refusal goes once it stops being true: the division is valid now.
    if (change.kind === "match" && !refusal.hidden && !divisionProblem()) {
      refusal.hidden = true;
      if (refused) fieldMessage(form, refused, null);
      refused = null;
    }
  });

  setLog(false);
  section.dataset.mode = "page";
  // Opened from a link in match mode: at once, unless a field the division needs is
  // empty (then the page says which); the engine's verdict follows (above).
  if (owner.modeAsked) setMode(true);
}
