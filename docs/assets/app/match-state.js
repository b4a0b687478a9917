// The match being recorded: its events, the changes waiting their turn, undo and redo,
// and the rules engine's answer for it. No DOM here, and no rule: the engine (`ask`,
// given) decides every score and every refusal; this module only keeps the record
// straight. The calculator, match mode and the audience screen are views of it, and
// Node's test runner tests it (tests/app/).
//
// Every change waits its turn and is applied to the match as it is when its turn comes
// (a correction made while a call waits for the engine keeps that call). Each turn asks
// the engine once, with the whole match (`set_aside`: refused events come back marked,
// with their reason, and the rest is scored; `match`: the engine re-scores from the
// first changed event and says from where its log lines are new). Calls made before the
// engine is ready wait together and are scored in order, in one request. A call the
// rules refuse is not added (the notice says why) and takes nothing from redo; any other
// event the rules refuse stays in the match, marked.

const HISTORY = 200; // undo steps kept

export class Match {
  /**
   * key: the engine's name for this match (one per page view); ask(request): the engine,
   * resolving with its result or rejecting with {kind, field, message}; problem(event,
   * index): why an event must not reach the engine (a limit; the page's sentence) or
   * null; names: what the engine's sentences call the athletes ({A, B}). The rest is the
   * match as kept: the division (request fields), the events, the undo and redo steps,
   * and the engine's answer for exactly these, if remembered.
   */
  constructor({ key, ask, problem = () => null, division = {}, names = null, events = [], history = [], future = [], answer = null }) {
    this.key = key;
    this.names = names; // what the engine's sentences call athletes A and B
    this.ask = ask;
    this.problem = problem;
    this.division = division;
    this.events = events;
    this.history = history;
    this.future = future;
    this.lines = answer?.log ?? [];
    this.answer = answer ? answerOf(answer) : null;
    this.source = answer ? "remembered" : null;
    this.scoredFor = answer ? this.events : null; // the events the answer is for
    this.status = answer ? "scored" : "waiting"; // "scored" | "waiting" | "division" | "failed"
    this.trouble = null; // {field, message}: what keeps the match from being scored
    this.notice = null; // {kind: "refused", event, message}: said once, by the next view
    this.limited = new Map(); // index -> why the engine was not asked about that event
    this.pending = []; // the changes waiting their turn
    this.listeners = new Set();
    this.running = null;
    this.changes = 0; // counts committed changes: a view redraws what changed since
  }

  /** The calls waiting for the engine, in order: [{event, label}]. */
  get waiting() {
    return this.pending.filter((change) => change.kind === "press");
  }

  get canUndo() {
    return this.history.length > 0;
  }

  get canRedo() {
    return this.future.length > 0;
  }

  /** Whether time has expired in the match as scored. */
  get timeExpired() {
    return this.events.some((event, index) => event?.type === "time-expired" && this.scored(index));
  }

  /** Whether event `index` is scored (the engine answered for it and did not refuse it). */
  scored(index) {
    if (this.status !== "scored" || this.scoredFor !== this.events || this.limited.has(index)) return false;
    return !this.linesOf(index).some((line) => line.refused);
  }

  /** The log lines of event `index`. */
  linesOf(index) {
    return linesFor(this.lines, index);
  }

  /** Subscribe: fn(match, done) after every change (done: the change just made, or null). */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  // ------------------------------------------------------------ changes

  /** A call recorded by a button; `label` names it while it waits. */
  press(event, label = "") {
    return this.queue({ kind: "press", event, label });
  }

  /** Put `event` in the place of `target` (an event of the match, by identity). */
  replace(target, event) {
    return this.queue({ kind: "replace", target, event });
  }

  /** Take `target` (an event of the match, by identity) out. */
  remove(target) {
    return this.queue({ kind: "remove", target });
  }

  undo() {
    return this.queue({ kind: "undo" });
  }

  redo() {
    return this.queue({ kind: "redo" });
  }

  /** Start a new match: no events (undoable). */
  reset() {
    return this.queue({ kind: "reset" });
  }

  /** Score the match for another division. */
  setDivision(division) {
    return this.queue({ kind: "division", division });
  }

  /** Call the athletes by other names in the engine's sentences ({A, B}). */
  setNames(names) {
    return this.queue({ kind: "names", names });
  }

  /** Ask the engine about the match as it is (first scoring, or after the engine failed). */
  rescore() {
    return this.queue({ kind: "rescore" });
  }

  /** Resolves once every change made so far has had its turn. */
  settled() {
    return this.running ?? Promise.resolve();
  }

  queue(change) {
    this.pending.push(change);
    this.emit(null);
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  async run() {
    while (this.pending.length) {
      // Calls waiting together are asked about together; any other change on its own.
      const count = this.pending[0].kind === "press" ? this.pending.findIndex((c) => c.kind !== "press") : 1;
      const batch = this.pending.slice(0, count === -1 ? this.pending.length : count);
      const turn = this.apply(batch);
      const reply = await this.score(turn);
      this.pending.splice(0, batch.length);
      this.commit(turn, reply, batch);
    }
  }

  /** The match after `batch`, applied to the match as it is now (nothing committed). */
  apply(batch) {
    let { events, division, names } = this;
    const entries = [];
    let future = this.future;
    let history = this.history;
    for (const change of batch) {
      const at = "target" in change ? events.indexOf(change.target) : -1;
      if (change.kind === "press") {
        entries.push({ at: events.length, removed: [], added: [change.event], press: change });
        events = [...events, change.event];
      } else if ((change.kind === "replace" || change.kind === "remove") && at >= 0) {
        const added = change.kind === "replace" ? [change.event] : [];
        entries.push({ at, removed: [events[at]], added });
        events = [...events.slice(0, at), ...added, ...events.slice(at + 1)];
      } else if (change.kind === "reset" && events.length) {
        entries.push({ at: 0, removed: events, added: [] });
        events = [];
      } else if (change.kind === "undo" && history.length) {
        const step = history.at(-1);
        history = history.slice(0, -1);
        future = [...future, step];
        events = splice(events, step.at, step.added.length, step.removed);
      } else if (change.kind === "redo" && future.length) {
        const step = future.at(-1);
        future = future.slice(0, -1);
        history = [...history, step];
        events = splice(events, step.at, step.removed.length, step.added);
      } else if (change.kind === "division") {
        division = change.division;
      } else if (change.kind === "names") {
        names = change.names;
      }
    }
    return { events, division, names, entries, history, future };
  }

  /** The engine's reply for the match after a turn: {result} or {error}. */
  async score({ division, names, events }) {
    const limited = new Map();
    const sent = events.map((event, index) => {
      const why = this.problem(event, index);
      if (why === null) return event;
      limited.set(index, why);
      return null; // set aside by the engine, in its place
    });
    while (sent.length && limited.has(sent.length - 1)) sent.pop(); // nothing after them
    try {
      const request = { action: "score", ...division, events: sent, set_aside: true, match: this.key };
      if (names) request.names = names;
      const result = await this.ask(request);
      return { result, limited };
    } catch (error) {
      return { error, limited };
    }
  }

  commit(turn, { result, error, limited }, batch) {
    let { events } = turn;
    this.division = turn.division;
    this.names = turn.names;
    this.history = turn.history;
    this.future = turn.future;
    if (result) {
      let lines = this.keptLines(result.log_from ?? 0).concat(result.log);
      // A call the rules refuse is not added: taken out, with what the engine said.
      const refused = new Set();
      for (const entry of turn.entries) {
        if (!entry.press) continue;
        const no = linesFor(lines, entry.at).find((line) => line.refused);
        if (no && !limited.has(entry.at)) {
          refused.add(entry.at);
          this.notice = { kind: "refused", event: entry.press.event, message: no.effect };
        }
      }
      if (refused.size) {
        const shift = (index) => index - [...refused].filter((at) => at < index).length;
        events = events.filter((_, index) => !refused.has(index));
        lines = lines.filter((line) => !refused.has(line.event)).map((line) => ({ ...line, event: shift(line.event) }));
        turn.entries = turn.entries.filter((entry) => !refused.has(entry.at)).map((entry) => ({ ...entry, at: shift(entry.at) }));
        limited = new Map([...limited].map(([index, why]) => [shift(index), why]));
      }
      this.lines = lines;
      this.answer = answerOf(result);
      this.status = "scored";
      this.trouble = null;
      this.source = "engine";
      this.scoredFor = events;
    } else {
      this.lines = [];
      this.answer = null;
      this.scoredFor = null;
      this.source = null;
      const division = error?.kind === "rules" && !/^(events|match|request)/.test(error.field ?? "");
      this.status = division ? "division" : "failed";
      this.trouble = { field: division ? error.field : null, message: error?.message ?? String(error), kind: error?.kind };
    }
    const entries = turn.entries.map(({ at, removed, added }) => ({ at, removed, added }));
    if (entries.length) {
      this.history = [...this.history, ...entries].slice(-HISTORY);
      this.future = [];
    }
    this.limited = limited;
    this.events = events;
    this.changes += 1;
    this.emit({ changes: batch, added: entries.length });
  }

  /** The lines of the previous answer for the events before `from`. */
  keptLines(from) {
    if (!from || this.source !== "engine") return [];
    return this.lines.slice(0, firstLine(this.lines, from));
  }

  emit(done) {
    for (const fn of this.listeners) {
      try {
        fn(this, done);
      } catch (error) {
        console.error("LVL Rules match: a view failed", error);
      }
    }
  }

  /** What is kept across reloads (the caller adds the clock, names, colours). */
  toJSON() {
    const current = this.status === "scored" && this.source === "engine" && this.scoredFor === this.events;
    return {
      division: this.division,
      events: [...this.events, ...this.waiting.map((change) => change.event)],
      history: this.history,
      future: this.future,
      answer: current && !this.waiting.length ? { ...this.answer, log: this.lines } : null,
    };
  }
}

/** What of an answer the views draw (besides its log lines). */
function answerOf({ athletes, result, illegal, other_uniform }) {
  return { athletes, result, illegal, other_uniform };
}

/** Where the lines of event `index` begin in `lines` (sorted by event, as the engine
 * gives them): the number of lines of the events before it. */
function firstLine(lines, index) {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lines[middle].event < index) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The lines of event `index` in `lines` (sorted by event). */
function linesFor(lines, index) {
  const found = [];
  for (let i = firstLine(lines, index); i < lines.length && lines[i].event === index; i++) found.push(lines[i]);
  return found;
}

function splice(events, at, count, items) {
  return [...events.slice(0, at), ...items, ...events.slice(at + count)];
}
