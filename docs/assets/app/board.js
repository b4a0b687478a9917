// /calculator/board/: the audience screen. It shows the score and the clock of the match
// recorded in the calculator's match mode in another tab or window of this browser
// (BroadcastChannel), for a second screen facing the athletes. It scores nothing: every
// number comes from the calculator, which has it from the rules engine.

import { CHANNEL, clockText, fill, pageData } from "./page-data.js";

const TICK_MS = 200;

export function mount(root) {
  const words = pageData().words;
  const time = root.querySelector("#board-time");
  const result = root.querySelector("#board-result");
  let state = null;
  let ticking = null;
  let lock = null;
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.addEventListener("message", (event) => {
    if (!root.isConnected) {
      channel.close();
      return;
    }
    if (event.data?.type !== "state") return;
    state = event.data;
    show();
  });
  channel.postMessage({ type: "hello" });
  keepAwake();
  document.addEventListener("visibilitychange", keepAwake);

  function show() {
    delete root.dataset.waiting;
    for (const athlete of ["A", "B"]) {
      const shown = state.athletes[athlete];
      const panel = root.querySelector(`.lvl-athlete[data-athlete="${athlete}"]`);
      panel.querySelector("[data-name]").textContent = shown.name || fill(words.athlete, { athlete });
      panel.dataset.colour = shown.colour;
      panel.style.setProperty("--lvl-side-bg", shown.background);
      panel.style.setProperty("--lvl-side-fg", shown.text);
      for (const field of ["points", "advantages", "penalties"]) {
        panel.dataset[field] = String(shown[field]);
        panel.querySelector(`[data-field="${field}"]`).textContent = String(shown[field]);
      }
      panel.querySelector('[data-field="status"]').textContent = shown.status;
    }
    // The result once the match has ended; "Time" while it waits for its announcement.
    result.textContent = state.result?.ended ? state.result.summary : state.timeExpired ? words.board_time : "";
    root.dataset.winner = state.result?.winner ?? "";
    showClock();
    if (state.clock.running) ticking ??= setInterval(showClock, TICK_MS);
    else if (ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  }

  function showClock() {
    if (!root.isConnected) {
      clearInterval(ticking);
      return;
    }
    // From the moment the match screen read its clock (`at`: the same wall clock in every
    // tab of a browser), not from when the message arrived: a busy tab may get it late.
    const { length, elapsed, running, at } = state.clock;
    const spent = elapsed + (running ? Math.max(0, Date.now() - at) : 0);
    const text = length ? clockText(length - spent) : clockText(spent, { up: true });
    if (time.textContent !== text) time.textContent = text;
    root.dataset.clock = running ? "running" : "stopped";
  }

  async function keepAwake() {
    if (!("wakeLock" in navigator) || lock || document.visibilityState !== "visible" || !root.isConnected) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => (lock = null));
    } catch {
      lock = null;
    }
  }
}
