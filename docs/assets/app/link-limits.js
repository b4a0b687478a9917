// A link's events checked against lvl_rules' limits before the engine sees them: the
// numbers are lvl_rules.faces.limits.LIMITS, written into the page by the build
// (page data "limits"), the words are the page's. The engine checks the same limits
// again; these checks keep whatever it would refuse whole (a link too long, events
// nested too deep, a number JavaScript cannot hold) from reaching it, and keep every
// valid event around a bad one.

import { fill } from "./page-data.js";

// What holds one event in a request to the engine: the request object and its events list.
const AROUND_EVENT = 2;

/**
 * The events of a link's text, parsed within the limits, or an Error whose message says
 * which limit the text breaks. A number with more digits than the limit (or too large
 * for a double) is kept as it was written (JSON.rawJSON), so that the event can be
 * marked and the link written back unchanged; where the browser cannot keep it, the
 * whole text is refused instead of reading the number wrong.
 */
export function parseEvents(text, limits, words) {
  if (text.length > limits.max_json_chars) {
    throw new Error(fill(words.link_too_long, { length: text.length, limit: limits.max_json_chars }));
  }
  // A reviver makes parsing ~6 times slower (260 ms for 10,000 events): only for a text
  // with a run of digits longer than the limit or an exponent of 3 digits or more.
  const risky = new RegExp(`\\d{${limits.max_integer_digits + 1}}|[eE][+-]?\\d{3}`);
  if (!risky.test(text)) return JSON.parse(text);
  if (typeof JSON.rawJSON !== "function") {
    const digits = longestDigits(text);
    if (digits > limits.max_integer_digits) {
      throw new Error(fill(words.link_number_too_long, { digits, limit: limits.max_integer_digits }));
    }
    return JSON.parse(text);
  }
  return JSON.parse(text, (key, value, context) => keepExact(value, context, limits));
}

function keepExact(value, context, limits) {
  if (typeof value !== "number" || context?.source === undefined) return value;
  const source = context.source;
  const digits = /^-?(\d+)$/.exec(source)?.[1].length ?? 0;
  return digits > limits.max_integer_digits || !Number.isFinite(value) ? JSON.rawJSON(source) : value;
}

/** The most digits in a row outside strings (for browsers that cannot keep a number exact). */
function longestDigits(text) {
  const outside = text.replaceAll("\\\\", "").replaceAll('\\"', "").split('"').filter((_, i) => i % 2 === 0);
  return Math.max(0, ...outside.flatMap((part) => (part.match(/\d+/g) ?? []).map((run) => run.length)));
}

const PROBLEMS = new WeakMap(); // events are never changed in place: checked once

/**
 * Why the engine must not see an event (the page's sentence), or null: nested deeper
 * than a request may hold it, a number too long, a text or key too long. The events
 * after the first `max_events` are refused too (`index` is the event's place).
 */
export function eventProblem(event, index, limits, words) {
  if (index >= limits.max_events) return fill(words.too_many_events, { limit: limits.max_events });
  if (!event || typeof event !== "object") return null;
  if (!PROBLEMS.has(event)) PROBLEMS.set(event, inspect(event, limits, words));
  return PROBLEMS.get(event);
}

function inspect(event, limits, words) {
  const deepest = limits.max_depth - AROUND_EVENT;
  const stack = [[event, 1]];
  while (stack.length) {
    const [value, level] = stack.pop();
    if (JSON.isRawJSON?.(value)) {
      const written = String(value.rawJSON);
      const digits = /^-?(\d+)$/.exec(written)?.[1].length;
      if (digits === undefined) return fill(words.number_too_large, { value: written.slice(0, 80) });
      return fill(words.number_too_long, { digits, limit: limits.max_integer_digits });
    }
    if (typeof value === "string") {
      if (value.length > limits.max_text_chars) return fill(words.text_too_long, { length: value.length, limit: limits.max_text_chars });
      continue;
    }
    if (!value || typeof value !== "object") continue;
    if (level > deepest) return fill(words.too_deep, { limit: deepest });
    const keys = Array.isArray(value) ? [] : Object.keys(value);
    const long = keys.find((key) => key.length > limits.max_text_chars);
    if (long !== undefined) return fill(words.text_too_long, { length: long.length, limit: limits.max_text_chars });
    for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push([item, level + 1]);
  }
  return null;
}
