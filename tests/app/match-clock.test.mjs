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

// ------------------------------------------------- a clock that survives the phone (issue 36)

/** A clock with both sources: `time.mono` (the page's monotonic clock), `time.wall` (the
 * device's, which the network or the official may set). */
function phoneClock(length = 300_000) {
  const time = { mono: 5_000, wall: 1_800_000_000_000 };
  const options = { rule: (id) => RULES[id] ?? null, now: () => time.mono, wall: () => time.wall };
  const clock = new Clock(options);
  clock.setLength(length);
  return { clock, time, options };
}

test("the device's clock jumping forward 10 minutes neither ends the match nor moves the time", () => {
  const { clock, time } = phoneClock();
  clock.start();
  time.mono += 2_000;
  time.wall += 2_000 + 600_000; // network time corrects the device 2 s into the match
  assert.deepEqual(clock.tick(), { timeUp: false, expired: [] });
  assert.equal(clockText(clock.shown()), "4:58");
  time.mono += 3_000;
  time.wall += 3_000;
  assert.equal(Math.floor(clock.elapsed() / 1000), 5, "a takedown now is recorded at 0:05");
  assert.equal(clock.resumed, null, "nothing to check: the match clock kept its own time");
});

test("the device's clock set back 10 minutes: the clock runs on, events get their real time", () => {
  const { clock, time } = phoneClock();
  clock.start();
  time.mono += 1_000;
  time.wall -= 600_000;
  time.mono += 4_000;
  time.wall += 4_000;
  assert.equal(clockText(clock.shown()), "4:55");
  assert.equal(Math.floor(clock.elapsed() / 1000), 5);
  const kept = JSON.parse(JSON.stringify(clock));
  assert.equal(kept.spent, 5_000, "what is kept is the time on the clock, not a wall-clock start");
});

test("a reload after 3 minutes away: the clock has run on, and the official is asked to check it", () => {
  const { clock, time, options } = phoneClock();
  clock.start();
  clock.startCount("stalling", "A");
  time.mono += 2_000;
  time.wall += 2_000;
  const kept = JSON.parse(JSON.stringify(clock));
  time.wall += 180_000; // the tab was discarded; a new page has a new monotonic clock
  time.mono = 100;
  const again = Clock.from(kept, options);
  assert.equal(clockText(again.shown()), "1:58");
  assert.deepEqual(again.resumed, { away: 180_000, back: false });
  assert.ok(again.left(again.counts[0]) <= 0, "the 20-second count ran out meanwhile");
  time.mono += 1_000;
  assert.equal(clockText(again.shown()), "1:57", "then it runs on the page's own clock");
  const quick = Clock.from(JSON.parse(JSON.stringify(again)), options);
  assert.equal(quick.resumed, null, "a reload at once is no time away");
});

test("the device's clock went back while the tab was closed: nothing is carried, and it is said", () => {
  const { clock, time, options } = phoneClock();
  clock.start();
  time.mono += 10_000;
  time.wall += 10_000;
  const kept = JSON.parse(JSON.stringify(clock));
  time.wall -= 600_000;
  const again = Clock.from(kept, options);
  assert.equal(clockText(again.shown()), "4:50");
  assert.deepEqual(again.resumed, { away: 0, back: true });
});

test("a sleeping phone: the time it slept is carried, said once; a hidden tab that ran carries nothing", () => {
  const { clock, time } = phoneClock();
  clock.start();
  time.mono += 10_000;
  time.wall += 10_000;
  clock.putAway();
  time.wall += 60_000; // asleep: the monotonic clock stood still
  assert.deepEqual(clock.back(), { away: 60_000, back: false });
  assert.equal(clockText(clock.shown()), "3:50");
  clock.putAway();
  time.mono += 30_000;
  time.wall += 30_000; // hidden, awake: the page's clock ran
  assert.equal(clock.back(), null);
  assert.equal(clockText(clock.shown()), "3:20");
});

test("a clock kept by an older build (a wall-clock start) still runs on", () => {
  const time = { now: 2_000_000 };
  const kept = { length: 300_000, spent: 0, since: 1_940_000, counts: [], injury: {}, finished: false };
  const clock = Clock.from(kept, { rule: () => null, now: () => time.now });
  assert.equal(clockText(clock.shown()), "4:00");
});
