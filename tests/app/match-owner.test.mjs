// The owner of a live match (docs/assets/app/match-owner.js) against the real rules engine
// (the lvl_rules wheel in Pyodide under Node): a device clock that jumps forward and back,
// a reload after 3 minutes away, storage full and blocked, two writers. Issue 36. The
// clocks are the test's own: a monotonic one and the device's, moved apart on purpose.

import assert from "node:assert/strict";
import { before, test } from "node:test";

import { MatchOwner } from "../../docs/assets/app/match-owner.js";
import { MatchStore } from "../../docs/assets/app/match-store.js";
import { MatchWriter } from "../../docs/assets/app/match-writer.js";
import { MemoryStorage } from "./memory-storage.mjs";
import { startEngine } from "./engine.mjs";

const MINUTE = 60_000;
const DATA = {
  setup: { colours: { white: { background: "#fff", text: "#000" }, blue: { background: "#00f", text: "#fff" } }, defaults: { A: "white", B: "blue" } },
  counts: {},
  presets: {},
};
const takedown = (athlete) => ({ type: "score", athlete, position: "takedown" });

let engine;
let division;

before(async () => {
  engine = await startEngine();
  // An adult blue belt in the edition in force (the package's timeline says which).
  const { latest } = await engine.ask({ action: "editions" });
  division = { edition: latest, age: "30", belt: "blue", uniform: "gi" };
});

/** Web Locks for one browser, as far as the writer uses them (ifAvailable, steal). */
class Locks {
  held = new Map();
  request(name, options, callback) {
    return new Promise((resolve, reject) => {
      if (this.held.has(name) && !options.steal) {
        if (options.ifAvailable) Promise.resolve(callback(null)).then(resolve, reject);
        return;
      }
      this.held.get(name)?.reject(Object.assign(new Error("stolen"), { name: "AbortError" }));
      this.held.set(name, { reject });
      Promise.resolve(callback({ name })).then(resolve, reject);
    });
  }
}

/** The test's clocks: `mono` moves only forward with the page; `wall` is the device's. */
function clocks(wall = Date.UTC(2026, 11, 7, 12)) {
  const time = { mono: 1000, wall };
  return { time, now: () => time.mono, wall: () => time.wall, pass: (ms) => ((time.mono += ms), (time.wall += ms)) };
}

async function open({ id = "match-one", storage = new MemoryStorage(), locks = null, time = clocks(), params } = {}) {
  // `time`: the test's clocks (clocks()): time.time.mono and time.time.wall move them.
  const writer = new MatchWriter(id, { locks });
  await writer.claim();
  const store = new MatchStore(storage);
  const owner = new MatchOwner({
    id,
    params: new URLSearchParams(params),
    data: DATA,
    division,
    engine: { ask: engine.ask, rules: "test" },
    store,
    writer,
    now: time.now,
    wall: time.wall,
  });
  await owner.match.rescore();
  return { owner, storage, time };
}

const changes = (owner) => {
  const seen = [];
  owner.subscribe((_, change) => seen.push(change.kind));
  return seen;
};

test("one subscribe hears every kind of change, and each action is a method", async () => {
  const { owner } = await open();
  const seen = changes(owner);
  await owner.record(takedown("A"), "Takedown");
  owner.toggleClock();
  owner.setName("A", "Ana");
  owner.setMode(true);
  await owner.undo();
  for (const kind of ["match", "clock", "setup", "mode", "address"]) assert.ok(seen.includes(kind), kind);
  assert.equal(owner.setup.label("A"), "Ana");
  assert.equal(owner.match.events.length, 0);
  assert.equal(owner.division.edition, division.edition);
});

test("the device's clock corrected 10 minutes forward never ends the match nor moves a call", async () => {
  const { owner, time } = await open({ params: { length: "300" } });
  owner.toggleClock();
  time.pass(2000);
  time.time.wall += 10 * MINUTE; // network time corrects the device
  assert.deepEqual(owner.tick(), { timeUp: false, expired: [] });
  await owner.record(takedown("A"));
  assert.equal(owner.match.events.at(-1).time, 2, "recorded at the time it was made");
  assert.equal(owner.match.timeExpired, false);
  assert.equal(owner.match.answer.athletes.A.points, 2);
  assert.equal(Math.round(owner.clock.elapsed()), 2000);
});

test("the device's clock set 10 minutes back: the clock runs on, and a call has its time", async () => {
  const { owner, time } = await open({ params: { length: "300" } });
  owner.toggleClock();
  time.time.wall -= 10 * MINUTE;
  time.pass(5000);
  owner.tick();
  await owner.record(takedown("B"));
  assert.equal(owner.match.events.at(-1).time, 5);
  assert.equal(owner.match.answer.athletes.B.points, 2);
});

test("a reload after 3 minutes away: the clock ran on, and the official is asked to check it", async () => {
  const storage = new MemoryStorage();
  const time = clocks();
  const first = (await open({ storage, time, params: { length: "300" } })).owner;
  first.toggleClock();
  time.pass(2000);
  await first.record(takedown("A"));
  first.putAway(); // the tab is closed: kept at once
  time.time.wall += 3 * MINUTE;
  time.time.mono = 50; // a new page: its monotonic clock starts again
  const { owner } = await open({ storage, time });
  assert.equal(owner.clock.running, true);
  assert.equal(Math.round(owner.clock.elapsed() / 1000), 182);
  assert.deepEqual(
    owner.prompts.map((p) => [p.kind, p.resumed.away]),
    [["resumed", 3 * MINUTE]],
  );
  assert.equal(owner.match.answer.athletes.A.points, 2, "the kept call is scored");
  assert.equal(owner.match.canUndo, true, "and can be undone");
});

test("storage full or blocked: said at once, and scoring goes on in memory", async () => {
  for (const [storage, why] of [
    [new MemoryStorage({ full: true }), "full"],
    [null, "blocked"],
  ]) {
    const { owner } = await open({ storage });
    const seen = changes(owner);
    await owner.record(takedown("A"));
    assert.deepEqual(owner.flush(), { kept: false, why });
    assert.deepEqual(owner.kept, { kept: false, why });
    if (storage) assert.ok(seen.includes("kept"), "the change is told");
    await owner.record(takedown("A"));
    assert.equal(owner.match.answer.athletes.A.points, 4, why);
  }
});

test("two writers: the second tab is read-only until it takes the match over", async () => {
  const locks = new Locks();
  const storage = new MemoryStorage();
  const time = clocks();
  const first = (await open({ storage, locks, time })).owner;
  await first.record(takedown("A"));
  first.flush();
  const second = (await open({ storage, locks, time })).owner;
  assert.equal(second.readOnly, true);
  assert.equal(second.record(takedown("B")), undefined, "nothing is recorded here");
  assert.equal(second.match.events.length, 1);
  await first.record(takedown("A"));
  first.flush();
  assert.equal(await second.takeOver(), true);
  await second.match.settled();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(first.readOnly, true, "the first tab hears it is read-only");
  assert.equal(second.readOnly, false);
  assert.equal(second.match.events.length, 2, "taken over as last kept");
  await second.record(takedown("B"));
  assert.equal(second.match.answer.athletes.B.points, 2);
  assert.equal(first.record(takedown("B")), undefined);
});
