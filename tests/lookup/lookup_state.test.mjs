// The lookup screen's state (docs/assets/app/lookup-state.js and division-table.js's
// askedFields) under Node's test runner, on the rules table the build makes:
//
//   LVL_LOOKUP_TABLE=TABLE_FILE node --test tests/lookup/lookup_state.test.mjs
//
// (tests/test_lookup_table.py writes TABLE_FILE with lvl_rules.faces.my_division.table
// and runs this.) No browser, no DOM.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const APP = path.join(HERE, "..", "..", "docs", "assets", "app");
const { answerFrom, askedFields } = await import(pathToFileURL(path.join(APP, "division-table.js")).href);
const { askable, errorShown, notYet, whatChanged } = await import(pathToFileURL(path.join(APP, "lookup-state.js")).href);

const table = JSON.parse(readFileSync(process.env.LVL_LOOKUP_TABLE, "utf8"));
// The editions by their place on the timeline, as the table says (never an ID written
// here): the one in force (it goes by belt), and the full rulebook it amends (by LVL).
const IN_FORCE = table.latest;
const [FULL] = table.compare[IN_FORCE];
const NINE = { edition: IN_FORCE, age: "9", uniform: "gi" };
const ADULT_BLUE = { edition: IN_FORCE, age: "30", belt: "blue", uniform: "gi" };

test("a 9-year-old's techniques not allowed yet, grouped by when, soonest first", () => {
  const groups = notYet(answerFrom(table, NINE).placement.answer);
  assert.deepEqual(groups.map((g) => g.when), [
    "age=13",
    "age=16",
    "age=18;rank=blue,purple,brown,black",
    "age=18;rank=purple,brown,black",
    "age=18;rank=brown,black",
    "age=18;rank=brown,black;uniform=nogi",
    "prohibited",
  ]);
  assert.deepEqual(groups[0].ids, ["leg-stretching-submission"]);
  assert.ok(groups[1].ids.includes("front-guillotine"));
  assert.equal(groups.at(-1).prohibited, true);
  assert.ok(groups.at(-1).ids.includes("slam"));
  const all = groups.flatMap((g) => g.ids);
  assert.equal(new Set(all).size, all.length); // each technique once
});

test("groups follow each other only where the answer's order puts them together", () => {
  const facts = {
    not_legal: [
      { id: "a", prohibited: false, unlock: "age=16" },
      { id: "b", prohibited: false, unlock: "age=18" },
      { id: "c", prohibited: false, unlock: "age=16" },
      { id: "d", prohibited: true, unlock: "never" },
      { id: "e", prohibited: false, unlock: "never" },
    ],
  };
  assert.deepEqual(notYet(facts).map((g) => [g.when, g.ids]), [
    ["age=16", ["a"]], ["age=18", ["b"]], ["age=16", ["c"]], ["prohibited", ["d"]], ["never", ["e"]],
  ]);
});

test("the fields asked: none beside age and uniform for a 9-year-old, the edition's own from 16", () => {
  assert.deepEqual(askedFields(table, IN_FORCE, NINE), []);
  assert.deepEqual(askedFields(table, FULL, NINE), []);
  assert.deepEqual(askedFields(table, IN_FORCE, { age: "" }), []);
  assert.deepEqual(askedFields(table, IN_FORCE, { age: "thirty" }), []);
  assert.deepEqual(askedFields(table, IN_FORCE, { age: "130" }), []);
  assert.deepEqual(new Set(askedFields(table, IN_FORCE, ADULT_BLUE)), new Set(["belt", "experience"]));
  assert.deepEqual(askedFields(table, FULL, { ...ADULT_BLUE, edition: FULL }), ["lvl"]);
  assert.deepEqual(new Set(askable(table)), new Set(["lvl", "belt", "experience"]));
});

test("what changed for an adult blue belt whose LVL (the full rulebook's rank) is not given", () => {
  const view = whatChanged(answerFrom(table, ADULT_BLUE).compare);
  assert.equal(view.kind, "compared");
  assert.deepEqual([view.older, view.newer], [FULL, IN_FORCE]);
  assert.deepEqual(view.unknown, { edition: FULL, field: "lvl" });
  assert.ok(view.depends.some((d) => d.kind === "technique" && d.id === "wrist-lock"));
  const everyone = view.everyone.map((c) => `${c.collection}/${c.id}`);
  for (const change of ["positions/takedown", "positions/knee-on-belly", "positions/mount",
    "positions/back-control", "escapes/locked"]) {
    assert.ok(everyone.includes(change), change);
  }
});

test("what changed with the LVL given: nothing unknown, nothing that depends on it", () => {
  const view = whatChanged(answerFrom(table, { ...ADULT_BLUE, lvl: "3" }).compare);
  assert.equal(view.unknown, null);
  assert.deepEqual(view.depends, []);
  assert.ok(view.rows.some((row) => row.id === "bicep-slicer" && row.before && !row.after));
  assert.ok(view.everyone.length > 0);
});

test("a comparison stopped by a field names the edition at fault", () => {
  const view = whatChanged(answerFrom(table, { ...ADULT_BLUE, lvl: "9" }).compare);
  assert.equal(view.kind, "error");
  assert.equal(view.edition, FULL);
  assert.equal(view.error.field, "lvl");
  assert.equal(whatChanged(null), null);
});

test("a field's error is said once the field is left, or the answer asked for", () => {
  assert.equal(errorShown("belt", new Set(["age"]), false), false); // typed an age, belt not reached
  assert.equal(errorShown("belt", new Set(["age", "belt"]), false), true);
  assert.equal(errorShown("belt", new Set(), true), true);
});
