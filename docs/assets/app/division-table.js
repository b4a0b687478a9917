// "My division" from the rules table the build writes into the lookup page
// (lvl_rules.faces.my_division.table): the same answer as the engine's "my-division"
// action, found by looking keys up; and which of the form's fields can change anything
// at the age entered. No rule is applied here: every answer, error and remark was made
// by lvl_rules at build time, and the build checks this reader against the engine on
// every key (build_scripts/pages/lookup_check.py). No DOM: it runs under Node too.

/** What an entry of runs by age holds for the age as the form sends it: the entry's
 *  `none` (no age), `other` (not a number), or the run the age falls in (ages past the
 *  last listed, and numbers too long to be an age, share the last run). */
function byAge(table, entry, value) {
  const age = String(value ?? "").trim();
  if (age === "") return entry.none;
  if (!/^[0-9]+$/.test(age)) return entry.other;
  const runs = entry.runs;
  if (age.length > table.ages.digits) return runs[runs.length - 1][1];
  const years = Number(age);
  let found = runs[0][1];
  for (const [first, value] of runs) {
    if (first > years) break;
    found = value;
  }
  return found;
}

/** The placement (answer and remarks, or the error) of one edition for the form's fields. */
export function placementIndex(table, editionId, fields) {
  const edition = table.editions[editionId];
  const byUniform = edition.keys.by;
  // A uniform the table does not know, empty or not given at all: the "" key's answer
  // (the engine's: which uniforms there are).
  const asked = fields.uniform ?? "";
  const uniform = Object.hasOwn(byUniform, asked) ? asked : "";
  const given = fields[edition.field] ?? "";
  const rank = edition.ranks.includes(given) ? given : table.other;
  const boxes = fields.experience ?? [];
  let mask = 0;
  edition.experience.forEach((id, bit) => {
    if (boxes.includes(id)) mask |= 1 << bit;
  });
  return byAge(table, edition.keys.shared[byUniform[uniform][rank][mask]], fields.age);
}

/** The comparison between the two editions this edition is compared with, or null. */
export function compareIndex(table, editionId, fields) {
  const pair = table.compare[editionId];
  if (!pair) return null;
  const [older, newer] = pair.map((id) => placementIndex(table, id, fields));
  return table.pairs[`${older},${newer}`];
}

/** The edition the form asks about: the one chosen, or the latest. */
export function editionOf(table, fields) {
  return Object.hasOwn(table.editions, fields.edition ?? "") ? fields.edition : table.latest;
}

/** The form's fields (beside age and uniform) that can change anything at the age
 *  entered, for this edition and the one it is compared with: the others are not asked. */
export function askedFields(table, editionId, fields) {
  return byAge(table, table.asks[editionId], fields.age);
}

/** The whole answer, as lvl_rules.faces.my_division.answer gives it. */
export function answerFrom(table, fields) {
  const edition = editionOf(table, fields);
  const compared = compareIndex(table, edition, fields);
  return {
    edition,
    placement: table.placements[placementIndex(table, edition, fields)],
    compare: compared === null ? null : table.comparisons[compared],
  };
}
