// This match, told to the audience screens of this browser (/calculator/board/, in
// another tab or window) over a BroadcastChannel: the names, colours and score from the
// engine's answer, the result, and the clock. Each message names the match (its id), so
// that a screen follows one match even when two are being recorded in one browser.

import { athleteShown } from "./athlete-panel.js";
import { CHANNEL } from "./page-data.js";

/** Tell the audience screens of this browser the owner's match after every change. */
export function broadcast(owner, { page, words }) {
  const { id } = owner;
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
  let changed = owner.keptAt ?? 0;
  let sent = 0;

  function state() {
    const { match, clock } = owner;
    const athletes = {};
    for (const athlete of ["A", "B"]) athletes[athlete] = athleteShown(owner, athlete, words);
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
    if (channel && section.isConnected && !owner.readOnly) channel.postMessage(state());
  }

  // What the person does here is a change; the engine scoring again is not.
  const PERSON = new Set(["clock", "setup"]);
  owner.subscribe((_, { kind, done }) => {
    if (kind === "address" || kind === "kept" || kind === "prompts" || kind === "correct") return;
    post({ change: PERSON.has(kind) || Boolean(done?.changes.some((c) => c.kind !== "rescore")) });
  });
}
