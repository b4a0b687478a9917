// The clock of match mode, drawn from its state (match-clock.js): the time, start and
// stop ("Combate", "Parou"), setting the time, the sound and vibration at 0:00 (with an
// off switch), the referee's 20-second counts with the call the rules make when one runs
// out, and each athlete's injury time-out. Time expiry is recorded as an event (6), once.

import { clockText, parseClockText } from "./match-clock.js";
import { localStore } from "./match-store.js";
import { fill } from "./page-data.js";

const TICK_MS = 200;

export function showClock(calculator, { onChange }) {
  const { page, words, clock, match, setup } = calculator;
  const section = page.querySelector("#calc-board");
  const time = page.querySelector("#calc-time");
  const button = page.querySelector("#calc-clock");
  const setButton = page.querySelector("#calc-time-set");
  const setDialog = page.querySelector("#calc-set-time");
  const setInput = setDialog.querySelector("input");
  const sound = page.querySelector("#calc-sound");
  let ticking = null;

  button.addEventListener("click", () => {
    if (clock.running) clock.stop();
    else if (!match.answer?.result.ended) clock.start();
    changed();
  });
  setButton.addEventListener("click", () => {
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
    clock.set(ms);
    setDialog.close();
    changed();
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
  function changed() {
    draw();
    onChange();
  }

  function draw() {
    const text = clockText(clock.shown(), { up: !clock.length });
    if (time.textContent !== text) time.textContent = text;
    const on = clock.running;
    button.textContent = on ? button.dataset.stop : button.dataset.start;
    button.setAttribute("aria-pressed", String(on));
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
    const { timeUp, expired } = clock.tick();
    if (timeUp) {
      signal();
      if (!match.timeExpired && !match.answer?.result.ended) calculator.record({ type: "time-expired" });
      addPrompt("both", words.time_expired, null);
    }
    for (const count of expired) {
      const rule = clock.rule(count.id);
      const call = { type: "penalty", athlete: count.athlete, foul: rule.foul };
      addPrompt(count.athlete, fill(rule.prompt[count.athlete], { name: setup.label(count.athlete) }), call);
    }
    draw();
    if (timeUp || expired.length) onChange();
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
    const rule = clock.rule(count.id);
    return chip({ count: count.id, athlete: count.athlete }, fill(words.count_cancel, { name: rule.name }), () => {
      clock.cancelCount(count);
    });
  }

  function injuryChip(athlete) {
    return chip({ injury: athlete }, fill(words.injury_end, { name: setup.label(athlete) }), () => {
      clock.toggleInjury(athlete);
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
    stop.addEventListener("click", () => {
      stopped();
      changed();
    });
    element.append(text, stop);
    return element;
  }

  /** Say what the rules call now, with a button that records it. */
  function addPrompt(where, text, call) {
    const box = page.querySelector("#calc-prompts");
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
        calculator.record(call, text);
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

  return {
    draw,
    startCount(id, athlete) {
      if (clock.startCount(id, athlete)) changed();
    },
    startInjury(athlete) {
      if (!clock.injury[athlete]) clock.toggleInjury(athlete);
      changed();
    },
    stop() {
      if (clock.stop()) changed();
    },
    notice(text) {
      addPrompt("both", text, null);
    },
  };
}
