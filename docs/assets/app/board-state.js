// What the audience screen takes from its channel: a calculator's state of one match,
// checked for shape (anything else on the channel, malformed or of another build, is
// ignored: the screen keeps what it showed), and never older than the state it has of
// that match. Each state carries its order (`order`: when the match last changed in the
// tab that sent it, by the wall clock all tabs of a browser share, and a count of that
// tab's messages): two tabs with the same match open, the one with the older match is
// not shown after the newer. No DOM: tests/app/board-state.test.mjs.

import { isMatchId } from "./match-store.js";

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isText = (value) => typeof value === "string";
const isCount = (value) => value === null || (Number.isInteger(value) && value >= 0);
const isMs = (value) => Number.isFinite(value) && value >= 0;

/** Whether a message is a state this screen can show, whole. */
export function isState(state) {
  if (!isObject(state) || state.type !== "state" || !isMatchId(state.match)) return false;
  if (!isObject(state.order) || !isMs(state.order.changed) || !isMs(state.order.sent)) return false;
  if (!isObject(state.athletes)) return false;
  for (const athlete of ["A", "B"]) {
    const shown = state.athletes[athlete];
    if (!isObject(shown) || !isText(shown.name) || !isText(shown.colour) || !isText(shown.status)) return false;
    if (!isText(shown.background) || !isText(shown.text)) return false;
    if (!["points", "advantages", "penalties"].every((field) => isCount(shown[field]))) return false;
  }
  const result = state.result;
  if (result !== null && !(isObject(result) && isText(result.summary) && typeof result.ended === "boolean")) return false;
  const clock = state.clock;
  if (!isObject(clock) || !(clock.length === null || isMs(clock.length)) || !isMs(clock.elapsed)) return false;
  return typeof clock.running === "boolean" && isMs(clock.at) && typeof state.timeExpired === "boolean";
}

/** Whether `state` is newer than `shown` (the state the screen has of that match, or
 * undefined): the match changed later, or as late and the message was sent later. */
export function isNewer(state, shown) {
  if (!shown) return true;
  const [a, b] = [state.order, shown.order];
  return a.changed !== b.changed ? a.changed > b.changed : a.sent >= b.sent;
}

/** The states heard, by match: `take(message)` keeps a message that is a state newer
 * than the one kept for its match and returns it, or returns null. */
export class Heard extends Map {
  take(message) {
    if (!isState(message) || !isNewer(message, this.get(message.match))) return null;
    this.set(message.match, message);
    return message;
  }
}
