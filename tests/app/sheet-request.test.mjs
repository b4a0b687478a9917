// The match sheet's request (docs/assets/app/sheet-request.js), from a link as the page
// reads it (match-link.js), sent to the real engine: the page's fingerprint is the one
// the engine gives for the match however the link spells it (5.0 is 5, experience in
// any order), two links that differ only in a number beyond the limits have two, and a
// lone surrogate sets one event aside, not the sheet (issue 36, items 3, 4, 5, 9).

import assert from "node:assert/strict";
import { test } from "node:test";

import { readLink } from "../../docs/assets/app/match-link.js";
import { Setup } from "../../docs/assets/app/match-setup.js";
import { sheetRequest } from "../../docs/assets/app/sheet-request.js";
import { startEngine } from "./engine.mjs";

const engine = await startEngine();
const limits = await engine.ask({ action: "limits" });
const { rank_axes: RANK_AXES } = await engine.ask({ action: "editions" });
const SETUP = {
  colours: { blue: {}, white: {}, red: {} },
  defaults: { A: "blue", B: "white" },
  colourNames: { blue: "Blue", white: "White", red: "Red" },
};
const DETAILS = ["date", "event", "mat", "match"];

/** The sheet the page gets for an address's query (events written as given). */
async function sheetFor(query, eventsText) {
  const url = new URL(`https://lvl.test/calculator/sheet/?${query}&events=${encodeURIComponent(eventsText)}`);
  const link = await readLink(url, limits, {});
  assert.equal(link.error, undefined);
  const setup = new Setup(SETUP).read(url.searchParams, null);
  return engine.ask(sheetRequest(url.searchParams, link.events, setup, DETAILS, limits, RANK_AXES));
}

const WHITE = "edition=latest&age=30&belt=white&uniform=gi&name_a=Ana";
const TAKEDOWN = (time) => `[{"type":"score","athlete":"A","position":"takedown","time":${time}}]`;

test("the page's fingerprint is the engine's for the match, however the link spells it", async () => {
  const plain = await engine.ask({
    action: "sheet", edition: "latest", age: 30, belt: "white", uniform: "gi",
    experience: ["mma", "wrestling"], names: { A: "Ana" },
    events: [{ type: "score", athlete: "A", position: "takedown", time: 5 }],
  });
  const prints = new Set();
  for (const [experience, time] of [["mma,wrestling", "5"], ["wrestling,mma", "5.0"], ["wrestling&experience=mma", "5e0"]]) {
    const sheet = await sheetFor(`${WHITE}&experience=${experience}`, TAKEDOWN(time));
    prints.add(sheet.fingerprint.sha256);
    assert.ok(sheet.athletes.A.points > 0);
  }
  assert.deepEqual([...prints], [plain.fingerprint.sha256]);
});

test("two links that differ only in a number beyond the limits have two fingerprints", async () => {
  const one = await sheetFor(WHITE, TAKEDOWN("1234567890123456"));
  const other = await sheetFor(WHITE, TAKEDOWN("1234567890123457"));
  assert.notEqual(one.fingerprint.sha256, other.fingerprint.sha256);
  assert.equal(one.log[0].refused.problem, "number-too-long");
});

test("names, colours and the match's details are in the fingerprint; a lone surrogate sets one event aside", async () => {
  const events = '[{"type":"score\\udc00","athlete":"A"},{"type":"advantage","athlete":"B"}]';
  const base = await sheetFor(WHITE, events);
  assert.equal(base.log[0].refused.problem, "unknown-event-type");
  assert.equal(base.athletes.B.advantages, 1);
  const others = await Promise.all([
    sheetFor(WHITE.replace("name_a=Ana", "name_b=Ana"), events),
    sheetFor(`${WHITE}&colour_a=red`, events),
    sheetFor(`${WHITE}&mat=2`, events),
  ]);
  const prints = new Set([base, ...others].map((sheet) => sheet.fingerprint.sha256));
  assert.equal(prints.size, 4);
  assert.deepEqual(others[2].details, { mat: "2" });
});
