// What the audience screen takes from its channel (docs/assets/app/board-state.js): a
// malformed message is ignored (it showed NaN:NaN and undefined), and a match's older
// state never follows a newer one (two tabs with the match open answered a new screen
// in either order: B 0 then 2, or 2 then 0). Issue 36, items 7 and 13.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Heard, isState } from "../../docs/assets/app/board-state.js";

const MATCH = "abcdefgh12";

function state({ changed = 1_000, sent = 1, pointsB = 0, match = MATCH } = {}) {
  const side = (name, colour, points) => ({
    name, colour, background: "#000", text: "#fff", points, advantages: 0, penalties: 0, status: "",
  });
  return {
    type: "state",
    match,
    athletes: { A: side("Ana", "blue", 0), B: side("Bia", "white", pointsB) },
    result: null,
    timeExpired: false,
    clock: { length: 300_000, elapsed: 2_000, running: true, at: 1_800_000_000_000 },
    order: { changed, sent },
  };
}

test("a malformed message is ignored: the screen keeps what it showed", () => {
  const heard = new Heard();
  assert.ok(heard.take(state()));
  const broken = [
    null, "state", { type: "state", match: MATCH }, { ...state(), clock: { length: "x" } },
    { ...state(), athletes: { A: {} } }, { ...state(), order: undefined },
    { ...state(), clock: { ...state().clock, elapsed: Number.NaN } },
    { ...state(), athletes: { ...state().athletes, B: { ...state().athletes.B, points: "2" } } },
    { ...state(), match: "../x" }, { ...state(), result: { summary: 3 } },
  ];
  for (const message of broken) {
    assert.equal(isState(message), false, JSON.stringify(message));
    assert.equal(heard.take(message), null);
  }
  assert.equal(heard.get(MATCH).athletes.B.points, 0);
});

test("two tabs with the match open: the newer match is shown, whatever the order they answer in", () => {
  const older = state({ changed: 1_000, sent: 7, pointsB: 0 }); // opened before the takedown
  const newer = state({ changed: 2_000, sent: 3, pointsB: 2 }); // the takedown was made here
  for (const order of [[older, newer], [newer, older]]) {
    const heard = new Heard();
    for (const message of order) heard.take(message);
    assert.equal(heard.get(MATCH).athletes.B.points, 2);
  }
});

test("from one tab, each message is newer than the last; other matches are kept apart", () => {
  const heard = new Heard();
  assert.ok(heard.take(state({ sent: 1 })));
  assert.ok(heard.take(state({ sent: 2, pointsB: 2 })));
  assert.equal(heard.take(state({ sent: 1 })), null, "a late message of before");
  assert.ok(heard.take(state({ match: "zzzzzzzz99", changed: 1 })));
  assert.equal(heard.size, 2);
});
