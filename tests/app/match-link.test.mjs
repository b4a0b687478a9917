// A match's link (docs/assets/app/match-link.js): events read within lvl_rules' limits,
// by the same rule as the engine's, and a compressed link inflated no further than them.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

import { eventProblem, linkFor, readLink } from "../../docs/assets/app/match-link.js";

// The numbers the build writes into the page (lvl_rules.faces.limits.LIMITS).
const LIMITS = { max_events: 20000, max_json_chars: 4194304, max_depth: 16, max_integer_digits: 15, max_text_chars: 200 };
const WORDS = new Proxy({}, { get: (_, name) => `${String(name)} {limit} {digits} {value} {length} {reason}` });
const problem = (event, index = 0) => eventProblem(event, index, LIMITS, WORDS);

const url = (query, hash = "") => new URL(`https://lvl.test/calculator/?${query}${hash}`);

test("a number the engine would refuse as the page writes it is caught here", () => {
  assert.match(problem({ type: "advantage", athlete: "A", x: 1e20 }), /^number_too_long/);
  assert.match(problem({ type: "advantage", athlete: "A", x: 1.5e15 }), /^number_too_long/);
  assert.equal(problem({ type: "advantage", athlete: "A", x: 999_999_999_999_999 }), null);
  assert.equal(problem({ type: "advantage", athlete: "A", x: 1e21 }), null, "written 1e+21: a float to the engine");
  assert.match(problem({ type: "advantage", x: "y".repeat(201) }), /^text_too_long/);
  let deep = {};
  for (let i = 0; i < 20; i++) deep = { deeper: deep };
  assert.match(problem({ type: "panel", deep }), /^too_deep/);
  assert.match(problem({ type: "advantage" }, 20000), /^too_many_events/);
});

test("a link's numbers are kept as written: a too-long one is marked, the link unchanged", async () => {
  const text = `[{"type":"advantage","athlete":"A","n":${"9".repeat(40)}},{"type":"advantage","athlete":"B","n":-1e400}]`;
  const { events } = await readLink(url(`events=${encodeURIComponent(text)}`), LIMITS, WORDS);
  assert.match(problem(events[0]), /^number_too_long/);
  assert.match(problem(events[1]), /^number_too_large .*-1e400/);
  assert.equal(JSON.stringify(events), text);
});

test("a compressed link is inflated no further than the limit", async () => {
  const bomb = gzipSync(Buffer.from(`[${" ".repeat(64 * 1024 * 1024)}]`));
  const packed = bomb.toString("base64url");
  const started = performance.now();
  const read = await readLink(url("age=30", `#events-gzip=${packed}`), LIMITS, WORDS);
  assert.match(read.error, /^link_too_long_packed/);
  assert.deepEqual(read.raw, { name: "events-gzip", value: packed, hash: true });
  assert.ok(performance.now() - started < 10_000);
});

test("a long match goes into the fragment, compressed, and reads back the same", async () => {
  const events = Array.from({ length: 400 }, (_, i) => ({ type: "advantage", athlete: i % 2 ? "A" : "B" }));
  const { params, hash } = await linkFor(new URLSearchParams("age=30"), events);
  assert.equal(params.get("events"), null);
  assert.match(hash, /^#events-gzip=/);
  const read = await readLink(url(params.toString(), hash), LIMITS, WORDS);
  assert.deepEqual(read.events, events);
  const short = await linkFor(new URLSearchParams("age=30"), events.slice(0, 2));
  assert.equal(short.hash, "");
  assert.deepEqual(JSON.parse(short.params.get("events")), events.slice(0, 2));
});

test("links that cannot be read are kept as they were, with the reason", async () => {
  for (const [query, word] of [
    ["events=%5Bnot", /^not_json/],
    ["events=%7B%7D", /^not_list/],
  ]) {
    const read = await readLink(url(query), LIMITS, WORDS);
    assert.match(read.error, word);
    assert.equal(read.raw.hash, false);
  }
});

test("the limits here are lvl_rules' (the build writes them in)", () => {
  const source = readFileSync(new URL("../../lvl_rules/faces/limits.py", import.meta.url), "utf8");
  for (const [name, value] of Object.entries(LIMITS)) {
    const constant = name.toUpperCase();
    const written = new RegExp(`^${constant} = (.+)$`, "m").exec(source)?.[1];
    assert.equal(Function(`return ${written.replaceAll("_", "")}`)(), value, name);
  }
});

test("whether the address names events at all: an empty list does, in the query or the fragment", async () => {
  assert.equal((await readLink(url("age=30"), LIMITS, WORDS)).given, false);
  assert.equal((await readLink(url("age=30", "#match=x"), LIMITS, WORDS)).given, false);
  for (const [query, hash] of [["events=", ""], ["events=%5B%5D", ""], ["age=30", "#events="], ["age=30", "#events-gzip="]]) {
    const read = await readLink(url(query, hash), LIMITS, WORDS);
    assert.deepEqual([read.given, read.events], [true, []], `${query}${hash}`);
  }
  assert.equal((await readLink(url("events=%7B%7D"), LIMITS, WORDS)).given, true);
});
