// "My division" at a glance: what the lookup screen shows first, made from lvl_rules'
// structured answer (the rules table's, division-table.js) without touching the page.
// It only groups and picks what the answer says; every rule was applied by lvl_rules.
// No DOM: tests/lookup/lookup_state.test.mjs runs it under Node's test runner.

/** The techniques this athlete may not use yet, grouped by when they may (the answer
 *  lists them soonest first): [{when, prohibited, ids}], `when` the unlock key of the
 *  group ("age=16", "never"), or "prohibited" for the techniques no one may use. */
export function notYet(facts) {
  const groups = [];
  for (const item of facts.not_legal) {
    const when = item.prohibited ? "prohibited" : item.unlock;
    const last = groups[groups.length - 1];
    if (last && last.when === when) last.ids.push(item.id);
    else groups.push({ when, prohibited: item.prohibited, ids: [item.id] });
  }
  return groups;
}

/** What the "what changed" part shows for a comparison (the answer's `compare`):
 *  - null: nothing to compare (the edition has no other);
 *  - {kind: "error", edition}: a field stops the comparison (the error is on it);
 *  - {kind: "compared", older, newer, rows, unknown, depends, everyone}: `rows` the
 *    differences that hold for this person (whatever their rank in `unknown.edition`,
 *    if `unknown` is not null: {edition, field}, the rank not given), `depends` the
 *    {kind, id} that differ with some values of it only, `everyone` what the newer
 *    edition changed for every athlete. */
export function whatChanged(compared) {
  if (compared === null) return null;
  if (compared.error) return { kind: "error", edition: compared.edition, error: compared.error };
  const [older, newer] = compared.editions;
  return {
    kind: "compared",
    older,
    newer,
    rows: compared.differences,
    unknown: compared.unknown[0] ?? null,
    depends: compared.depends,
    everyone: compared.everyone,
  };
}

/** The form's fields that can be asked at all (some age needs them), from the table. */
export function askable(table) {
  const found = new Set();
  for (const entry of Object.values(table.asks)) {
    for (const [, fields] of entry.runs) for (const field of fields) found.add(field);
    for (const field of [...entry.none, ...entry.other]) found.add(field);
  }
  return [...found];
}

/** Whether to say now that a field is wrong: once the person has left it (`left`, a Set
 *  of field names), or asked for the answer (`sent`: the button, or a link). A field not
 *  yet reached is not wrong yet: the form asks each field when it is reached. */
export function errorShown(field, left, sent) {
  return sent || left.has(field);
}
