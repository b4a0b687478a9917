// The owner of a live match: the match (match-state.js), its clock (match-clock.js), the
// athletes' names and colours (match-setup.js), its address (the link that carries it)
// and what this browser keeps of it (match-store.js), held together, with one writer per
// match (match-writer.js). One `subscribe(listener)`; every action is a method here. The
// calculator's views (board, log, match mode, clock, audience screen) are functions of
// this state and call these methods only: no view writes into another or calls one.
// What the division is comes from here (`division`), never from the page's form. No DOM,
// no sentence: prompts are said as kinds ({kind, athlete, call, count}) and each view
// words them from the page's words. Node's test runner tests it with the real engine
// (tests/app/match-owner.test.mjs).

import { toParams } from "./division-form.js";
import { Clock } from "./match-clock.js";
import { linkFor } from "./match-link.js";
import { Setup } from "./match-setup.js";
import { Match } from "./match-state.js";
import { newMatchId } from "./match-store.js";

const KEEP_AFTER_MS = 400; // the record is written once changes pause (and when put away)

export class MatchOwner {
  /**
   * id: the match's id; params: the address's query (names, colours, length, mode);
   * link: readLink's answer ({events, given, raw, error}); data: the page's data (setup,
   * counts, limits); division: the division as request fields; engine: {ask, rules};
   * problem(event, index): why an event must not reach the engine, or null; store: a
   * MatchStore; writer: a MatchWriter, claimed; now, wall: the clocks (tests give theirs).
   */
  constructor({ id, params = new URLSearchParams(), link = {}, data, division = {}, engine, problem, store, writer, now, wall }) {
    Object.assign(this, { id, data, engine, problem, store, writer, clockOptions: { now, wall } });
    this.listeners = new Set();
    this.raw = link.raw ?? null; // the link's events text, written back until the person acts
    this.said = link.error ?? null; // a message of the page's own (a link that could not be read)
    this.changed = false; // the person changed something: the address names the match
    this.mode = false; // match mode (the view opens it once the division allows)
    this.modeAsked = params.get("mode") === "match"; // the link opens in match mode
    this.notice = null; // {kind: "refused", message}: why the last call was not added
    this.prompts = []; // {id, kind: "time" | "count" | "resumed", athlete, call, count, resumed}
    this.kept = { kept: Boolean(store?.storage), why: store?.storage ? null : "blocked" };
    this.address = null; // "?query#fragment" of the match as it is, once written
    this.editing = null; // the event being corrected (its index), while asked
    // Whether a division was asked for (a link's fields, events, or the person's change):
    // until then, no field is said to be missing.
    this.asked = Boolean(link.given) || Object.keys(division).some((field) => params.has(field));
    this.pause = null;
    this.prompted = 0;
    this.writing = 0;
    const kept = store?.read(id) ?? null;
    this.load(kept, { params, link, division });
    this.readOnly = !writer?.writing;
    if (writer) writer.onChange = (writing) => this.setWriting(writing);
  }

  /** The match as kept (or as the link gives it), with its clock and setup. */
  load(kept, { params = new URLSearchParams(), link = {}, division = this.division } = {}) {
    this.setup = new Setup(this.data.setup).read(params, kept?.setup);
    this.clock = Clock.from(kept?.clock, { rule: (count) => this.countRule(count), ...this.clockOptions });
    const length = Number(params.get("length"));
    if (!kept?.clock && Number.isInteger(length) && length > 0) this.clock.setLength(length * 1000);
    const events = link.given || !kept?.events ? (link.events ?? []) : kept.events;
    // A match opened from its link (nothing kept here) opens at its own time: its last call's.
    if (!kept?.clock) this.clock.set(this.clock.length ? this.clock.length - lastTime(events) : lastTime(events));
    const same = Boolean(kept?.events) && JSON.stringify(kept.events) === JSON.stringify(events);
    const answered = same && kept.rules === this.engine.rules && JSON.stringify(kept.division) === JSON.stringify(division);
    this.unsubscribe?.();
    this.match = new Match({
      key: `${this.id}.${newMatchId()}`,
      ask: (request) => this.engine.ask({ ...request, legality: true }),
      problem: this.problem,
      division,
      names: this.setup.labels(),
      events,
      history: same ? kept.history : [],
      future: same ? kept.future : [],
      answer: answered ? kept.answer : null,
    });
    this.keptAt = kept?.events && !link.given ? kept.saved : 0; // when the match last changed
    this.unsubscribe = this.match.subscribe((_, done) => this.matchChanged(done));
    if (this.clock.resumed) this.prompt({ kind: "resumed", resumed: this.clock.resumed });
  }

  // ---------------------------------------------------------------- state

  /** listener(owner, change) after every change; change.kind says what changed: "match"
   * (with `done`, the match's change, or null), "clock", "setup", "mode", "prompts",
   * "kept", "writing", "address", "correct". Returns the unsubscribe function. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change) {
    for (const listener of [...this.listeners]) {
      try {
        listener(this, change);
      } catch (error) {
        console.error("LVL Rules match: a view failed", error);
      }
    }
  }

  /** The division being scored (request fields). */
  get division() {
    return this.match?.division ?? {};
  }

  /** A count's rule in the division's edition (its seconds, which clock, its call). */
  countRule(count) {
    const counts = this.data.counts?.[this.division.edition] ?? {};
    return Object.hasOwn(counts, count) ? counts[count] : null;
  }

  /** The fields a button's preset records, in the division's edition. */
  preset(name) {
    return this.data.presets?.[this.division.edition]?.[name] ?? null;
  }

  /** Whether the match has ended (the engine said so). */
  get ended() {
    return this.match.status === "scored" && Boolean(this.match.answer?.result.ended);
  }

  matchChanged(done) {
    // A call the rules refused: said until the next change of the match.
    if (done) {
      this.notice = this.match.notice;
      this.match.notice = null;
    }
    if (done?.changes.some((change) => change.kind !== "rescore")) {
      this.raw = null; // the person acted: the link is theirs now
      this.said = null;
      this.changed = true;
    }
    if (this.ended && this.clock.running) this.clock.stop();
    this.emit({ kind: "match", done });
    this.writeAddress();
    if (done) this.keep();
  }

  /** A change made here by the person (clock, setup, mode): kept and told. */
  touched(kind) {
    if (!this.changed) this.changed = true;
    this.emit({ kind });
    this.writeAddress();
    this.keep();
  }

  // ---------------------------------------------------------------- the match

  /** Record a call: the match time it was made at goes with it. */
  record(event, label = "") {
    if (this.readOnly) return undefined;
    const timed = { ...event };
    if (this.clock.running || this.clock.elapsed() > 0) timed.time = Math.floor(this.clock.elapsed() / 1000);
    return this.match.press(timed, label);
  }

  undo = () => (this.readOnly ? undefined : this.match.undo());
  redo = () => (this.readOnly ? undefined : this.match.redo());

  /** Ask to correct event `at` (a view opens its editor). */
  correct(at) {
    if (this.readOnly || !Number.isInteger(at) || at < 0 || at >= this.match.events.length) return;
    this.editing = at;
    this.emit({ kind: "correct", at });
  }

  /** Put `event` in the place of `target` (an event of the match, by identity). */
  replace(target, event) {
    return this.readOnly ? undefined : this.match.replace(target, event);
  }

  remove(target) {
    return this.readOnly ? undefined : this.match.remove(target);
  }

  setDivision(division) {
    this.asked = true;
    return this.match.setDivision(division);
  }

  /** Whether the match has events that the person has not seen end. */
  get unfinished() {
    return this.match.events.length > 0 && !this.ended;
  }

  // ---------------------------------------------------------------- the clock

  /** Start the clock, or stop it (never started again once the match has ended). */
  toggleClock() {
    if (this.readOnly) return;
    if (this.clock.running) this.clock.stop();
    else if (!this.match.answer?.result.ended) this.clock.start();
    this.touched("clock");
  }

  /** Set the time the clock shows (ms). */
  setTime(ms) {
    this.clock.set(ms);
    this.touched("clock");
  }

  /** The match's length (ms, or null: the clock counts up). */
  setLength(ms) {
    this.clock.setLength(ms);
    this.touched("clock");
  }

  startCount(id, athlete) {
    if (this.clock.startCount(id, athlete)) this.touched("clock");
  }

  cancelCount(count) {
    this.clock.cancelCount(count);
    this.touched("clock");
  }

  /** Open an athlete's injury time-out (`open` false: close it). */
  injury(athlete, open = true) {
    if (Boolean(this.clock.injury[athlete]) !== open) this.clock.toggleInjury(athlete);
    this.touched("clock");
  }

  /** What the clock did since the last look: time up (recorded once, as the rules'
   * event) and the counts that ran out (a prompt each, with the call to record). */
  tick() {
    const { timeUp, expired } = this.clock.tick();
    if (timeUp) {
      if (!this.match.timeExpired && !this.ended) this.record({ type: "time-expired" });
      this.prompt({ kind: "time" });
    }
    for (const count of expired) {
      const rule = this.countRule(count.id);
      const call = { type: "penalty", athlete: count.athlete, foul: rule.foul };
      this.prompt({ kind: "count", athlete: count.athlete, count: count.id, call });
    }
    if (timeUp || expired.length) this.touched("clock");
    return { timeUp, expired };
  }

  /** The page is hidden: kept now; the phone may sleep. */
  putAway() {
    this.clock.putAway();
    this.flush();
  }

  /** The page is seen again: time the phone slept is carried, and said. */
  back() {
    const resumed = this.clock.back();
    if (resumed) {
      this.prompt({ kind: "resumed", resumed });
      this.emit({ kind: "clock" });
    }
    return resumed;
  }

  // ---------------------------------------------------------------- prompts

  prompt(prompt) {
    this.prompts = [...this.prompts, { id: ++this.prompted, ...prompt }];
    this.emit({ kind: "prompts" });
  }

  /** Close a prompt; `record`: record its call first (one tap). */
  answer(id, { record = false, label = "" } = {}) {
    const prompt = this.prompts.find((p) => p.id === id);
    if (!prompt) return undefined;
    this.prompts = this.prompts.filter((p) => p !== prompt);
    this.emit({ kind: "prompts" });
    return record && prompt.call ? this.record(prompt.call, label) : undefined;
  }

  // ---------------------------------------------------------------- setup and mode

  setName(athlete, name) {
    this.setup.setName(athlete, name);
    this.match.setNames(this.setup.labels());
    this.touched("setup");
  }

  setColour(athlete, colour) {
    this.setup.setColour(athlete, colour);
    this.match.setNames(this.setup.labels());
    this.touched("setup");
  }

  /** Match mode on or off (the view checks the division first). */
  setMode(on) {
    if (this.mode === on) return;
    this.mode = on;
    this.emit({ kind: "mode" });
    if (this.changed) this.writeAddress();
  }

  // ---------------------------------------------------------------- one writer

  setWriting(writing) {
    this.readOnly = !writing;
    this.emit({ kind: "writing" });
  }

  /** Take the match over from the tab recording it: this one records it from now on,
   * from the match as last kept there. */
  async takeOver() {
    if (!this.writer || !(await this.writer.claim({ takeOver: true }))) return false;
    this.load(this.store?.read(this.id), { division: this.division });
    this.readOnly = false;
    this.emit({ kind: "writing" });
    this.match.rescore();
    return true;
  }

  // ---------------------------------------------------------------- keeping

  /** What is kept of the match, now. */
  toRecord() {
    return { rules: this.engine.rules, ...this.match.toJSON(), clock: this.clock.toJSON(), setup: this.setup.toJSON() };
  }

  /** Keep the match once changes pause. */
  keep() {
    clearTimeout(this.pause);
    this.pause = setTimeout(() => this.flush(), KEEP_AFTER_MS);
  }

  /** Keep the match now (nothing, read-only); says whether it was kept. */
  flush() {
    clearTimeout(this.pause);
    if (this.readOnly || !this.store) return this.kept;
    const kept = this.store.write(this.id, this.toRecord());
    if (kept.kept !== this.kept.kept || kept.why !== this.kept.why) {
      this.kept = kept;
      this.emit({ kind: "kept" });
    }
    return kept;
  }

  /** The page is left: the address names the match, and it is kept. */
  leave() {
    this.changed = true;
    this.writeAddress();
    this.flush();
  }

  // ---------------------------------------------------------------- the address

  /** The address's query: the division, the match's id, names, length, mode. */
  params() {
    const params = toParams(this.division);
    params.set("match", this.id);
    this.setup.addParams(params);
    if (this.clock.length) params.set("length", String(Math.round(this.clock.length / 1000)));
    if (this.mode) params.set("mode", "match");
    return params;
  }

  /** The match's address, "?query#fragment", with its events; told as "address". */
  async writeAddress() {
    const token = ++this.writing;
    const params = this.params();
    let hash = "";
    const raw = this.raw;
    if (raw) {
      if (raw.hash) hash = `#${new URLSearchParams({ [raw.name]: raw.value })}`;
      else params.set(raw.name, raw.value);
    } else {
      ({ hash } = await linkFor(params, this.match.toJSON().events));
    }
    if (token !== this.writing) return; // a later change wrote its own
    this.address = `?${params}${hash}`;
    this.emit({ kind: "address" });
  }

  /** A new match's address (this one stays kept: Back returns to it), once it is kept. */
  async next() {
    const params = toParams(this.division);
    params.set("match", newMatchId());
    if (this.clock.length) params.set("length", String(Math.round(this.clock.length / 1000)));
    this.keep();
    await this.match.settled();
    return `?${params}`;
  }
}

/** The match time of the last call that has one, in ms (0 if none has). */
function lastTime(events) {
  let seconds = 0;
  for (const event of events) if (Number.isFinite(event?.time) && event.time > seconds) seconds = event.time;
  return seconds * 1000;
}
