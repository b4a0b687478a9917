// One athlete's panel, for the calculator and the audience screen (board.js) alike: what
// an athlete shows (`shown`: name, colour, tallies and status, from the engine's answer
// through the match's owner) and how a panel draws it. The audience screen gets `shown`
// over its channel (match-broadcast.js sends what `athleteShown` gives).

export const FIELDS = ["points", "advantages", "penalties"];

/** What athlete `athlete` ("A", "B") of the owner's match shows: null tallies while the
 * match has no score (no division, or the engine has not answered). */
export function athleteShown(owner, athlete, words) {
  const tally = owner.match.answer?.athletes[athlete];
  const colour = owner.setup.colour[athlete];
  return {
    name: owner.setup.label(athlete),
    colour,
    ...owner.data.colours[colour],
    points: tally?.points ?? null,
    advantages: tally?.advantages ?? null,
    penalties: tally?.penalties ?? null,
    disqualified: Boolean(tally?.disqualified),
    status: tally?.disqualified ? words.disqualified[tally.disqualified_from] : "",
  };
}

/** Draw `shown` into `panel` (and its colours into `also`, the athlete's buttons); only
 * what changed is written. No score is no number that could pass for a result. */
export function drawAthlete(panel, shown, words, also = []) {
  const name = panel.querySelector("[data-name]");
  if (name.textContent !== shown.name) name.textContent = shown.name;
  panel.dataset.colour = shown.colour;
  for (const part of [panel, ...also]) {
    part?.style.setProperty("--lvl-side-bg", shown.background);
    part?.style.setProperty("--lvl-side-fg", shown.text);
  }
  for (const field of FIELDS) {
    const text = shown[field] === null ? words.no_score : String(shown[field]);
    if (panel.dataset[field] !== text) panel.dataset[field] = text;
    const cell = panel.querySelector(`[data-field="${field}"]`);
    if (cell.textContent !== text) cell.textContent = text;
  }
  panel.dataset.disqualified = String(Boolean(shown.disqualified));
  const status = panel.querySelector('[data-field="status"]');
  if (status.textContent !== shown.status) status.textContent = shown.status;
}
