// The calculator's last board, kept in this browser when the page is put away: a phone
// discards a tab in the background and loads it again on return, a referee reopens a
// shared match. Opened again with the same rules, division and events, the page shows
// that board at once, while the rules engine starts; the engine's own answer then
// replaces it. The same build's rules (named by the wheel's content hash) give the same
// answer to the same request, so the board shown is the engine's, from before.
//
// Measured, the calculator's first answer on a repeat visit (medians, same machine, one
// session): benchmarks/network.py 4G 1,521 -> 773 ms, slow 4G 1,748 -> 867 ms;
// benchmarks/browser_start.py localhost 1,476 -> 766 ms. The engine's answer follows
// ~0.8 s later, as before.

const KEY = "lvl-rules.calculator.last-board";
const MAX_CHARS = 1_000_000; // a longer match is not kept (localStorage holds ~5 MB)

/** Keep the board `report` and `lines` answer for `division` and `events` (JSON texts). */
export function rememberBoard({ rules, division, events, report, lines }) {
  if (!rules || !report) return;
  const text = JSON.stringify({ rules, request: requestOf(division, events), report, lines });
  try {
    if (text.length <= MAX_CHARS) localStorage.setItem(KEY, text);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage full or refused (a private window): the next visit asks the engine.
  }
}

/** The board kept for these rules, division and events, or null: {report, lines}. */
export function rememberedBoard({ rules, division, events }) {
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
  } catch {
    return null;
  }
  if (!kept || !rules || kept.rules !== rules) return null;
  if (kept.request !== requestOf(division, events)) return null;
  return { report: kept.report, lines: kept.lines };
}

function requestOf(division, events) {
  return JSON.stringify([division, events]);
}
