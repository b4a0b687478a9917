// A match's link: its events read from the address (plain, or gzip-compressed in the
// fragment), checked against lvl_rules' limits before they are used or inflated, and
// written back after every change. The limits are lvl_rules.faces.limits.LIMITS, which
// the build writes into the page; each is applied to an event as the engine will see it
// (the JSON text this page sends), by the same rule as the engine's, so that what passes
// here passes there, and an event beyond a limit is marked and kept while the rest is
// scored. The sentences are the page's (`words`). No DOM.

import { fill } from "./division-form.js";

// What holds one event in a request to the engine: the request object and its events list.
const AROUND_EVENT = 2;
// A long match goes into the fragment, compressed (#events-gzip=...): the fragment stays
// in the browser (servers refuse request lines much longer than this; 8 KB is a common
// limit), and writing a URL of 10,000 plain events takes the browser ~350 ms.
const QUERY_LIMIT = 6000;
export const PACKED = "events-gzip";

/**
 * The events of the address, or {error} (the link's events text kept as it was, `raw`,
 * to be written back until the person changes the match); `given`: whether the address
 * names events at all (an empty list included).
 */
export async function readLink(url, limits, words) {
  const query = url.searchParams;
  const fragment = new URLSearchParams(url.hash.slice(1));
  const [name, value, hash] = query.has("events")
    ? ["events", query.get("events"), false]
    : fragment.has("events")
      ? ["events", fragment.get("events"), true]
      : [PACKED, fragment.get(PACKED), true];
  if (value === null) return { events: [], given: false };
  if (value === "") return { events: [], given: true };
  const keep = (message) => ({ events: [], given: true, error: message, raw: { name, value, hash } });
  let text = value;
  if (name === PACKED) {
    try {
      text = await inflate(value, limits.max_json_chars);
    } catch (error) {
      if (error instanceof TooLong) return keep(fill(words.link_too_long_packed, { limit: limits.max_json_chars }));
      return keep(fill(words.not_json, { reason: error.message }));
    }
  }
  if (text.length > limits.max_json_chars) {
    return keep(fill(words.link_too_long, { length: text.length, limit: limits.max_json_chars }));
  }
  let events;
  try {
    events = parseExact(text, limits);
  } catch (error) {
    return keep(fill(words.not_json, { reason: error.message }));
  }
  return Array.isArray(events) ? { events, given: true } : keep(words.not_list);
}

/** Query parameters and fragment for a match: `params` (the division and the rest) gets
 * the events, or the fragment does, compressed, when they are longer than `queryLimit`
 * (0: always, the shortest link, as a QR code needs). */
export async function linkFor(params, events, queryLimit = QUERY_LIMIT) {
  if (!events.length) return { params, hash: "" };
  const text = JSON.stringify(events);
  if (text.length + params.toString().length <= queryLimit) {
    params.set("events", text);
    return { params, hash: "" };
  }
  return { params, hash: `#${await packed(text)}` };
}

class TooLong extends Error {}

// A number the engine would refuse (more digits than the limit, or too large for a double)
// is kept as it was written (JSON.rawJSON), so that its event is marked and the link
// written back unchanged. A reviver makes parsing ~6 times slower (260 ms for 10,000
// events): only for a text with a long run of digits or a long exponent.
function parseExact(text, limits) {
  const risky = new RegExp(`\\d{${limits.max_integer_digits + 1}}|[eE][+-]?\\d{3}`);
  if (typeof JSON.rawJSON !== "function" || !risky.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value, context) => {
    const source = context?.source;
    if (typeof value !== "number" || source === undefined) return value;
    const digits = /^-?(\d+)$/.exec(source)?.[1].length ?? 0;
    return digits > limits.max_integer_digits || !Number.isFinite(value) ? JSON.rawJSON(source) : value;
  });
}

/** Gzip in base64url, inflated; stops (TooLong) once it gives more than `limit` bytes. */
async function inflate(base64, limit) {
  const binary = atob(base64.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      reader.cancel().catch(() => {});
      throw new TooLong();
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(whole);
}

/** The events, gzip-compressed in base64url, as a fragment parameter (plain where the
 * browser cannot compress). */
async function packed(text) {
  if (typeof CompressionStream !== "function") return new URLSearchParams({ events: text }).toString();
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const base64 = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `${PACKED}=${base64}`;
}

// ---------------------------------------------------------------- limits

const PROBLEMS = new WeakMap(); // events are never changed in place: checked once

/**
 * Why the engine must not see an event (the page's sentence), or null: beyond the most
 * events a request may hold, nested deeper than a request may hold it, a number the
 * engine would refuse as this page writes it, a text, key or list too long.
 */
export function eventProblem(event, index, limits, words) {
  if (index >= limits.max_events) return fill(words.too_many_events, { limit: limits.max_events });
  if (!event || typeof event !== "object") return null;
  if (!PROBLEMS.has(event)) PROBLEMS.set(event, inspect(event, limits, words));
  return PROBLEMS.get(event);
}

/** Whether an event nests arrays and objects deeper than a request may hold it (the
 * engine refuses such a request whole: the one limit a sheet cannot set aside). */
export function nestedTooDeep(event, limits) {
  const deepest = limits.max_depth - AROUND_EVENT;
  const stack = [[event, 1]];
  while (stack.length) {
    const [value, level] = stack.pop();
    if (!value || typeof value !== "object" || JSON.isRawJSON?.(value)) continue;
    if (level > deepest) return true;
    for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push([item, level + 1]);
  }
  return false;
}

function inspect(event, limits, words) {
  const deepest = limits.max_depth - AROUND_EVENT;
  const stack = [[event, 1]];
  while (stack.length) {
    const [value, level] = stack.pop();
    if (typeof value === "number" || JSON.isRawJSON?.(value)) {
      const problem = numberProblem(value, limits, words);
      if (problem) return problem;
      continue;
    }
    if (typeof value === "string") {
      if (value.length > limits.max_text_chars) return fill(words.text_too_long, { length: value.length, limit: limits.max_text_chars });
      continue;
    }
    if (!value || typeof value !== "object") continue;
    if (level > deepest) return fill(words.too_deep, { limit: deepest });
    if (Array.isArray(value)) {
      if (value.length > limits.max_events) return fill(words.too_many_events, { limit: limits.max_events });
    } else {
      const long = Object.keys(value).find((key) => key.length > limits.max_text_chars);
      if (long !== undefined) return fill(words.text_too_long, { length: long.length, limit: limits.max_text_chars });
    }
    for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push([item, level + 1]);
  }
  return null;
}

// The engine reads a number as this page writes it (JSON.stringify, or as the link wrote
// it where kept exact): an integer of more digits than the limit is refused there (1e20
// is written 100000000000000000000), and so is one too large for a double.
function numberProblem(value, limits, words) {
  const raw = JSON.isRawJSON?.(value);
  const written = raw ? String(value.rawJSON) : JSON.stringify(value);
  const digits = /^-?(\d+)$/.exec(written)?.[1].length;
  if (digits !== undefined) {
    return digits > limits.max_integer_digits ? fill(words.number_too_long, { digits, limit: limits.max_integer_digits }) : null;
  }
  if (Number.isFinite(raw ? Number(written) : value)) return null;
  return fill(words.number_too_large, { value: (raw ? written : String(value)).slice(0, 80) });
}
