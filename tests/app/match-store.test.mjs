// What the browser keeps of each match (docs/assets/app/match-store.js): per match, read
// back only in a shape the page can use, whatever another build or damage left.

import assert from "node:assert/strict";
import { test } from "node:test";

import { isMatchId, MatchStore, newMatchId } from "../../docs/assets/app/match-store.js";
import { MemoryStorage } from "./memory-storage.mjs";

const RECORD = {
  rules: "wheels/abc/lvl_rules.whl",
  // The store keeps a division as given; it never reads the edition.
  division: { edition: "any edition", age: "30" },
  events: [{ type: "advantage", athlete: "A" }],
  history: [{ at: 0, removed: [], added: [{ type: "advantage", athlete: "A" }] }],
  future: [],
  clock: { length: 300000, spent: 1000, since: null },
  setup: { name: { A: "Ana", B: "" } },
  answer: {
    athletes: { A: { points: 0, advantages: 1, penalties: 0 }, B: { points: 0, advantages: 0, penalties: 0 } },
    result: { ended: false, summary: "Under way.", winner: null },
    log: [{ event: 0, athlete: "A", effect: "Advantage to A.", cite: "5.6" }],
  },
};

test("each match is kept under its own id", () => {
  const store = new MatchStore(new MemoryStorage());
  const one = newMatchId();
  const two = newMatchId();
  assert.ok(isMatchId(one) && one !== two);
  store.write(one, RECORD);
  store.write(two, { ...RECORD, events: [] });
  assert.deepEqual(store.read(one).events, RECORD.events);
  assert.deepEqual(store.read(two).events, []);
  assert.equal(store.read(newMatchId()), null);
});

test("a record of another format, or damaged, gives what it can and never throws", () => {
  const storage = new MemoryStorage();
  const store = new MatchStore(storage);
  const cases = {
    "not json": "{",
    "another format": JSON.stringify({ ...RECORD, format: 2 }),
    "a list": "[]",
    "damaged undo": JSON.stringify({ ...RECORD, format: 1, history: [{ at: -1 }], future: "x" }),
    "damaged answer": JSON.stringify({ ...RECORD, format: 1, answer: { athletes: { A: {} }, log: [] } }),
    "answer lines damaged": JSON.stringify({ ...RECORD, format: 1, answer: { ...RECORD.answer, log: [{ event: "x" }] } }),
    "no events": JSON.stringify({ ...RECORD, format: 1, events: "many" }),
  };
  for (const [name, text] of Object.entries(cases)) storage.setItem(`lvl-rules.match.${name}`, text);
  assert.equal(store.read("not json"), null);
  assert.equal(store.read("another format"), null);
  assert.equal(store.read("a list"), null);
  const damaged = store.read("damaged undo");
  assert.deepEqual([damaged.history, damaged.future], [[], []]);
  assert.deepEqual(damaged.events, RECORD.events);
  assert.equal(store.read("damaged answer").answer, null);
  assert.equal(store.read("answer lines damaged").answer, null);
  const none = store.read("no events");
  assert.equal(none.events, null);
  assert.equal(none.answer, null);
});

test("storage that refuses or is full: the page goes on", () => {
  const refusing = new MemoryStorage();
  refusing.setItem = () => {
    throw new Error("QuotaExceededError");
  };
  const store = new MatchStore(refusing);
  assert.doesNotThrow(() => store.write(newMatchId(), RECORD));
  assert.equal(new MatchStore(undefined).read("x"), null);
});

test("only the most recent matches are kept", async () => {
  const storage = new MemoryStorage();
  const store = new MatchStore(storage);
  const ids = [];
  for (let i = 0; i < 25; i++) {
    ids.push(newMatchId());
    store.write(ids.at(-1), RECORD);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.equal(storage.length, 20);
  assert.equal(store.read(ids[0]), null);
  assert.notEqual(store.read(ids.at(-1)), null);
});

test("writing a match again reads no other record: only a new match is pruned for", () => {
  const storage = new MemoryStorage();
  const store = new MatchStore(storage);
  const id = newMatchId();
  for (let i = 0; i < 5; i++) store.write(newMatchId(), RECORD);
  store.write(id, RECORD);
  let reads = 0;
  const getItem = storage.getItem.bind(storage);
  storage.getItem = (key) => {
    reads += 1;
    return getItem(key);
  };
  store.write(id, { ...RECORD, events: [] });
  assert.equal(reads, 0);
  store.write(newMatchId(), RECORD);
  assert.equal(reads, 7, "a new match: every record read once, for its time");
});

// ------------------------------------------------- storage that fails out loud (issue 36)

/** Storage with a quota of `limit` characters (keys and values), as a browser's ~5 MiB. */
class QuotaStorage extends MemoryStorage {
  constructor(limit) {
    super();
    this.limit = limit;
  }
  setItem(key, value) {
    const others = [...this.items].filter(([k]) => k !== key);
    const used = others.reduce((sum, [k, v]) => sum + k.length + v.length, 0);
    if (used + key.length + String(value).length > this.limit) {
      throw Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
    }
    super.setItem(key, value);
  }
}

test("storage full of 19 older matches: the match being recorded is kept, the oldest make room", async () => {
  const big = { ...RECORD, events: Array.from({ length: 2000 }, () => ({ type: "advantage", athlete: "A", time: 100 })) };
  const size = JSON.stringify(big).length;
  const storage = new QuotaStorage(size * 19 + 1000);
  const store = new MatchStore(storage);
  const older = [];
  for (let i = 0; i < 19; i++) {
    older.push(newMatchId());
    assert.deepEqual(store.write(older.at(-1), big), { kept: true });
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const current = newMatchId();
  assert.deepEqual(store.write(current, big), { kept: true });
  assert.notEqual(store.read(current), null, "after a reload the clock and undo are there");
  assert.equal(store.read(older[0]), null, "the oldest match made room");
  assert.notEqual(store.read(older.at(-1)), null);
});

test("a match too large for storage even alone: not kept, and write says so", () => {
  const store = new MatchStore(new QuotaStorage(100));
  assert.deepEqual(store.write(newMatchId(), RECORD), { kept: false, why: "full" });
});

test("site data blocked (reading localStorage throws): nothing throws, write says so", () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  Object.defineProperty(globalThis, "localStorage", {
    configurable: true,
    get() {
      throw Object.assign(new Error("The operation is insecure."), { name: "SecurityError" });
    },
  });
  try {
    const store = new MatchStore();
    assert.equal(store.read("abcdefgh"), null);
    assert.deepEqual(store.write("abcdefgh", RECORD), { kept: false, why: "blocked" });
  } finally {
    if (had) Object.defineProperty(globalThis, "localStorage", had);
    else delete globalThis.localStorage;
  }
  const refusing = new MemoryStorage();
  refusing.setItem = () => {
    throw Object.assign(new Error("denied"), { name: "SecurityError" });
  };
  assert.deepEqual(new MatchStore(refusing).write("abcdefgh", RECORD), { kept: false, why: "blocked" });
});

test("the matches in progress kept here, the most recent first, finished ones left out", () => {
  const storage = new MemoryStorage();
  const store = new MatchStore(storage);
  const ended = { athletes: { A: { points: 2, advantages: 0, penalties: 0 }, B: { points: 0, advantages: 0, penalties: 0 } }, result: { summary: "A wins.", ended: true }, log: [] };
  const event = { type: "score", athlete: "A", position: "takedown" };
  const write = (id, saved, record) => storage.setItem(`lvl-rules.match.${id}`, JSON.stringify({ format: 1, saved, ...record }));
  write("older-one", 1000, { events: [event] });
  write("newest-one", 3000, { events: [event, event] });
  write("finished", 4000, { events: [event], answer: ended });
  write("no-events", 5000, { events: [] });
  write("this-page", 6000, { events: [event] });
  const found = store.unfinished({ except: "this-page" });
  assert.deepEqual(found.map((match) => [match.id, match.record.events.length]), [["newest-one", 2], ["older-one", 1]]);
  assert.deepEqual(new MatchStore(null).unfinished(), [], "storage blocked: none");
});
