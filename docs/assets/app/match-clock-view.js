// The clock of match mode, drawn from the match's owner (match-owner.js, which holds the
// clock of match-clock.js, and whose methods the controls call): the time, start and
// stop ("Combate", "Parou"), setting the time, the sound and vibration at 0:00 (with an
// off switch), the referee's 20-second counts with the call the rules make when one runs
// out, and each athlete's injury time-out. Time expiry is recorded as an event (6), once.

import { clockText, parseClockText } from "./match-clock.js";
import { localStore } from "./match-store.js";
import { fill } from "./page-data.js";

const TICK_MS = 200;

export function showClock(owner, { page, words }) {
  const section = page.querySelector("#calc-board");
  const time = page.querySelector("#calc-time");
  const button = page.querySelector("#calc-clock");
  const setButton = page.querySelector("#calc-time-set");
  const setDialog = page.querySelector("#calc-set-time");
  const setInput = setDialog.querySelector("input");
  const sound = page.querySelector("#calc-sound");
  let ticking = null;

  button.addEventListener("click", () => owner.toggleClock());
  setButton.addEventListener("click", () => {
    const { clock } = owner;
    setInput.value = clockText(clock.shown(), { up: !clock.length });
    setDialog.showModal();
    setInput.select();
  });
  setDialog.addEventListener("submit", (event) => {
    event.preventDefault();
    const ms = parseClockText(setInput.value);
    const problem = setDialog.querySelector("[data-problem]");
    problem.hidden = ms !== null;
    if (ms === null) return;
    setDialog.close();
    owner.setTime(ms);
  });
  setDialog.querySelector("[data-close]").addEventListener("click", () => setDialog.close());
  const storage = localStore();
  try {
    sound.checked = storage?.getItem("lvl-rules.sound") !== "off";
  } catch {
    sound.checked = true; // storage blocked: the default
  }
  sound.addEventListener("change", () => {
    try {
      storage?.setItem("lvl-rules.sound", sound.checked ? "on" : "off");
    } catch {
      // not kept: the switch still holds for this page
    }
  });
  function draw() {
    const { clock } = owner;
    const text = clockText(clock.shown(), { up: !clock.length });
    if (time.textContent !== text) time.textContent = text;
    const on = clock.running;
    button.textContent = on ? button.dataset.stop : button.dataset.start;
    button.setAttribute("aria-pressed", String(on));
    button.disabled = !on && owner.ended; // a finished match is not started again
    section.dataset.clock = on ? "running" : "stopped";
    drawCounts();
    const busy = on || clock.counts.length || clock.injury.A || clock.injury.B;
    if (busy) ticking ??= setInterval(tick, TICK_MS);
    else if (ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  }

  function tick() {
    if (!section.isConnected) {
      clearInterval(ticking);
      ticking = null;
      return;
    }
    const { timeUp } = owner.tick();
    if (timeUp) signal();
    draw();
  }

  /** 0:00: a short tone and a vibration, where the device allows and the switch is on. */
  function signal() {
    if (!sound.checked) return;
    navigator.vibrate?.([300, 150, 300]);
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.3;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.8);
      tone.onended = () => audio.close();
    } catch {
      // no audio here: the prompt on screen says it
    }
  }

  // ------------------------------------------------------------ the 20-second counts

  /** Each running count as a chip with its seconds left (an athlete's on that athlete's
   * score, the counts for both in the middle), and each injury time-out counting up. */
  function drawCounts() {
    const { clock } = owner;
    for (const where of ["both", "A", "B"]) {
      const box = page.querySelector(where === "both" ? "#calc-counts" : `[data-counts="${where}"]`);
      if (!box) continue;
      const shown = clock.counts.filter((count) => count.athlete === where);
      const injury = where !== "both" && clock.injury[where] ? [where] : [];
      const keys = [...shown.map((count) => count.id), ...injury.map(() => "injury")].join(" ");
      if (box.dataset.keys !== keys) {
        box.dataset.keys = keys;
        box.replaceChildren(...shown.map(countChip), ...injury.map(injuryChip));
      }
      shown.forEach((count, index) => {
        const rule = clock.rule(count.id);
        const left = Math.max(0, Math.ceil(clock.left(count) / 1000));
        setText(box.children[index], fill(words.count_running, { name: rule.name, seconds: left }));
      });
      for (const athlete of injury) {
        const time = clockText(clock.injuryTime(athlete), { up: true });
        setText(box.children[shown.length], fill(words.injury_running, { time }));
      }
    }
  }

  function setText(chip, text) {
    const span = chip.firstChild;
    if (span.textContent !== text) span.textContent = text;
  }

  function countChip(count) {
    const rule = owner.clock.rule(count.id);
    return chip({ count: count.id, athlete: count.athlete }, fill(words.count_cancel, { name: rule.name }), () => {
      owner.cancelCount(count);
    });
  }

  function injuryChip(athlete) {
    return chip({ injury: athlete }, fill(words.injury_end, { name: owner.setup.label(athlete) }), () => {
      owner.injury(athlete, false);
    });
  }

  function chip(data, stopLabel, stopped) {
    const element = document.createElement("span");
    element.className = "lvl-count";
    Object.assign(element.dataset, data);
    const text = document.createElement("span");
    text.setAttribute("role", "timer");
    const stop = document.createElement("button");
    stop.type = "button";
    stop.className = "lvl-act lvl-count-stop";
    stop.textContent = "×";
    stop.setAttribute("aria-label", stopLabel);
    stop.addEventListener("click", stopped);
    element.append(text, stop);
    return element;
  }

  // ------------------------------------------------------------ prompts

  /** What a prompt says, in the page's words. */
  function promptText(prompt) {
    if (prompt.kind === "time") return words.time_expired;
    if (prompt.kind === "resumed") return resumedText(prompt.resumed);
    const rule = owner.clock.rule(prompt.count);
    return fill(rule.prompt[prompt.athlete], { name: owner.setup.label(prompt.athlete) });
  }

  /** "Time resumed after 3 min away: check the clock." (or that the device's clock went back). */
  function resumedText(resumed) {
    if (resumed.back) return words.clock_went_back;
    const seconds = Math.round(resumed.away / 1000);
    const away = seconds >= 60 ? fill(words.away_minutes, { n: Math.round(seconds / 60) }) : fill(words.away_seconds, { n: seconds });
    return fill(words.clock_resumed, { away });
  }

  /** The owner's prompts, each saying what the rules call now, with a button that records
   * it in one tap, and one that dismisses it. Only new prompts are drawn. */
  function drawPrompts() {
    const box = page.querySelector("#calc-prompts");
    const open = new Set(owner.prompts.map((prompt) => String(prompt.id)));
    for (const note of [...box.children]) if (!open.has(note.dataset.prompt)) note.remove();
    const shown = new Set([...box.children].map((note) => note.dataset.prompt));
    for (const prompt of owner.prompts) if (!shown.has(String(prompt.id))) box.append(promptNote(prompt));
  }

  function promptNote(prompt) {
    const text = promptText(prompt);
    const note = document.createElement("div");
    note.className = "lvl-prompt";
    note.dataset.prompt = String(prompt.id);
    note.setAttribute("role", "alert");
    const said = document.createElement("span");
    said.textContent = text;
    note.append(said);
    if (prompt.call) {
      const yes = document.createElement("button");
      yes.type = "button";
      yes.className = "lvl-act lvl-primary";
      yes.textContent = words.count_record;
      yes.dataset.call = JSON.stringify(prompt.call);
      yes.addEventListener("click", () => owner.answer(prompt.id, { record: true, label: text }));
      note.append(" ", yes);
    }
    const no = document.createElement("button");
    no.type = "button";
    no.className = "lvl-act";
    no.textContent = words.count_dismiss;
    no.addEventListener("click", () => owner.answer(prompt.id));
    note.append(" ", no);
    return note;
  }

  owner.subscribe((_, change) => {
    if (!section.isConnected) return;
    if (change.kind === "prompts") drawPrompts();
    else if (change.kind !== "address") draw();
  });
  draw();
  drawPrompts();
}
