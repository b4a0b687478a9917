// An event the engine cannot score yet (its division is not valid) in words, from the
// calls the build writes into the calculator page (issue 39, item 13): the call of the
// button or picker choice that records the same fields, the more precise first; the
// athlete named as the page calls them; null, never a guess, for an event no call makes.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { callWords } from "../../docs/assets/app/call-words.js";

// The calculator page's data, as the build wrote it (tests/test_app_modules.py builds it).
const data = JSON.parse(readFileSync(process.env.LVL_CALCULATOR_DATA, "utf-8"));
const label = (athlete) => ({ A: "Ana", B: "White" })[athlete];

test("each call in words, the athlete named, for every edition", () => {
  for (const [edition, calls] of Object.entries(data.calls)) {
    const takedown = callWords({ type: "score", athlete: "A", position: "takedown", time: 5 }, calls, data.words, label);
    assert.match(takedown, /^Ana: Takedown \(\d\)$/, edition);
    const stalling = callWords({ type: "penalty", athlete: "B", foul: "stalling" }, calls, data.words, label);
    assert.equal(stalling, "White: Stalling", edition);
    const both = callWords({ type: "penalty", athlete: "both", foul: "stalling" }, calls, data.words, label);
    assert.equal(both, "Both athletes stalling", edition);
    assert.equal(callWords({ type: "end", time: 300 }, calls, data.words, label), "End of the match…", edition);
  }
});

test("a picker's choice is named, not only the button that opened it", () => {
  for (const calls of Object.values(data.calls)) {
    const foul = callWords({ type: "penalty", athlete: "A", foul: "flee-area" }, calls, data.words, label);
    assert.equal(foul, "Ana: Penalty: Fleeing the area");
  }
});

test("no call, no words: what is no event stays for the page to show as it is", () => {
  const calls = Object.values(data.calls)[0];
  for (const odd of [null, 3, "x", [], { type: "nonsense" }]) assert.equal(callWords(odd, calls, data.words, label), null);
});
