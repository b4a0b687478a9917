// The calculator's match mode: the screen given to a live match (site chrome out of the
// way, optionally full screen, kept awake), opened only for a division the rules accept;
// the athletes' names and colours and the match length (setup); the keyboard shortcuts;
// the clock (match-clock-view.js); and the audience screen (/calculator/board/), which
// follows this match by its id (match-broadcast.js).

import { showClock } from "./match-clock-view.js";
import { broadcast } from "./match-broadcast.js";
import { fieldMessage } from "./division-form.js";
import { fill } from "./page-data.js";

export function startMatchMode(calculator, params) {
  const { page, form, words, match, clock, setup } = calculator;
  const section = page.querySelector("#calc-board");
  const modeButton = page.querySelector("#calc-match-mode");
  const fullButton = page.querySelector("#calc-fullscreen");
  const logButton = page.querySelector("#calc-log-toggle");
  const keysDialog = page.querySelector("#calc-keys");
  const refusal = page.querySelector("#calc-mode-refused");
  let lock = null;

  const keep = () => calculator.touch?.();
  const clockView = showClock(calculator, { onChange: () => changed() });
  const audience = broadcast(calculator);

  function changed() {
    keep();
    audience.post({ change: true });
  }

  // -------------------------------------------------------------- setup

  for (const input of page.querySelectorAll("[data-setup]")) {
    const athlete = input.dataset.for;
    if (input.dataset.setup === "name") input.value = setup.name[athlete];
    if (input.dataset.setup === "colour") input.value = setup.colour[athlete];
    if (input.dataset.setup === "minutes" && clock.length) input.value = String(Math.floor(clock.length / 60000));
    if (input.dataset.setup === "seconds" && clock.length) input.value = String(Math.round(clock.length / 1000) % 60);
    input.addEventListener("change", () => {
      if (input.dataset.setup === "name") setup.setName(athlete, input.value);
      else if (input.dataset.setup === "colour") setup.setColour(athlete, input.value);
      else setLength();
      calculator.refresh();
      if (input.dataset.setup !== "minutes" && input.dataset.setup !== "seconds") match.setNames(setup.labels());
      changed();
    });
  }

  function setLength() {
    const minutes = Number(page.querySelector('[data-setup="minutes"]').value || 0);
    const seconds = Number(page.querySelector('[data-setup="seconds"]').value || 0);
    const total = Math.round(minutes * 60 + seconds) * 1000;
    clock.setLength(Number.isFinite(total) && total > 0 ? total : null);
    clockView.draw();
  }

  // -------------------------------------------------------------- the screen

  /** Match mode needs a division the rules accept: it says which field is missing. */
  function divisionProblem() {
    if (match.status === "division") return match.trouble;
    const missing = [...form.querySelectorAll("[required]")].find((control) => !control.disabled && !control.value);
    if (!missing) return null;
    const label = form.querySelector(`label[for="${missing.id}"]`)?.textContent.trim() ?? missing.name;
    return { field: missing.name, message: fill(words.field_needed, { field: label }) };
  }

  function setMode(on) {
    if (on) {
      const problem = divisionProblem();
      refusal.hidden = !problem;
      if (problem) {
        if (section.dataset.mode === "match") setMode(false);
        refusal.textContent = fill(words.match_mode_refused, { message: problem.message });
        fieldMessage(form, problem.field, problem.message);
        form.querySelector(`[name="${problem.field}"]:not(:disabled)`)?.focus();
        return;
      }
    }
    refusal.hidden = true;
    section.dataset.mode = on ? "match" : "page";
    document.documentElement.classList.toggle("lvl-match", on);
    modeButton.setAttribute("aria-pressed", String(on));
    modeButton.textContent = on ? words.leave_match_mode : words.match_mode;
    if (!on) setLog(false);
    keepAwake(on);
    if (on) window.scrollTo(0, 0);
    calculator.refresh?.(); // not yet while the page is being mounted
  }

  function setLog(open) {
    section.dataset.log = open ? "open" : "closed";
    logButton.setAttribute("aria-expanded", String(open));
    logButton.textContent = open ? words.hide_log : words.show_log;
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

  /** Keep the screen on in match mode (Screen Wake Lock), where the browser can. */
  async function keepAwake(on) {
    if (!("wakeLock" in navigator)) return;
    if (on && !lock && document.visibilityState === "visible") {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => (lock = null));
      } catch {
        lock = null; // refused (battery saver, no permission): the screen may sleep
      }
    } else if (!on && lock) {
      lock.release().catch(() => {});
      lock = null;
    }
  }
  document.addEventListener("visibilitychange", () => {
    if (section.isConnected && section.dataset.mode === "match") keepAwake(true);
  });

  // -------------------------------------------------------------- keyboard shortcuts

  function onKey(event) {
    if (!section.isConnected) {
      document.removeEventListener("keydown", onKey);
      return;
    }
    if (event.defaultPrevented || event.altKey || event.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, [contenteditable]")) return;
    if (event.ctrlKey) {
      const undo = event.code === "KeyZ" && !event.shiftKey;
      const redo = event.code === "KeyY" || (event.code === "KeyZ" && event.shiftKey);
      if (undo || redo) {
        event.preventDefault();
        page.querySelector(undo ? "#calc-undo" : "#calc-redo").click();
      }
      return;
    }
    if (event.key === "?") {
      event.preventDefault();
      keysDialog.showModal();
      return;
    }
    if (event.code === "Space") {
      if (target.closest?.("button, a, summary")) return; // Space presses what has the focus
      event.preventDefault();
      page.querySelector("#calc-clock").click();
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
  document.addEventListener("keydown", onKey);
  page.querySelector("#calc-keys-open").addEventListener("click", () => keysDialog.showModal());
  keysDialog.addEventListener("click", (event) => {
    if (event.target === keysDialog || event.target.closest("[data-close]")) keysDialog.close();
  });

  match.subscribe((_, done) => {
    if (!section.isConnected) return;
    if (match.answer?.result.ended && clock.running) clockView.stop();
    // Opened before the engine had answered: it leaves, saying why, if the rules refuse
    // the division.
    if (match.status === "division" && section.dataset.mode === "match") setMode(true);
    audience.post({ change: Boolean(done?.changes.some((change) => change.kind !== "rescore")) });
  });

  setLog(false);
  clockView.draw();
  // Opened from a link in match mode: at once, unless a field the division needs is
  // empty (then the page says which); the engine's verdict follows (above).
  if (params.get("mode") === "match") setMode(true);

  return {
    get shown() {
      return section.dataset.mode === "match";
    },
    draw() {
      clockView.draw();
    },
    startCount: (id, athlete) => clockView.startCount(id, athlete),
    startInjury: (athlete) => clockView.startInjury(athlete),
    /** A word about the clock, where the clock's prompts go (match mode or not). */
    clockNotice: (text) => clockView.notice(text),
  };
}
