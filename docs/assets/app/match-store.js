// What this browser keeps of each match, under the match's own id (the link's `match`
// parameter): its events, undo and redo, the clock, the names and colours, and the
// engine's last answer (shown at once when the match opens again, while the engine
// starts; the engine's own answer then replaces it). Kept in local storage, so that a
// closed tab, one the phone discarded, or a reload loses nothing; the most recent
// MATCHES are kept. What is read back is checked for shape before use: a record of
// another build, or damaged, gives what it can and never stops the page. Storage that is
// blocked (reading localStorage throws) or full never stops the page either: `write`
// says whether the match was kept, so that the page can say so at once; when storage is
// full, older matches make room for the one being recorded. No DOM.

const PREFIX = "lvl-rules.match.";
const FORMAT = 1;
const MATCHES = 20;
const MAX_CHARS = 2_000_000; // a longer record keeps no answer (local storage holds ~5 MB)

/** This browser's local storage, or null where it is blocked (site data refused). */
export function localStore() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export class MatchStore {
  constructor(storage = localStore()) {
    this.storage = storage;
    this.written = new Set(); // the ids this store has written: only a new one adds a record
  }

  /** The record kept for match `id`, checked, or null. */
  read(id) {
    let kept;
    try {
      kept = JSON.parse(this.storage?.getItem(PREFIX + id) ?? "null");
    } catch {
      return null;
    }
    return checked(kept);
  }

  /**
   * Keep `record` for match `id` (the answer is left out if the whole is too long).
   * Returns {kept: true}, or {kept: false, why: "blocked" | "full"}: the match then
   * lives in this page (and its link) only. Storage full: the oldest other matches are
   * forgotten, one by one, until this one fits.
   */
  write(id, record) {
    if (!this.storage) return { kept: false, why: "blocked" };
    const whole = { format: FORMAT, saved: Date.now(), ...record };
    let text = JSON.stringify(whole);
    if (text.length > MAX_CHARS) text = JSON.stringify({ ...whole, answer: null });
    let older = null; // the other matches, oldest first, once storage was found full
    for (;;) {
      try {
        this.storage.setItem(PREFIX + id, text);
        break;
      } catch (error) {
        if (!isFull(error)) return { kept: false, why: "blocked" };
        older ??= this.records().filter(([, key]) => key !== PREFIX + id).reverse();
        if (!older.length) return { kept: false, why: "full" };
        this.forget(older.shift()[1]);
      }
    }
    // Only a record this store has not written before can take the count over MATCHES
    // (every store prunes after its first write of an id): pruning reads every record.
    if (!this.written.has(id)) this.prune();
    this.written.add(id);
    return { kept: true };
  }

  /** [saved, key] of every match kept, the most recent first. */
  records() {
    const records = [];
    try {
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        if (!key?.startsWith(PREFIX)) continue;
        const saved = Number(/"saved":(\d+)/.exec(this.storage.getItem(key) ?? "")?.[1] ?? 0);
        records.push([saved, key]);
      }
    } catch {
      // storage refused meanwhile: what was read
    }
    return records.sort((a, b) => b[0] - a[0]);
  }

  /** The most recent matches kept that are not finished (events recorded, no end yet),
   * but `except` (an id): [{id, saved, record}], at most `limit`. */
  unfinished({ limit = 3, except = null } = {}) {
    const found = [];
    for (const [saved, key] of this.records()) {
      const id = key.slice(PREFIX.length);
      if (id === except || !isMatchId(id)) continue;
      const record = this.read(id);
      if (!record?.events?.length || record.answer?.result.ended) continue;
      found.push({ id, saved, record });
      if (found.length === limit) break;
    }
    return found;
  }

  forget(key) {
    try {
      this.storage.removeItem(key);
    } catch {
      // refused: it stays
    }
  }

  /** Forget all but the most recent MATCHES records. */
  prune() {
    for (const [, key] of this.records().slice(MATCHES)) this.forget(key);
  }
}

/** Whether a storage error is the quota's (each browser names it its own way). */
function isFull(error) {
  return error?.name === "QuotaExceededError" || error?.name === "NS_ERROR_DOM_QUOTA_REACHED" || error?.code === 22;
}

/** A new match id: short, random, safe in a link. */
export function newMatchId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/** Whether a link's `match` parameter is a match id. */
export function isMatchId(text) {
  return typeof text === "string" && /^[A-Za-z0-9_-]{6,40}$/.test(text);
}

// ---------------------------------------------------------------- shape checks

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isIndex = (value) => Number.isInteger(value) && value >= 0;

function checked(kept) {
  if (!isObject(kept) || kept.format !== FORMAT) return null;
  const record = {
    rules: typeof kept.rules === "string" ? kept.rules : null,
    division: isObject(kept.division) ? kept.division : null,
    events: Array.isArray(kept.events) ? kept.events : null,
    clock: isObject(kept.clock) ? kept.clock : null,
    setup: isObject(kept.setup) ? kept.setup : null,
    saved: Number.isFinite(kept.saved) && kept.saved > 0 ? kept.saved : 0,
    history: [],
    future: [],
    answer: null,
  };
  if (record.events) {
    record.history = steps(kept.history);
    record.future = steps(kept.future);
    record.answer = answer(kept.answer);
  }
  return record;
}

/** Undo or redo steps, each {at, removed, added}; a damaged list gives none. */
function steps(list) {
  if (!Array.isArray(list)) return [];
  const good = (step) => isObject(step) && isIndex(step.at) && Array.isArray(step.removed) && Array.isArray(step.added);
  return list.every(good) ? list.map(({ at, removed, added }) => ({ at, removed, added })) : [];
}

function answer(kept) {
  if (!isObject(kept) || !isObject(kept.athletes) || !isObject(kept.result) || !Array.isArray(kept.log)) return null;
  const tally = (t) => isObject(t) && ["points", "advantages", "penalties"].every((f) => Number.isInteger(t[f]));
  if (!tally(kept.athletes.A) || !tally(kept.athletes.B)) return null;
  const text = (value) => typeof value === "string";
  const result = kept.result;
  if (!text(result.summary) || typeof result.ended !== "boolean") return null;
  const line = (l) => isObject(l) && isIndex(l.event) && text(l.effect) && (l.cite === null || text(l.cite));
  if (!kept.log.every(line)) return null;
  return kept;
}
