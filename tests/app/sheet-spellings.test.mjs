// One match, one fingerprint, on the page too (issue 36's property test, whose API and
// command-line halves are tests/test_sheet_spellings.py): random matches, each spelled
// 1,000 random ways in a link (the order of keys, a number as 5, 5.0 or 5e0, prior
// experience in any order and form, whitespace, escaped characters), read as the sheet
// page reads its address (match-link.js, sheet-request.js) and sent to the real engine,
// give one fingerprint, the one the engine gives the match written plainly; a change of
// one event gives another. Seeded: a failure names its seed.

import assert from "node:assert/strict";
import { test } from "node:test";

import { readLink } from "../../docs/assets/app/match-link.js";
import { Setup } from "../../docs/assets/app/match-setup.js";
import { sheetRequest } from "../../docs/assets/app/sheet-request.js";
import { startEngine } from "./engine.mjs";

const engine = await startEngine();
const limits = await engine.ask({ action: "limits" });
const { rank_axes: RANK_AXES } = await engine.ask({ action: "editions" });
const SETUP = { colours: { blue: {}, white: {} }, defaults: { A: "blue", B: "white" } };
const DETAILS = ["date", "event", "mat", "match"];
const KINDS = ["mma", "wrestling", "judo-black-belt"];
const SPELLINGS = 1000;

/** A small seeded random source (mulberry32): the same seed, the same matches. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const shuffled = (list) => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  return { int, pick, shuffled };
}

function randomEvent(r) {
  const athlete = r.pick(["A", "B"]);
  const event = r.pick([
    () => ({ type: "score", athlete, position: r.pick(["takedown", "mount", "sweep"]) }),
    () => ({ type: "advantage", athlete }),
    () => ({ type: "penalty", athlete, foul: "stalling" }),
    () => ({ type: "nonsense", note: r.pick(["", "é", "a\"b", "李"]) }),
  ])();
  if (r.int(2)) event.time = r.int(601);
  return event;
}

function randomMatch(r) {
  const events = Array.from({ length: 1 + r.int(6) }, () => randomEvent(r));
  const experience = r.shuffled(KINDS).slice(0, r.int(4));
  return { events, experience };
}

/** `value` as JSON text, spelled one of the ways that read as the same value. */
function spelled(r, value) {
  const space = () => r.pick(["", " ", "\n", "\t ", "\r\n  "]);
  if (typeof value === "number") {
    const forms = [String(value), `${value}.0`, `${value}e0`, `${value}.00E+0`];
    if (value) forms.push(`${value * 10}e-1`);
    return r.pick(forms);
  }
  if (typeof value === "string") {
    const chars = [...value].map((c) =>
      c.codePointAt(0) < 0x10000 && r.int(2) ? `\\u${c.codePointAt(0).toString(16).padStart(4, "0")}` : JSON.stringify(c).slice(1, -1),
    );
    return `"${chars.join("")}"`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => space() + spelled(r, item) + space()).join(",")}]`;
  const members = r.shuffled(Object.keys(value)).map((k) => `${space()}${spelled(r, k)}${space()}:${space()}${spelled(r, value[k])}`);
  return `{${members.join(",")}${space()}}`;
}

/** The address's query for the match's experience, in one of the link's forms. */
function experienceQuery(r, experience) {
  const order = r.shuffled(experience);
  if (!order.length) return "";
  return r.int(2) ? `&experience=${order.join(",")}` : order.map((kind) => `&experience=${kind}`).join("");
}

const DIVISION = "edition=latest&age=30&belt=white&uniform=gi&name_a=Ana";

/** The fingerprint the sheet page gets for a link (read as the page reads it). */
async function pageFingerprint(query, eventsText) {
  const url = new URL(`https://lvl.test/calculator/sheet/?${query}&events=${encodeURIComponent(eventsText)}`);
  const link = await readLink(url, limits, {});
  assert.equal(link.error, undefined, eventsText);
  const setup = new Setup(SETUP).read(url.searchParams, null);
  const sheet = await engine.ask(sheetRequest(url.searchParams, link.events, setup, DETAILS, limits, RANK_AXES));
  return sheet.fingerprint.sha256;
}

test("a match spelled 1,000 random ways in a link has one fingerprint on the page, the engine's", async () => {
  for (let seed = 1; seed <= SPELLINGS; seed++) {
    const r = random(seed);
    const match = randomMatch(r);
    const plain = await engine.ask({
      action: "sheet",
      ...{ edition: "latest", age: 30, belt: "white", uniform: "gi" },
      experience: match.experience,
      names: { A: "Ana" },
      colours: SETUP.defaults,
      events: match.events,
    });
    const query = DIVISION + experienceQuery(r, match.experience);
    const printed = await pageFingerprint(query, spelled(r, match.events));
    assert.equal(printed, plain.fingerprint.sha256, `seed ${seed}: ${JSON.stringify(match)}`);
  }
});

test("a change of one event in the link changes the page's fingerprint", async () => {
  for (let seed = 1; seed <= 100; seed++) {
    const r = random(seed);
    const { events } = randomMatch(r);
    const index = r.int(events.length);
    const changed = events.map((event) => ({ ...event }));
    changed[index].time = (events[index].time ?? -1) + 1;
    const before = await pageFingerprint(DIVISION, spelled(r, events));
    const after = await pageFingerprint(DIVISION, spelled(r, changed));
    assert.notEqual(after, before, `seed ${seed}`);
  }
});
