// An event in words, for the log of a match the engine cannot score yet (its division is
// not valid): the call of the button or picker choice that records the same fields
// ("Ana: Takedown (2)"), never the event's JSON. The build writes the calls
// (calculator_page.py, _calls_in_words: the calls that fix more fields first) and their
// words; this module only finds the first that matches. No DOM: tests/app/call-words.test.mjs.

import { fill } from "./page-data.js";

/** The event in words, or null when no call records it (an event no button makes).
 * `calls`: [[fields, call], ...] of the match's edition; `words`: the page's words
 * (call_of); `label(athlete)`: what the athlete is called (Setup.label). */
export function callWords(event, calls, words, label) {
  if (!event || typeof event !== "object" || Array.isArray(event) || !calls) return null;
  const found = calls.find(([fields]) => Object.entries(fields).every(([key, value]) => event[key] === value));
  if (!found) return null;
  const athlete = event.athlete;
  if (athlete !== "A" && athlete !== "B") return found[1];
  return fill(words.call_of, { name: label(athlete), call: found[1] });
}
