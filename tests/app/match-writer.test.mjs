// One writer per match (docs/assets/app/match-writer.js): the same match open in a second
// tab is read-only there, until it is taken over on purpose; the first tab then hears it
// is read-only. Issue 36, item 7. The locks are a small model of the Web Locks API's
// request(name, {ifAvailable | steal}, callback) for one browser.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MatchWriter } from "../../docs/assets/app/match-writer.js";

class Locks {
  constructor() {
    this.held = new Map(); // name -> {reject}
  }
  request(name, options, callback) {
    return new Promise((resolve, reject) => {
      if (this.held.has(name) && !options.steal) {
        if (options.ifAvailable) Promise.resolve(callback(null)).then(resolve, reject);
        return;
      }
      const before = this.held.get(name);
      if (before) {
        this.held.delete(name);
        before.reject(Object.assign(new Error("stolen"), { name: "AbortError" }));
      }
      this.held.set(name, { reject });
      Promise.resolve(callback({ name })).then(resolve, reject);
    });
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

test("two writers: the second tab is read-only, takes over on purpose, and the first hears it", async () => {
  const locks = new Locks();
  const said = { first: [], second: [] };
  const first = new MatchWriter("abcdefgh", { locks, onChange: (w) => said.first.push(w) });
  const second = new MatchWriter("abcdefgh", { locks, onChange: (w) => said.second.push(w) });
  assert.equal(await first.claim(), true);
  assert.equal(await second.claim(), false, "the match is being recorded in the first tab");
  assert.equal(second.writing, false);
  assert.equal(await second.claim({ takeOver: true }), true);
  await flush();
  assert.equal(first.writing, false, "the first tab is read-only now");
  assert.deepEqual(said, { first: [true, false], second: [true] });
  const other = new MatchWriter("zzzzzzzz", { locks });
  assert.equal(await other.claim(), true, "another match has a writer of its own");
});

test("without Web Locks every tab writes, as before", async () => {
  const writer = new MatchWriter("abcdefgh", { locks: null });
  assert.equal(await writer.claim(), true);
});
