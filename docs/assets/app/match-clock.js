// The match clock, the referee's 20-second counts and the injury time-outs: state only,
// no DOM. Time is read from `now()` (wall-clock milliseconds, Date.now by default), so a
// running clock kept across a closed tab has run on meanwhile. The rules set no match
// length and no injury time (those count up); each count's length and which clock it
// follows (the match running, or stopped) come from the page's data (`rule(id)`).

export class Clock {
  constructor({ rule = () => null, now = Date.now } = {}) {
    this.rule = rule;
    this.now = now;
    this.length = null; // ms, or null: the clock counts up
    this.spent = 0; // ms on the clock while stopped
    this.since = null; // when it was last started, while running
    this.counts = []; // {id, athlete, spent, since}
    this.injury = { A: null, B: null }; // {spent, since} while an athlete's time-out is open
    this.finished = false; // time is up, and said once
  }

  /** A clock from what was kept (anything: another build's, or damaged), or a new one. */
  static from(kept, options) {
    const clock = new Clock(options);
    if (!kept || typeof kept !== "object") return clock;
    const ms = (value) => (Number.isFinite(value) && value >= 0 ? value : null);
    const when = (value) => (Number.isFinite(value) && value > 0 ? value : null);
    clock.length = ms(kept.length) || null;
    clock.spent = ms(kept.spent) ?? 0;
    clock.since = when(kept.since);
    clock.finished = kept.finished === true;
    if (Array.isArray(kept.counts)) {
      for (const count of kept.counts) {
        if (!count || typeof count !== "object" || !clock.rule(count.id)) continue;
        if (!["A", "B", "both"].includes(count.athlete)) continue;
        clock.counts.push({ id: count.id, athlete: count.athlete, spent: ms(count.spent) ?? 0, since: when(count.since) });
      }
    }
    for (const athlete of ["A", "B"]) {
      const open = kept.injury?.[athlete];
      if (open && typeof open === "object") clock.injury[athlete] = { spent: ms(open.spent) ?? 0, since: when(open.since) };
    }
    return clock;
  }

  toJSON() {
    const { length, spent, since, counts, injury, finished } = this;
    return { length, spent, since, counts, injury, finished };
  }

  get running() {
    return this.since !== null;
  }

  /** Time on the clock, in ms (never more than its length). */
  elapsed() {
    const spent = this.spent + (this.since === null ? 0 : Math.max(0, this.now() - this.since));
    return this.length ? Math.min(spent, this.length) : spent;
  }

  /** What the clock shows: the time left if it has a length, else the time spent. */
  shown() {
    return this.length ? this.length - this.elapsed() : this.elapsed();
  }

  get timeUp() {
    return Boolean(this.length) && this.elapsed() >= this.length;
  }

  start() {
    if (this.running || this.timeUp) return false;
    this.moveCounts(() => (this.since = this.now()));
    return true;
  }

  stop() {
    if (!this.running) return false;
    this.moveCounts(() => {
      this.spent = this.elapsed();
      this.since = null;
    });
    return true;
  }

  /** Set the time the clock shows (ms left with a length, else ms spent). */
  set(shownMs) {
    const value = Math.max(0, Math.round(shownMs));
    const spent = this.length ? this.length - Math.min(value, this.length) : value;
    this.spent = spent;
    if (this.running) this.since = this.now();
    this.finished = this.timeUp;
  }

  /** A new length (ms, or null to count up); the time spent stays. */
  setLength(ms) {
    const spent = this.elapsed();
    this.length = Number.isFinite(ms) && ms > 0 ? ms : null;
    this.spent = spent;
    if (this.running) this.since = this.now();
    this.finished = this.timeUp;
  }

  /**
   * What has happened since the last look: {timeUp (true once when the clock has run
   * out; it stops at its length), expired: the counts that ran out (removed)}.
   */
  tick() {
    let timeUp = false;
    if (this.timeUp && !this.finished) {
      this.moveCounts(() => {
        this.spent = this.length;
        this.since = null;
      });
      this.finished = true;
      timeUp = true;
    }
    const expired = this.counts.filter((count) => this.left(count) <= 0);
    this.counts = this.counts.filter((count) => !expired.includes(count));
    return { timeUp, expired };
  }

  // ---------------------------------------------------------------- the counts

  /** Start a count for an athlete ("A", "B"), or for both if its rule says so. */
  startCount(id, athlete) {
    const rule = this.rule(id);
    if (!rule) return null;
    const who = rule.both ? "both" : athlete;
    if (!["A", "B", "both"].includes(who)) return null;
    this.counts = this.counts.filter((count) => !(count.id === id && count.athlete === who));
    const count = { id, athlete: who, spent: 0, since: null };
    if (this.countRuns(count)) count.since = this.now();
    this.counts.push(count);
    return count;
  }

  cancelCount(count) {
    this.counts = this.counts.filter((c) => c !== count);
  }

  /** Ms left on a count. */
  left(count) {
    const rule = this.rule(count.id);
    const spent = count.spent + (count.since === null ? 0 : Math.max(0, this.now() - count.since));
    return (rule?.seconds ?? 0) * 1000 - spent;
  }

  countRuns(count) {
    const rule = this.rule(count.id);
    return Boolean(rule) && (rule.clock === "match") === this.running;
  }

  // Start or stop the clock, pausing and resuming each count with the clock it follows.
  moveCounts(turn) {
    const at = this.now();
    for (const count of this.counts) {
      if (count.since !== null) count.spent += Math.max(0, at - count.since);
      count.since = null;
    }
    turn();
    for (const count of this.counts) if (this.countRuns(count)) count.since = at;
  }

  // ---------------------------------------------------------------- injury time-outs

  /** Open an athlete's injury time-out, or close it. Returns whether it is open now. */
  toggleInjury(athlete) {
    if (this.injury[athlete]) {
      this.injury[athlete] = null;
      return false;
    }
    this.injury[athlete] = { spent: 0, since: this.now() };
    return true;
  }

  /** Ms since an athlete's injury time-out opened, or null. */
  injuryTime(athlete) {
    const open = this.injury[athlete];
    if (!open) return null;
    return open.spent + (open.since === null ? 0 : Math.max(0, this.now() - open.since));
  }
}

/** A clock's reading, m:ss (whole seconds, rounded up while counting down). */
export function clockText(ms, { up = false } = {}) {
  const whole = Math.max(0, up ? Math.floor(ms / 1000) : Math.ceil(ms / 1000));
  const minutes = Math.floor(whole / 60);
  const seconds = String(whole % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

/** "m:ss" or "mm:ss" or a number of seconds, as ms; null if it is not a time. */
export function parseClockText(text) {
  const match = /^\s*(?:(\d{1,3}):)?(\d{1,4})\s*$/.exec(String(text));
  if (!match) return null;
  const minutes = Number(match[1] ?? 0);
  const seconds = Number(match[2]);
  if (match[1] !== undefined && seconds > 59) return null;
  return (minutes * 60 + seconds) * 1000;
}
