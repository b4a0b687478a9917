// "My division": the answer for one division, drawn. First what matters at a glance,
// on one phone screen (#lookup-glance): what the athlete may do, then what not and from
// when, what disqualifies, the penalty scale in a line; then the detail, in sections
// that fold: each technique, the fouls, the scale. lvl_rules decided everything drawn
// (the rules table's answer); the words are the page's (#lookup-words).

import { fill } from "./division-form.js";
import { chartLink, cite, el, fillNodes, names, noteLink, readingMark, table } from "./lookup-dom.js";
import { notYet } from "./lookup-state.js";

/** Draw a placement's answer (its `answer` part) for an edition. */
export function drawAnswer(app, edition, facts) {
  drawGlance(app, edition, facts);
  drawTechniques(app, edition, facts);
  drawFouls(app, edition, facts);
}

function drawGlance(app, edition, facts) {
  const { ui } = app.words;
  const said = app.words.editions[edition];
  // First what the athlete may do: everything the chart does not restrict (named by its
  // examples for this uniform), then the chart's techniques legal for them.
  // (Nothing of the chart yet: the lines below say from when.)
  const chart = facts.legal.length
    ? [el("li", { class: "lvl-chart-line" },
      fill(ui.may_chart, { names: names(app, facts.legal.map((id) => said.techniques[id])) }))]
    : [];
  app.part("lookup-may").replaceChildren(
    el("li", { class: "lvl-unlisted-line", dataset: { unlisted: facts.unlisted.join(",") } },
      said.unlisted.lines[facts.unlisted.join(",")], " ", readingMark(app, edition, said.unlisted.readings)),
    ...chart,
  );
  const summary = app.part("lookup-summary");
  summary.textContent = facts.competes_at ? fill(ui.competes_at, { rank: said.ranks[facts.competes_at] }) : "";
  summary.hidden = !facts.competes_at;
  app.part("lookup-group").textContent = fill(ui.group, { group: said.groups[facts.group] });
  const lines = notYet(facts).map((group) => {
    const when = group.prohibited ? ui.never_for_anyone : said.whens[group.when];
    const moves = names(app, group.ids.map((id) => said.techniques[id]));
    return el("li", { dataset: { when: group.when } },
      ...fillNodes(ui.glance_line, { when: el("strong", {}, when), names: moves }));
  });
  app.part("lookup-not-yet").replaceChildren(...lines);
  const ladder = said.ladders[facts.ladder];
  const severe = el("details", { class: "lvl-severe" },
    el("summary", {}, fill(ui.disqualifies_severe, { count: facts.severe.length })),
    el("ul", {}, ...facts.severe.map((id) => el("li", { dataset: { foul: id } },
      el("strong", {}, said.fouls[id].name), " ", cite(app, edition, said.fouls[id].clause),
      el("span", { class: "lvl-description" }, said.fouls[id].description)))));
  app.part("lookup-disqualifies").replaceChildren(
    el("li", { class: "lvl-scale-line", dataset: { ladder: facts.ladder } }, ladder.line),
    el("li", {}, severe),
    el("li", {}, ui.disqualifies_disciplinary),
  );
}

function techniqueRow(app, edition, id, legal, detail, clause) {
  const { ui } = app.words;
  const said = app.words.editions[edition];
  const mark = legal ? ui.legal : detail.prohibited ? ui.never : ui.not_legal;
  return el(
    "tr",
    { class: legal ? "lvl-yes" : "lvl-no", dataset: { technique: id, legal: String(legal) } },
    el("th", { scope: "row" }, el("span", { class: "lvl-technique" }, said.techniques[id]),
      el("span", { class: "lvl-technique-kind" }, said.descriptions[id]),
      readingMark(app, edition, said.readings.techniques[id])),
    el("td", { class: "lvl-verdict" }, el("span", { class: "lvl-mark" }, mark)),
    el("td", { class: "lvl-when" }, ...(detail.text ?? [])),
    el("td", { class: "lvl-rule" }, cite(app, edition, clause)),
  );
}

function drawTechniques(app, edition, facts) {
  const { ui } = app.words;
  const said = app.words.editions[edition];
  const legal = facts.legal.map((id) => techniqueRow(app, edition, id, true, {}, said.unlisted.clause));
  const ours = readingMark(app, edition, said.readings.descriptions);
  app.part("lookup-legal").replaceChildren(
    legal.length ? table(app.part("may-do").textContent, legal) : el("p", {}, ui.none_legal),
    ...(legal.length && ours ? [el("p", { class: "lvl-descriptions-ours" }, ours)] : []),
  );
  app.part("lookup-unlisted").replaceChildren(
    said.unlisted.text, " ", cite(app, edition, said.unlisted.clause), " ",
    noteLink(app, edition, said.unlisted.note),
  );
  const blocked = facts.not_legal.map((item) => {
    const text = item.prohibited ? [ui.prohibited] : [
      `${said.unlocks[item.unlock]}. `,
      el("span", { class: "lvl-first" }, fill(ui.first_allowed, { group: said.groups[item.group] })),
      " ", chartLink(app, edition, item.id, ui.chart_row),
    ];
    return techniqueRow(app, edition, item.id, false, { prohibited: item.prohibited, text }, item.cite);
  });
  app.part("lookup-not-legal").replaceChildren(table(app.part("not-allowed").textContent, blocked));
}

function drawFouls(app, edition, facts) {
  const { ui } = app.words;
  const said = app.words.editions[edition];
  // The fouls of the athlete's uniform only (a gi's), named together in one line.
  const worn = facts.fouls.filter((fact) => fact.status === "uniform");
  const ofUniform = worn.length ? [el("li", { class: "lvl-foul lvl-no", dataset: { uniform: facts.uniform, fouls: worn.map((f) => f.id).join(" ") } },
    fill(ui.uniform_fouls, { uniform: said.uniforms[facts.uniform], names: names(app, worn.map((f) => said.fouls[f.id].name)) }), " ",
    readingMark(app, edition, [...new Set(worn.flatMap((f) => f.readings ?? []))]))] : [];
  const items = facts.fouls.filter((fact) => fact.status !== "uniform").map((fact) => {
    const foul = said.fouls[fact.id];
    const applies = fact.status === "applies";
    const status = applies ? ui.foul_applies
      : fact.status === "legal-here" ? fill(ui.foul_legal_here, { technique: foul.technique })
      : ui.foul_not_here;
    const item = el("li", { class: applies ? "lvl-foul lvl-no" : "lvl-foul lvl-yes", dataset: { foul: fact.id, applies: String(applies) } },
      el("strong", {}, foul.name), " ", el("span", { class: "lvl-mark" }, status), " ", cite(app, edition, fact.cite),
      readingMark(app, edition, fact.readings));
    if (applies) {
      item.append(el("p", { class: "lvl-description" }, foul.description), el("p", { class: "lvl-cost" }, foul.cost));
      if (foul.reset) item.append(el("p", {}, foul.reset));
    }
    return item;
  });
  app.part("lookup-fouls").replaceChildren(...items, ...ofUniform);
  const ladder = said.ladders[facts.ladder];
  const rows = ladder.steps.map((step, index) => el("tr", {}, el("th", { scope: "row" }, String(index + 1)), el("td", {}, step)));
  app.part("lookup-ladder").replaceChildren(
    el("table", { class: "lvl-ladder", dataset: { ladder: facts.ladder } },
      el("caption", {}, ladder.name),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.step), el("th", { scope: "col" }, ui.what))),
      el("tbody", {}, ...rows)),
    el("p", { class: "lvl-ladder-end" }, ladder.disqualifies),
  );
}
