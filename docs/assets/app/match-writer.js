// One writer per match: a match open in two tabs (or windows) of this browser is recorded
// in one of them; the other is read-only until the official takes the match over there,
// on purpose. Held with the Web Locks API, a lock per match id, for as long as the page
// lives: a second tab asks for it only if it is free; taking over takes it (`steal`),
// and the tab that had it hears it is lost. Without Web Locks, every tab writes, as
// before. No DOM: tests/app/match-writer.test.mjs.

const PREFIX = "lvl-rules.match-writer.";

export class MatchWriter {
  /** `onChange(writing)`: told when this tab starts or stops being the writer. */
  constructor(id, { locks = globalThis.navigator?.locks ?? null, onChange = () => {} } = {}) {
    this.name = PREFIX + id;
    this.locks = locks;
    this.onChange = onChange;
    this.writing = false;
  }

  /** Become the writer if no other tab is (`takeOver`: even if one is). Resolves to
   * whether this tab writes now. */
  claim({ takeOver = false } = {}) {
    if (!this.locks) return Promise.resolve(this.set(true));
    return new Promise((resolve) => {
      const options = takeOver ? { steal: true } : { ifAvailable: true };
      this.locks
        .request(this.name, options, (lock) => {
          if (!lock) {
            resolve(this.set(false)); // another tab writes this match
            return undefined;
          }
          resolve(this.set(true));
          return new Promise((release) => (this.release = release)); // held while the page lives
        })
        .catch(() => this.set(false)); // taken over by another tab
    });
  }

  set(writing) {
    const changed = writing !== this.writing;
    this.writing = writing;
    if (changed) this.onChange(writing);
    return writing;
  }
}
