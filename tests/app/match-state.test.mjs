// The match model (docs/assets/app/match-state.js) against the real rules engine (the
// lvl_rules wheel in Pyodide under Node): changes in order, corrections applied when
// their turn comes, calls before the engine is ready, refusals, undo and redo.

import assert from "node:assert/strict";
import { before, test } from "node:test";

import { Match } from "../../docs/assets/app/match-state.js";
import { startEngine } from "./engine.mjs";

// An adult blue belt in the edition in force (the package's timeline says which; set below).
let DIVISION;
const mount = { type: "score", athlete: "A", position: "mount" };
const takedown = (athlete) => ({ type: "score", athlete, position: "takedown" });
const advantage = (athlete) => ({ type: "advantage", athlete });

let engine;
let keys = 0;

before(async () => {
  engine = await startEngine();
  const { latest } = await engine.ask({ action: "editions" });
  DIVISION = { edition: latest, age: "30", belt: "blue", uniform: "gi" };
});

function newMatch(fields = {}) {
  return new Match({ key: `test-${++keys}`, ask: engine.ask, division: DIVISION, ...fields });
}

/** The answer a fresh scoring of the match gives (its own key: nothing kept). */
async function fresh(match) {
  return engine.ask({ action: "score", ...match.division, events: match.events, set_aside: true });
}

async function assertScoredAfresh(match) {
  const expected = await fresh(match);
  assert.deepEqual(match.answer.athletes, expected.athletes);
  assert.deepEqual(match.answer.result, expected.result);
  assert.deepEqual(match.lines, expected.log);
}

test("calls are scored in order, each line citing its clause", async () => {
  const match = newMatch();
  match.press(takedown("A"));
  match.press(mount);
  await match.press(advantage("B"));
  assert.deepEqual([takedown("A"), mount, advantage("B")], match.events);
  assert.equal(6, match.answer.athletes.A.points);
  assert.equal(1, match.answer.athletes.B.advantages);
  assert.ok(match.lines.every((line) => line.cite));
  assert.equal("scored", match.status);
  await assertScoredAfresh(match);
});

test("calls made before the engine is ready wait, shown, and are scored in order in one request", async () => {
  const match = newMatch();
  engine.hold();
  const asked = engine.requests.length;
  match.press(takedown("A"), "Takedown (2)");
  match.press(takedown("B"), "Takedown (2)");
  const done = match.press(mount, "Mount (4)");
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(["Takedown (2)", "Takedown (2)", "Mount (4)"], match.waiting.map((c) => c.label));
  assert.equal("waiting", match.status);
  assert.deepEqual([takedown("A"), takedown("B"), mount], match.toJSON().events); // kept meanwhile
  engine.release();
  await done;
  assert.equal(0, match.waiting.length);
  assert.deepEqual([takedown("A"), takedown("B"), mount], match.events);
  assert.deepEqual({ A: 6, B: 2 }, { A: match.answer.athletes.A.points, B: match.answer.athletes.B.points });
  assert.ok(engine.requests.length - asked <= 2, "the waiting calls go in one request");
  assert.equal(3, match.history.length, "each call can be undone on its own");
});

test("a call the rules refuse is not added, says why, and leaves redo alone", async () => {
  const match = newMatch();
  await match.press(takedown("A"));
  await match.press(advantage("B"));
  await match.undo();
  assert.equal(1, match.future.length);
  await match.press({ type: "award", athlete: "A", award: "disqualified-in-error" }); // nothing to withdraw
  assert.deepEqual(match.events, [takedown("A")]);
  assert.match(match.notice.message, /disqualification/);
  assert.equal(match.future.length, 1, "the refused call took nothing from redo");
  await match.redo();
  assert.deepEqual(match.events, [takedown("A"), advantage("B")]);
});

test("refused calls among waiting ones: only those are left out, the rest scored as if they never were", async () => {
  const match = newMatch();
  engine.hold();
  match.press(takedown("A"));
  match.press({ type: "submission", athlete: "B" });
  match.press(takedown("A")); // after the end
  const done = match.press(advantage("B")); // after the end
  engine.release();
  await done;
  assert.deepEqual([takedown("A"), { type: "submission", athlete: "B" }], match.events);
  await assertScoredAfresh(match);
  await match.press(advantage("A")); // still refused: the match has ended
  await assertScoredAfresh(match);
});

test("a correction made while a call waits keeps that call (applied when its turn comes)", async () => {
  const match = newMatch();
  await match.press(takedown("A"));
  await match.press(advantage("A"));
  const [first, second] = match.events;
  engine.hold();
  match.press(mount);
  match.replace(second, advantage("B"));
  const done = match.remove(first);
  engine.release();
  await done;
  assert.deepEqual([advantage("B"), mount], match.events);
  await assertScoredAfresh(match);
});

test("two quick deletes delete two events", async () => {
  const match = newMatch();
  for (const event of [takedown("A"), takedown("B"), advantage("A")]) await match.press(event);
  const [, b, c] = match.events;
  engine.hold();
  match.remove(b);
  const done = match.remove(c);
  engine.release();
  await done;
  assert.deepEqual([takedown("A")], match.events);
  await match.undo();
  assert.deepEqual([takedown("A"), advantage("A")], match.events);
  await match.undo();
  assert.deepEqual([takedown("A"), takedown("B"), advantage("A")], match.events);
});

test("undo and redo survive the record: a match made again from what was kept undoes", async () => {
  const match = newMatch();
  for (const event of [takedown("A"), mount, advantage("B")]) await match.press(event);
  await match.undo();
  const kept = JSON.parse(JSON.stringify(match.toJSON()));
  const again = newMatch(kept);
  assert.equal("remembered", again.source);
  assert.ok(again.canUndo && again.canRedo);
  await again.redo();
  assert.deepEqual([takedown("A"), mount, advantage("B")], again.events);
  await again.undo();
  await again.undo();
  assert.deepEqual([takedown("A")], again.events);
  await assertScoredAfresh(again);
});

test("more than 200 refused events in a link: every other event is scored, in one request", async () => {
  const events = [];
  for (let i = 0; i < 260; i++) events.push({ type: "score", athlete: "C", position: "mount" }, takedown("A"));
  const match = newMatch({ events });
  const asked = engine.requests.length;
  await match.rescore();
  assert.equal(1, engine.requests.length - asked);
  assert.equal(260 * 2, match.answer.athletes.A.points);
  assert.equal(260, match.lines.filter((line) => line.refused).length);
  assert.equal(520, match.events.length, "refused events from a link stay, marked");
});

test("an event beyond a limit is not sent; the rest is scored", async () => {
  const problem = (event) => (event?.big ? "too big" : null);
  const match = newMatch({ events: [takedown("A"), { type: "advantage", athlete: "B", big: 1 }, mount], problem });
  await match.rescore();
  assert.equal(null, engine.requests.at(-1).events[1]);
  assert.deepEqual(new Map([[1, "too big"]]), match.limited);
  assert.equal(6, match.answer.athletes.A.points);
  assert.equal(false, match.scored(1));
  assert.equal(true, match.scored(2));
});

test("no division, no score: the events wait, named by the field at fault, then are scored", async () => {
  const { age: _, ...noAge } = DIVISION;
  const match = newMatch({ division: noAge });
  await match.press(takedown("A"));
  assert.equal("division", match.status);
  assert.equal("age", match.trouble.field);
  assert.equal(null, match.answer);
  assert.deepEqual([takedown("A")], match.events, "the call is kept");
  await match.setDivision(DIVISION);
  assert.equal("scored", match.status);
  assert.equal(2, match.answer.athletes.A.points);
});

test("any mix of changes: the answer is always a fresh scoring's of the match as it stands", async () => {
  const match = newMatch();
  const kinds = [takedown("A"), takedown("B"), mount, advantage("A"), { type: "time-expired" }, { type: "end" }];
  let seed = 7;
  const random = (n) => ((seed = (seed * 16807) % 2147483647) % n);
  for (let step = 0; step < 60; step++) {
    const choice = random(6);
    if (step % 9 === 0) engine.hold();
    if (choice < 3 || !match.events.length) match.press(kinds[random(kinds.length)]);
    else if (choice === 3) match.remove(match.events[random(match.events.length)]);
    else if (choice === 4) match.undo();
    else match.replace(match.events[random(match.events.length)], kinds[random(kinds.length)]);
    if (step % 9 === 4) engine.release();
    if (step % 5 === 0) {
      engine.release();
      await match.settled();
      await assertScoredAfresh(match);
    }
  }
  engine.release();
  await match.settled();
  await assertScoredAfresh(match);
});

test("the engine's sentences call the athletes by their names, and again after a change of names", async () => {
  const match = newMatch({ names: { A: "Ana", B: "Blue" } });
  await match.press(mount);
  assert.equal(match.lines[0].effect, "Mount: 4 points to Ana.");
  await match.setNames({ A: "Ana", B: "Bia" });
  await match.press({ type: "submission", athlete: "B" });
  assert.equal(match.answer.result.summary, "Bia wins by submission.");
  assert.equal(match.answer.result.winner, "B");
});

test("events beyond the most a request may hold are marked and not sent", async () => {
  const problem = (event, index) => (index >= 3 ? "too many" : null);
  const events = [takedown("A"), takedown("A"), takedown("A"), takedown("B"), takedown("B")];
  const match = newMatch({ events, problem });
  await match.rescore();
  assert.equal(engine.requests.at(-1).events.length, 3);
  assert.deepEqual([...match.limited.keys()], [3, 4]);
  assert.equal(match.answer.athletes.B.points, 0);
});
