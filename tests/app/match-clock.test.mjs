// The match clock (docs/assets/app/match-clock.js): time that runs on while a tab is
// closed, a settable time, counts that follow their clock, injury time-outs, and a kept
// clock of any shape read without failing.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Clock, clockText, parseClockText } from "../../docs/assets/app/match-clock.js";

const RULES = {
  stalling: { seconds: 20, clock: "match" },
  uniform: { seconds: 20, clock: "stopped" },
  both: { seconds: 20, clock: "match", both: true },
};

function clockAt(start = 1_000_000) {
  const time = { now: start };
  const clock = new Clock({ rule: (id) => RULES[id] ?? null, now: () => time.now });
  return { clock, time };
}

test("a running clock kept and read back later has run on meanwhile", () => {
  const { clock, time } = clockAt();
  clock.setLength(300_000);
  clock.start();
  time.now += 60_000;
  const kept = JSON.parse(JSON.stringify(clock));
  time.now += 30_000; // the tab was closed for 30 s
  const again = Clock.from(kept, { rule: (id) => RULES[id], now: () => time.now });
  assert.equal(again.running, true);
  assert.equal(again.shown(), 210_000);
  assert.equal(clockText(again.shown()), "3:30");
});

test("time up: the clock stops at its length, said once", () => {
  const { clock, time } = clockAt();
  clock.setLength(10_000);
  clock.start();
  time.now += 12_000;
  assert.deepEqual(clock.tick(), { timeUp: true, expired: [] });
  assert.equal(clock.running, false);
  assert.equal(clock.shown(), 0);
  assert.equal(clock.tick().timeUp, false);
  assert.equal(clock.start(), false, "a clock at its length does not start");
});

test("the official sets the time shown, running or stopped", () => {
  const { clock, time } = clockAt();
  clock.setLength(300_000);
  clock.set(parseClockText("4:05"));
  assert.equal(clock.shown(), 245_000);
  clock.start();
  time.now += 5_000;
  clock.set(parseClockText("2:00"));
  time.now += 1_000;
  assert.equal(clock.shown(), 119_000);
  const up = clockAt().clock; // no length: the time spent
  up.set(parseClockText("75"));
  assert.equal(clockText(up.shown(), { up: true }), "1:15");
});

test("counts follow their clock: a stalling count pauses with the match, a uniform count runs while it is stopped", () => {
  const { clock, time } = clockAt();
  clock.start();
  const stalling = clock.startCount("stalling", "A");
  const uniform = clock.startCount("uniform", "B");
  time.now += 5_000;
  assert.equal(clock.left(stalling), 15_000);
  assert.equal(clock.left(uniform), 20_000);
  clock.stop();
  time.now += 21_000;
  assert.deepEqual(clock.tick().expired, [uniform]);
  assert.equal(clock.left(stalling), 15_000);
  assert.equal(clock.startCount("both", "A").athlete, "both");
  assert.equal(clock.startCount("unknown", "A"), null);
});

test("an injury time-out counts up until closed", () => {
  const { clock, time } = clockAt();
  assert.equal(clock.toggleInjury("B"), true);
  time.now += 42_000;
  assert.equal(clockText(clock.injuryTime("B"), { up: true }), "0:42");
  assert.equal(clock.injuryTime("A"), null);
  assert.equal(clock.toggleInjury("B"), false);
  assert.equal(clock.injuryTime("B"), null);
});

test("a kept clock of another build, or damaged, gives a working clock", () => {
  const bad = [
    null,
    "0:00",
    { length: "x", spent: -5, since: "yesterday", counts: "many" },
    { spent: Number.NaN, counts: [{ id: "nobody", athlete: "A" }, null, { id: "stalling", athlete: "C" }] },
    { counts: [{ id: "stalling", athlete: "A", spent: "x", since: {} }], injury: { A: 5, B: { spent: "?" } } },
  ];
  for (const kept of bad) {
    const { clock } = clockAt();
    const again = Clock.from(kept, { rule: (id) => RULES[id] ?? null, now: () => 1_000_000 });
    assert.ok(Number.isFinite(again.shown()), JSON.stringify(kept));
    assert.match(clockText(again.shown()), /^\d+:\d\d$/);
    for (const count of again.counts) assert.ok(Number.isFinite(again.left(count)));
    assert.ok(clock);
  }
});

test("clock texts read as the official types them", () => {
  assert.equal(parseClockText("5:00"), 300_000);
  assert.equal(parseClockText(" 0:07 "), 7_000);
  assert.equal(parseClockText("90"), 90_000);
  assert.equal(parseClockText("1:75"), null);
  assert.equal(parseClockText("abc"), null);
});
