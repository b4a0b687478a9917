// "My division" from the rules table the build writes into the lookup page
// (lvl_rules.faces.my_division.table): the same answer as the engine's "my-division"
// action, found by looking keys up. No rule is applied here: every answer, error and
// remark was made by lvl_rules at build time; a test proves the two agree on every key.
// No DOM: the tests run this module under Node.

/** The placement (answer and remarks, or the error) of one edition for the form's fields. */
export function placementIndex(table, editionId, fields) {
  const edition = table.editions[editionId];
  const byUniform = edition.keys.by;
  const uniform = Object.hasOwn(byUniform, fields.uniform ?? "") ? fields.uniform : "";
  const given = fields[edition.field] ?? "";
  const rank = edition.ranks.includes(given) ? given : table.other;
  const boxes = fields.experience ?? [];
  let mask = 0;
  edition.experience.forEach((id, bit) => {
    if (boxes.includes(id)) mask |= 1 << bit;
  });
  const entry = edition.keys.shared[byUniform[uniform][rank][mask]];
  const age = String(fields.age ?? "").trim();
  if (age === "") return entry.none;
  if (!/^[0-9]+$/.test(age)) return entry.other;
  const runs = entry.runs;
  if (age.length > table.ages.digits) return runs[runs.length - 1][1];
  const years = Number(age);
  let found = runs[0][1];
  for (const [first, placement] of runs) {
    if (first > years) break;
    found = placement;
  }
  return found;
}

/** The comparison between the two editions this edition is compared with, or null. */
export function compareIndex(table, editionId, fields) {
  const pair = table.compare[editionId];
  if (!pair) return null;
  const [older, newer] = pair.map((id) => placementIndex(table, id, fields));
  return table.pairs[`${older},${newer}`];
}

/** The whole answer, as lvl_rules.faces.my_division.answer gives it. */
export function answerFrom(table, fields) {
  const edition = Object.hasOwn(table.editions, fields.edition ?? "") ? fields.edition : table.latest;
  const compared = compareIndex(table, edition, fields);
  return {
    edition,
    placement: table.placements[placementIndex(table, edition, fields)],
    compare: compared === null ? null : table.comparisons[compared],
  };
}
