// The calculator's match mode: the screen given to the match (site chrome out of the
// way, optionally full screen, kept awake), the match clock whose start and stop are the
// referee's "Combate" and "Parou", the referee's 20-second counts with the call the rules
// make when one runs out, the athletes' names and colours, the keyboard shortcuts, and
// the audience screen (/calculator/board/) kept up to date in this browser.
//
// The rules set no match length: the person sets it (without one the clock counts up).
// Time is read from Date.now(), which the browser tests control.

import { CHANNEL, clockText, fill } from "./page-data.js";

const TICK_MS = 200;
const STORE = "lvl-rules-calculator-clock"; // this tab's clock, kept across a reload

export function startMatchMode(app, params) {
  const { page, board, words, data } = app;
  const clockButton = page.querySelector("#calc-clock");
  const timeShown = page.querySelector("#calc-time");
  const countsShown = page.querySelector("#calc-counts");
  const modeButton = page.querySelector("#calc-match-mode");
  const fullButton = page.querySelector("#calc-fullscreen");
  const logButton = page.querySelector("#calc-log-toggle");
  const keysDialog = page.querySelector("#calc-keys");
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const setup = {
    name: { A: params.get("name_a") ?? "", B: params.get("name_b") ?? "" },
    colour: {
      A: knownColour(params.get("colour_a")) ?? data.default_colours.A,
      B: knownColour(params.get("colour_b")) ?? data.default_colours.B,
    },
  };
  const lengthGiven = Number(params.get("length"));
  const clock = {
    length: Number.isInteger(lengthGiven) && lengthGiven > 0 ? lengthGiven * 1000 : null,
    elapsed: 0,
    since: null,
    counts: [], // {id, athlete, elapsed, since}
  };
  restoreClock();
  let ticking = null;
  let lock = null;
  let timeUpShown = false;

  const mode = {
    name: (athlete) => setup.name[athlete] || fill(words.athlete, { athlete }),
    addParams(params) {
      if (setup.name.A) params.set("name_a", setup.name.A);
      if (setup.name.B) params.set("name_b", setup.name.B);
      if (setup.colour.A !== data.default_colours.A) params.set("colour_a", setup.colour.A);
      if (setup.colour.B !== data.default_colours.B) params.set("colour_b", setup.colour.B);
      if (clock.length) params.set("length", String(clock.length / 1000));
      if (board.dataset.mode === "match") params.set("mode", "match");
    },
    startCount,
  };

  // -------------------------------------------------------------- names and colours

  function knownColour(colour) {
    return colour && data.colours[colour] ? colour : null;
  }

  function showSetup() {
    for (const athlete of ["A", "B"]) {
      const panel = page.querySelector(`.lvl-athlete[data-athlete="${athlete}"]`);
      panel.querySelector("[data-name]").textContent = mode.name(athlete);
      const colour = data.colours[setup.colour[athlete]];
      panel.dataset.colour = setup.colour[athlete];
      for (const part of [panel, board.querySelector(`.lvl-half[data-half="${athlete}"]`)]) {
        part?.style.setProperty("--lvl-side-bg", colour.background);
        part?.style.setProperty("--lvl-side-fg", colour.text);
      }
    }
  }

  for (const input of page.querySelectorAll("[data-setup]")) {
    const athlete = input.dataset.for;
    if (input.dataset.setup === "name") input.value = setup.name[athlete];
    if (input.dataset.setup === "colour") input.value = setup.colour[athlete];
    if (input.dataset.setup === "minutes" && clock.length) input.value = String(Math.floor(clock.length / 60000));
    if (input.dataset.setup === "seconds" && clock.length) input.value = String((clock.length / 1000) % 60);
    input.addEventListener("change", () => {
      if (input.dataset.setup === "name") setup.name[athlete] = input.value.trim();
      else if (input.dataset.setup === "colour") setup.colour[athlete] = knownColour(input.value) ?? setup.colour[athlete];
      else setLength();
      showSetup();
      app.redraw();
    });
  }

  function setLength() {
    const minutes = Number(page.querySelector('[data-setup="minutes"]').value || 0);
    const seconds = Number(page.querySelector('[data-setup="seconds"]').value || 0);
    const total = Math.round(minutes * 60 + seconds) * 1000;
    clock.length = Number.isFinite(total) && total > 0 ? total : null;
    timeUpShown = false;
    saveClock();
    showClock();
  }

  // -------------------------------------------------------------- the clock

  function now() {
    return Date.now();
  }

  function elapsed() {
    return clock.elapsed + (clock.since === null ? 0 : now() - clock.since);
  }

  function running() {
    return clock.since !== null;
  }

  function startClock() {
    if (running() || app.report?.result.ended) return;
    if (clock.length && elapsed() >= clock.length) return;
    moveCounts(() => (clock.since = now()));
    keepAwake(true);
    saveClock();
    showClock();
  }

  function stopClock() {
    if (!running()) return;
    moveCounts(() => {
      clock.elapsed = elapsed();
      clock.since = null;
    });
    saveClock();
    showClock();
  }

  /** Start or stop the clock, pausing and resuming each count with the clock it follows. */
  function moveCounts(turn) {
    const at = now();
    for (const count of clock.counts) {
      if (count.since !== null) count.elapsed += at - count.since;
      count.since = null;
    }
    turn();
    for (const count of clock.counts) if (countRuns(count)) count.since = at;
  }

  function countRuns(count) {
    const rule = countRule(count.id);
    return rule && (rule.clock === "match") === running();
  }

  function countRule(id) {
    return data.counts[app.form.elements.edition.value]?.[id] ?? data.counts[Object.keys(data.counts).at(-1)]?.[id];
  }

  function showClock() {
    const spent = elapsed();
    const text = clock.length ? clockText(clock.length - spent) : clockText(spent, { up: true });
    if (timeShown.textContent !== text) timeShown.textContent = text;
    const on = running();
    clockButton.textContent = on ? clockButton.dataset.stop : clockButton.dataset.start;
    clockButton.setAttribute("aria-pressed", String(on));
    board.dataset.clock = on ? "running" : "stopped";
    showCounts();
    if (on || clock.counts.length) {
      ticking ??= setInterval(tick, TICK_MS);
    } else if (ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
    post();
  }

  function tick() {
    if (!board.isConnected) {
      clearInterval(ticking);
      ticking = null;
      return;
    }
    if (clock.length && running() && elapsed() >= clock.length) {
      timeUp();
      return;
    }
    for (const count of [...clock.counts]) {
      const rule = countRule(count.id);
      if (countElapsed(count) >= rule.seconds * 1000) {
        clock.counts.splice(clock.counts.indexOf(count), 1);
        prompt(count, rule);
      }
    }
    saveClock();
    showClock();
  }

  /** The match clock ran out: stop it and record time expiry (6), once. */
  function timeUp() {
    moveCounts(() => {
      clock.elapsed = clock.length;
      clock.since = null;
    });
    saveClock();
    showClock();
    if (!app.isTimeExpired() && !app.report?.result.ended) app.recordEvent({ type: "time-expired" });
    if (!timeUpShown) {
      timeUpShown = true;
      addPrompt("both", words.time_expired, null);
    }
  }

  clockButton.addEventListener("click", () => (running() ? stopClock() : startClock()));

  // -------------------------------------------------------------- the 20-second counts

  function countElapsed(count) {
    return count.elapsed + (count.since === null ? 0 : now() - count.since);
  }

  function startCount(id, athlete) {
    const rule = countRule(id);
    if (!rule) return;
    const who = rule.both ? "both" : athlete;
    if (!who) return;
    clock.counts = clock.counts.filter((count) => !(count.id === id && count.athlete === who));
    const count = { id, athlete: who, elapsed: 0, since: null };
    clock.counts.push(count);
    if (countRuns(count)) count.since = now();
    saveClock();
    showClock();
  }

  /** Each running count as a chip with its seconds left: an athlete's on that athlete's
   * score, the counts for both in the middle. */
  function showCounts() {
    for (const where of ["both", "A", "B"]) {
      const box = where === "both" ? countsShown : page.querySelector(`[data-counts="${where}"]`);
      if (!box) continue;
      const shown = clock.counts
        .filter((count) => count.athlete === where)
        .map((count) => {
          const rule = countRule(count.id);
          const left = Math.max(0, Math.ceil((rule.seconds * 1000 - countElapsed(count)) / 1000));
          return { count, rule, text: fill(words.count_running, { name: rule.name, seconds: left }) };
        });
      const keys = shown.map(({ count }) => count.id).join(" ");
      if (box.dataset.keys !== keys) {
        box.dataset.keys = keys;
        box.replaceChildren(...shown.map(({ count, rule }) => chip(count, rule)));
      }
      shown.forEach(({ text }, index) => {
        const span = box.children[index].firstChild;
        if (span.textContent !== text) span.textContent = text;
      });
    }
  }

  function chip(count, rule) {
    const chip = document.createElement("span");
    chip.className = "lvl-count";
    chip.dataset.count = count.id;
    chip.dataset.athlete = count.athlete;
    const text = document.createElement("span");
    text.setAttribute("role", "timer");
    const stop = document.createElement("button");
    stop.type = "button";
    stop.className = "lvl-act lvl-count-stop";
    stop.textContent = "×";
    stop.setAttribute("aria-label", fill(words.count_cancel, { name: rule.name }));
    stop.addEventListener("click", () => {
      clock.counts = clock.counts.filter((c) => c !== count);
      saveClock();
      showClock();
    });
    chip.append(text, stop);
    return chip;
  }

  /** A count ran out: say which call the rules make, with a button that records it. */
  function prompt(count, rule) {
    const call = { type: "penalty", athlete: count.athlete, foul: rule.foul };
    addPrompt(count.athlete, rule.prompt[count.athlete], call);
  }

  function addPrompt(where, text, call) {
    const box = page.querySelector(`[data-prompts="${where}"]`);
    if (!box) return;
    const note = document.createElement("div");
    note.className = "lvl-prompt";
    note.setAttribute("role", "alert");
    const said = document.createElement("span");
    said.textContent = text;
    note.append(said);
    if (call) {
      const yes = document.createElement("button");
      yes.type = "button";
      yes.className = "lvl-act lvl-primary";
      yes.textContent = words.count_record;
      yes.dataset.call = JSON.stringify(call);
      yes.addEventListener("click", () => {
        note.remove();
        app.recordEvent(call);
      });
      note.append(" ", yes);
    }
    const no = document.createElement("button");
    no.type = "button";
    no.className = "lvl-act";
    no.textContent = words.count_dismiss;
    no.addEventListener("click", () => note.remove());
    note.append(" ", no);
    box.append(note);
  }

  // -------------------------------------------------------------- kept across a reload

  function saveClock() {
    try {
      sessionStorage.setItem(STORE, JSON.stringify({ elapsed: clock.elapsed, since: clock.since, counts: clock.counts }));
    } catch {
      // private mode or full: the clock simply starts afresh after a reload
    }
  }

  function restoreClock() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(STORE) ?? "null");
      if (kept && Number.isFinite(kept.elapsed)) Object.assign(clock, kept);
    } catch {
      // nothing kept
    }
  }

  // -------------------------------------------------------------- the screen

  function setMode(match) {
    board.dataset.mode = match ? "match" : "page";
    document.documentElement.classList.toggle("lvl-match", match);
    modeButton.setAttribute("aria-pressed", String(match));
    modeButton.textContent = match ? words.leave_match_mode : words.match_mode;
    if (!match) setLog(false);
    keepAwake(match);
    if (match) window.scrollTo(0, 0);
    app.redraw();
  }

  function setLog(open) {
    board.dataset.log = open ? "open" : "closed";
    logButton.setAttribute("aria-expanded", String(open));
    logButton.textContent = open ? words.hide_log : words.show_log;
  }

  modeButton.addEventListener("click", () => {
    const match = board.dataset.mode !== "match";
    if (!match && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    setMode(match);
  });
  logButton.addEventListener("click", () => setLog(board.dataset.log !== "open"));
  if (document.fullscreenEnabled) {
    fullButton.hidden = false;
    fullButton.addEventListener("click", () => {
      if (document.fullscreenElement) {
        document.exitFullscreen().catch(() => {});
      } else {
        document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => {});
        if (board.dataset.mode !== "match") setMode(true);
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
    if (board.isConnected && board.dataset.mode === "match") keepAwake(true);
  });

  // -------------------------------------------------------------- the audience screen

  function post() {
    if (!channel || !board.isConnected) return;
    const report = app.report;
    const zero = { points: 0, advantages: 0, penalties: 0, disqualified: false };
    const athletes = {};
    for (const athlete of ["A", "B"]) {
      const tally = report?.athletes[athlete] ?? zero;
      athletes[athlete] = {
        name: mode.name(athlete),
        colour: setup.colour[athlete],
        ...data.colours[setup.colour[athlete]],
        points: tally.points,
        advantages: tally.advantages,
        penalties: tally.penalties,
        status: tally.disqualified ? words.disqualified[tally.disqualified_from] : "",
      };
    }
    const result = report?.result;
    channel.postMessage({
      type: "state",
      athletes,
      result: app.events.length && result ? { summary: result.summary, winner: result.winner, ended: result.ended } : null,
      timeExpired: app.isTimeExpired(),
      clock: { length: clock.length, elapsed: elapsed(), running: running(), at: now() },
    });
  }
  if (channel) {
    channel.addEventListener("message", (event) => {
      if (event.data?.type === "hello") post();
    });
  }
  app.listeners.add(() => {
    if (app.report?.result.ended && running()) stopClock();
    post();
  });

  // -------------------------------------------------------------- keyboard shortcuts

  function onKey(event) {
    if (!board.isConnected) {
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
      clockButton.click();
      return;
    }
    const controls = board.querySelector(".lvl-controls:not([hidden])");
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

  showSetup();
  setLog(false);
  if (params.get("mode") === "match") setMode(true);
  showClock();
  return mode;
}
