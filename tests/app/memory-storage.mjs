// A browser's local storage for the page modules' tests: in memory, with the Storage
// methods match-store.js uses; `full`: every write refused as a full storage refuses it.

export class MemoryStorage {
  constructor({ full = false } = {}) {
    this.items = new Map();
    this.full = full;
  }
  get length() {
    return this.items.size;
  }
  key(i) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(key) {
    return this.items.get(key) ?? null;
  }
  setItem(key, value) {
    if (this.full) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}
