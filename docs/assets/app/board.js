// /calculator/board/: the audience screen. It shows the score and the clock of one match
// recorded in the calculator's match mode in another tab or window of this browser
// (BroadcastChannel), for a screen facing the mat. It scores nothing: every number comes
// from the calculator, which has it from the rules engine. It follows the match named in
// its address (`match`, as the calculator's link gives it); opened without one, the
// first match it hears, with a choice when another is being recorded too.

import { drawAthlete } from "./athlete-panel.js";
import { Heard } from "./board-state.js";
import { clockText } from "./match-clock.js";
import { isMatchId } from "./match-store.js";
import { CHANNEL, fill, pageData } from "./page-data.js";
import { keepAwake } from "./page-life.js";

const TICK_MS = 200;

export function mount(root) {
  const words = pageData().words;
  const time = root.querySelector("#board-time");
  const result = root.querySelector("#board-result");
  const chooser = root.querySelector("#board-choose");
  const asked = new URLSearchParams(location.search).get("match");
  let followed = isMatchId(asked) ? asked : null;
  const heard = new Heard(); // match id -> its latest state
  let ticking = null;
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.addEventListener("message", (event) => {
    if (!root.isConnected) {
      channel.close();
      return;
    }
    const state = heard.take(event.data); // malformed, or older than what is shown: ignored
    if (!state) return;
    followed ??= state.match;
    offerChoice();
    if (state.match === followed) show(state);
  });
  chooser.addEventListener("change", () => {
    followed = chooser.value;
    if (heard.has(followed)) show(heard.get(followed));
  });
  channel.postMessage({ type: "hello", match: followed });
  keepAwake(() => root.isConnected);

  /** With more than one match heard (and none named in the address), a choice of them. */
  function offerChoice() {
    const several = heard.size > 1 && !isMatchId(asked);
    chooser.closest("[data-choose]").hidden = !several;
    if (!several) return;
    const options = [...heard.values()].map((state) => {
      const option = new Option(fill(words.board_match, { a: state.athletes.A.name, b: state.athletes.B.name }), state.match);
      option.selected = state.match === followed;
      return option;
    });
    chooser.replaceChildren(...options);
  }

  function show(state) {
    delete root.dataset.waiting;
    for (const athlete of ["A", "B"]) {
      drawAthlete(root.querySelector(`.lvl-athlete[data-athlete="${athlete}"]`), state.athletes[athlete], words);
    }
    // The result once the match has ended; "Time" while it waits for its announcement.
    result.textContent = state.result?.ended ? state.result.summary : state.timeExpired ? words.board_time : "";
    root.dataset.winner = state.result?.winner ?? "";
    showClock(state);
    if (state.clock.running) ticking ??= setInterval(() => showClock(heard.get(followed)), TICK_MS);
    else if (ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  }

  function showClock(state) {
    if (!root.isConnected) {
      clearInterval(ticking);
      return;
    }
    // From the moment the match screen read its clock (`at`: the same wall clock in every
    // tab of a browser), not from when the message arrived: a busy tab may get it late.
    const { length, elapsed, running, at } = state.clock;
    const spent = Math.min(length ?? Infinity, elapsed + (running ? Math.max(0, Date.now() - at) : 0));
    const text = length ? clockText(length - spent) : clockText(spent, { up: true });
    if (time.textContent !== text) time.textContent = text;
    root.dataset.clock = running ? "running" : "stopped";
  }
}
