// The lookup page's small drawing helpers: elements, links to clauses, notes and the
// technique chart. The words come from the page (#lookup-words, lvl_rules.words).

import { citeLink, fill } from "./division-form.js";

/** An element with attributes (`dataset` an object) and children (null ones left out). */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value);
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

/** A link to a clause's permalink: "§5.4". */
export function cite(app, edition, clause) {
  return citeLink(app.root, edition, clause, app.form);
}

/** A link to an editorial note, by its title. */
export function noteLink(app, edition, note) {
  const target = fill(app.words.paths.note, { edition, note });
  return el("a", { href: new URL(target, app.root).href }, app.words.editions[edition].notes[note]);
}

/** The mark of our reading: "Our reading:" and each note's title, linked (null: none). */
export function readingMark(app, edition, notes) {
  if (!notes?.length) return null;
  const { ui } = app.words;
  return el("span", { class: "lvl-reading" }, el("em", {}, ui.our_reading), " ",
    ...notes.flatMap((note, i) => [i ? ui.separator : "", noteLink(app, edition, note)]));
}

/** A link to a technique's row in an edition's chart. */
export function chartLink(app, edition, technique, text) {
  const target = fill(app.words.paths.chart_row, { edition, technique });
  return el("a", { href: new URL(target, app.root).href }, text);
}

/** A "{name}" template filled with values that may be elements: the nodes, in order. */
export function fillNodes(template, values) {
  return String(template).split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in values ? values[name] : part;
  });
}

/** Names joined as a list ("A, B, C"). */
export function names(app, list) {
  return list.join(app.words.ui.separator);
}

/** A table in a region that scrolls on its own when it must, with a caption for screen
 *  readers. */
export function table(caption, rows, className = "lvl-answers") {
  return el("div", { class: "lvl-results-wrap", role: "region", "aria-label": caption, tabindex: "0" },
    el("table", { class: className }, el("caption", { class: "lvl-sr" }, caption), el("tbody", {}, ...rows)));
}
