// The match clock, the referee's 20-second counts and the injury time-outs: state only,
// no DOM. While the page lives, running time is read from `now()`, a monotonic source
// (performance.now by default): a change of the device's clock (network time, a time
// zone) never moves it. The wall clock (`wall()`, Date.now) only carries a running clock
// across time the page did not run: a closed tab (what is kept says when it was kept,
// `at`) or a sleeping phone (`putAway()` / `back()`); each time it does, `resumed` says
// how long it carried it, so that the official is asked to check the clock. The rules
// set no match length and no injury time (those count up); each count's length and
// which clock it follows (the match running, or stopped) come from the page's data.

// Time away shorter than this is a reload, not worth a word; a gap between the wall
// clock and the monotonic one shorter than this, while the page was hidden, is no sleep.
const NOTICE_MS = 5_000;

export class Clock {
  /** `now`: monotonic ms; `wall`: the device's clock (by default `now` if only it is
   * given, as tests do, else Date.now). */
  constructor({ rule = () => null, now, wall } = {}) {
    this.rule = rule;
    this.now = now ?? (() => performance.now());
    this.wall = wall ?? now ?? Date.now;
    this.resumed = null; // {away: ms carried, back: the device's clock went back} after time away
    this.hidden = null; // {mono, wall} when the page was put away
    this.length = null; // ms, or null: the clock counts up
    this.spent = 0; // ms on the clock while stopped
    this.since = null; // when it was last started, while running
    this.counts = []; // {id, athlete, spent, since}
    this.injury = { A: null, B: null }; // {spent, since} while an athlete's time-out is open
    this.finished = false; // time is up, and said once
  }

  /** A clock from what was kept (anything: another build's, or damaged), or a new one.
   * What ran when it was kept has run on for the time away (by the wall clock: never
   * less than nothing), and `resumed` says so when that time is worth a word. */
  static from(kept, options) {
    const clock = new Clock(options);
    if (!kept || typeof kept !== "object") return clock;
    const ms = (value) => (Number.isFinite(value) && value >= 0 ? value : null);
    const when = (value) => (Number.isFinite(value) && value > 0 ? value : null);
    const t = clock.now();
    const wall = clock.wall();
    const at = when(kept.at);
    const away = at === null ? null : wall - at;
    let ran = false;
    // [spent, since] of a kept timer: `running` with `at` (this build's), or an older
    // build's `since` (a wall-clock time).
    const resume = (item) => {
      const spent = ms(item.spent) ?? 0;
      const since = when(item.since);
      if (at !== null ? item.running !== true : since === null) return [spent, null];
      ran = true;
      return [spent + Math.max(0, at !== null ? away : wall - since), t];
    };
    clock.length = ms(kept.length) || null;
    [clock.spent, clock.since] = resume(kept);
    clock.finished = kept.finished === true;
    if (Array.isArray(kept.counts)) {
      for (const count of kept.counts) {
        if (!count || typeof count !== "object" || !clock.rule(count.id)) continue;
        if (!["A", "B", "both"].includes(count.athlete)) continue;
        const [spent, since] = resume(count);
        clock.counts.push({ id: count.id, athlete: count.athlete, spent, since });
      }
    }
    for (const athlete of ["A", "B"]) {
      const open = kept.injury?.[athlete];
      if (open && typeof open === "object") {
        const [spent, since] = resume(open);
        clock.injury[athlete] = { spent, since };
      }
    }
    if (ran && away !== null && (away < 0 || away >= NOTICE_MS)) clock.resumed = { away: Math.max(0, away), back: away < 0 };
    return clock;
  }

  /** What is kept: each timer's time so far and whether it runs, and when it was kept
   * (`at`, by the wall clock: what carries it across a closed tab). */
  toJSON() {
    const t = this.now();
    const live = (item) => ({
      spent: item.spent + (item.since === null ? 0 : Math.max(0, t - item.since)),
      running: item.since !== null,
    });
    const injury = {};
    for (const athlete of ["A", "B"]) injury[athlete] = this.injury[athlete] && live(this.injury[athlete]);
    return {
      length: this.length,
      ...live(this),
      at: this.wall(),
      counts: this.counts.map((count) => ({ id: count.id, athlete: count.athlete, ...live(count) })),
      injury,
      finished: this.finished,
    };
  }

  /** The page is hidden (the phone may sleep, and the monotonic clock with it). */
  putAway() {
    this.hidden ??= { mono: this.now(), wall: this.wall() };
  }

  /** The page is seen again: time the wall clock counted and the monotonic one did not
   * (the phone slept) is carried onto what runs, and `resumed` says so. A device clock
   * that went back meanwhile carries nothing. Returns `resumed`, or null. */
  back() {
    const hidden = this.hidden;
    this.hidden = null;
    if (!hidden) return null;
    const awake = this.now() - hidden.mono;
    const away = this.wall() - hidden.wall;
    const slept = away - awake;
    const running = [this, ...this.counts, this.injury.A, this.injury.B].filter((item) => item && item.since !== null);
    if (!running.length || (slept < NOTICE_MS && away >= 0)) return null;
    if (slept > 0) for (const item of running) item.since -= slept;
    this.resumed = { away: Math.max(0, away), back: away < 0 };
    return this.resumed;
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
