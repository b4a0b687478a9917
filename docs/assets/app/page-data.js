// What the build wrote into a page for its script (build_scripts/pages/calculator_page.py):
// the words from lvl_rules/words/match.py, the fields each button records, the event
// types, the counts. The scripts say nothing of their own: they fill in these templates.

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

/** A clock's reading, m:ss (whole seconds, rounded up while counting down). */
export function clockText(ms, { up = false } = {}) {
  const whole = Math.max(0, up ? Math.floor(ms / 1000) : Math.ceil(ms / 1000));
  const minutes = Math.floor(whole / 60);
  const seconds = String(whole % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

/** The match between the calculator's match mode and the audience screen, in this browser. */
export const CHANNEL = "lvl-rules-match";
