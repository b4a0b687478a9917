// What the build wrote into a page for its script (build_scripts/pages/calculator_page.py):
// the words from lvl_rules/words/match.py, the fields each button records, the event
// types, the counts, the colours. The scripts say nothing of their own: they fill in these templates.

import { fill } from "./division-form.js";

/** The page's data (a hidden element's data-json), parsed. */
export function pageData(id = "calc-data") {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.dataset.json) : { words: {} };
}

// Templates are filled in as the division form's are (one function for both pages).
export { fill };

/** The "one" or "other" form of a phrase that depends on a count, filled in. */
export function plural(forms, n, values = {}) {
  return fill(n === 1 ? forms.one : forms.other, { n, ...values });
}

/** The match between the calculator's match mode and the audience screen, in this browser. */
export const CHANNEL = "lvl-rules-match";
