// The match sheet's one request to the engine, from the page's address: the division's
// fields, who is who (names as typed, colours), the match's details (date, event, mat,
// match) and every event as the link recorded it (a number beyond the limits kept as it
// was written: the engine sets that event aside and its fingerprint holds it). The
// canonical form and the fingerprint are the engine's (lvl_rules/faces/sheet.py), never
// made here. No DOM: tests/app/sheet-request.test.mjs sends it to the real engine.

import { nestedTooDeep } from "./match-link.js";

const DIVISION = ["edition", "age", "uniform"]; // and one field per rank axis

/** `params`: the address's query; `events`: readLink's; `setup`: a Setup read from the
 * same query; `details`: the detail names the page knows; `limits`: lvl_rules' limits;
 * `rankAxes`: the rank axes a division may name (the data's: lvl, belt, ...). */
export function sheetRequest(params, events, setup, details, limits, rankAxes) {
  const request = { action: "sheet" };
  for (const name of [...DIVISION, ...rankAxes]) if (params.get(name)) request[name] = params.get(name);
  const experience = params.getAll("experience").flatMap((v) => v.split(",")).filter(Boolean);
  if (experience.length) request.experience = experience;
  // Only an event nested deeper than a request may hold is left out: the engine would
  // refuse the whole request.
  request.events = events.map((event) => (nestedTooDeep(event, limits) ? null : event));
  request.names = Object.fromEntries(Object.entries(setup.name).filter(([, name]) => name));
  request.colours = { ...setup.colour };
  request.details = {};
  for (const name of details) if (params.get(name)?.trim()) request.details[name] = params.get(name);
  return request;
}
