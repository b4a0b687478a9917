// "What changed for you between editions", drawn: the differences for this person (a
// row each, old and new side by side, each with its clause), what depends on a rank not
// given, and what the newer edition changed for every athlete. lvl_rules compared the
// editions (the rules table's answer, lookup-state.js says what to show).

import { fieldMessage, fill, markInvalid } from "./division-form.js";
import { cite, el, fillNodes, names, readingMark } from "./lookup-dom.js";
import { whatChanged } from "./lookup-state.js";

/** Draw the comparison of an answer; returns false when there is none to show. */
export function drawCompare(app, answer) {
  const { ui } = app.words;
  const box = app.part("lookup-compare");
  const view = whatChanged(answer.compare);
  if (view === null) return false;
  if (view.kind === "error") {
    const title = app.words.editions[view.edition].title;
    box.replaceChildren(el("p", { class: "lvl-needs" }, fill(ui.compare_fix, { edition: title })));
    if (view.edition !== answer.edition) {
      markInvalid(app.form, view.error.field);
      fieldMessage(app.form, view.error.field, view.error.message, "error");
    }
    return true;
  }
  const titles = { old: app.words.editions[view.older].title, new: app.words.editions[view.newer].title };
  const unknown = view.unknown && {
    field: ui[`field_${view.unknown.field}`],
    edition: app.words.editions[view.unknown.edition].title,
  };
  const parts = [];
  if (!view.rows.length && !view.depends.length) {
    parts.push(el("p", { dataset: { differences: "0" } },
      fill(unknown ? ui.compare_none_any : ui.compare_none, { ...titles, ...unknown })));
  } else if (view.rows.length) {
    parts.push(el("p", {}, fill(unknown ? ui.compare_intro_any : ui.compare_intro, { ...titles, ...unknown })),
      differencesTable(app, view, titles));
  }
  if (view.depends.length) {
    const named = names(app, view.depends.map((found) => nameOf(app, view.newer, found)));
    const depends = el("p", { class: "lvl-depends", dataset: { depends: view.unknown.field } },
      fill(ui.depends, { ...unknown, names: named }));
    if (view.unknown.field === "lvl") depends.append(" ", ui.placement_lvl);
    parts.push(depends);
  }
  if (view.everyone.length) {
    const said = app.words.editions[view.newer];
    parts.push(el("p", {}, fill(ui.everyone, titles)), el("ul", { class: "lvl-everyone" },
      ...view.everyone.map((change) => {
        const words = said.changes[`${change.collection}/${change.id}`];
        return el("li", { dataset: { change: `${change.collection}/${change.id}` } },
          ...fillNodes(ui.everyone_item, { name: el("strong", {}, words.name), summary: words.summary }),
          " ", cite(app, view.newer, change.cite));
      })));
  }
  box.replaceChildren(...parts);
  return true;
}

function nameOf(app, edition, found) {
  const said = app.words.editions[edition];
  if (found.kind === "technique") return said.techniques[found.id];
  if (found.kind === "foul") return said.fouls[found.id].name;
  return app.words.ui.scale;
}

function differencesTable(app, view, titles) {
  const { ui } = app.words;
  const rows = view.rows.map((found) => {
    const cell = (edition, value, clause) => {
      const text = found.kind === "ladder" ? app.words.editions[edition].ladders[value].name : ui[`${found.kind}_${value}`];
      // Green where it is good for the athlete: a technique legal, a foul not a foul.
      const good = found.kind === "foul" ? value === false : value === true;
      const kind = typeof value === "boolean" ? (good ? "lvl-yes" : "lvl-no") : "";
      return el("td", { class: kind }, text, " ", cite(app, edition, clause));
    };
    const what = el("th", { scope: "row" }, nameOf(app, view.newer, found));
    if (found.notes.length) what.append(readingMark(app, view.newer, found.notes));
    return el("tr", { dataset: { kind: found.kind, id: found.id } }, what,
      cell(view.older, found.before, found.cites[0]), cell(view.newer, found.after, found.cites[1]));
  });
  const heading = app.part("changed").textContent;
  return el("div", { class: "lvl-results-wrap", role: "region", "aria-label": heading, tabindex: "0" },
    el("table", { class: "lvl-compare" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.item), el("th", { scope: "col" }, titles.old), el("th", { scope: "col" }, titles.new))),
      el("tbody", {}, ...rows)));
}
