// This match, told to the audience screens of this browser (/calculator/board/, in
// another tab or window) over a BroadcastChannel: the names, colours and score from the
// engine's answer, the result, and the clock. Each message names the match (its id), so
// that a screen follows one match even when two are being recorded in one browser.

import { CHANNEL } from "./page-data.js";

export function broadcast(calculator) {
  const { page, words, data, match, clock, setup, id } = calculator;
  const section = page.querySelector("#calc-board");
  const link = page.querySelector("#calc-board-link");
  if (link) link.href = `${new URL(link.getAttribute("href"), location.href).pathname}?match=${id}`;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  channel?.addEventListener("message", (event) => {
    if (!section.isConnected) return channel.close();
    if (event.data?.type === "hello" && (!event.data.match || event.data.match === id)) post();
  });

  // The state's order: when the match last changed here (the kept record's time, until
  // the person changes something in this tab), and the count of messages sent.
  let changed = calculator.keptAt ?? 0;
  let sent = 0;

  function state() {
    const athletes = {};
    for (const athlete of ["A", "B"]) {
      const tally = match.answer?.athletes[athlete];
      athletes[athlete] = {
        name: setup.label(athlete),
        colour: setup.colour[athlete],
        ...data.colours[setup.colour[athlete]],
        points: tally?.points ?? null,
        advantages: tally?.advantages ?? null,
        penalties: tally?.penalties ?? null,
        status: tally?.disqualified ? words.disqualified[tally.disqualified_from] : "",
      };
    }
    const result = match.answer?.result;
    return {
      type: "state",
      match: id,
      athletes,
      result: match.events.length && result ? { summary: result.summary, winner: result.winner, ended: result.ended } : null,
      timeExpired: match.timeExpired,
      clock: { length: clock.length, elapsed: clock.elapsed(), running: clock.running, at: Date.now() },
      order: { changed, sent: ++sent },
    };
  }

  /** Tell the screens; `change`: the person changed the match or its clock here. */
  function post({ change = false } = {}) {
    if (change) changed = Math.max(Date.now(), changed + 1);
    // A read-only tab (another records the match) has nothing to tell.
    if (channel && section.isConnected && !calculator.readOnly) channel.postMessage(state());
  }

  return { post };
}
