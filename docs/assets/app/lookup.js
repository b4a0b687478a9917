// /lookup/, "My division": the rules for one athlete, and who may use a technique.
//
// The answer comes at once from the rules table the build wrote into the page
// (division-table.js); once the rules engine is ready, it answers instead, for the
// current fields and every change. Both give lvl_rules' structured answer; the words
// around it come from the page (#lookup-words, made by lvl_rules.words.my_division).
// Nothing here decides a rule.

import { answerFrom } from "./division-table.js";
import {
  citeLink,
  clearFieldMessages,
  fieldMessage,
  fill,
  fillForm,
  followAge,
  markInvalid,
  readForm,
  syncEditionFields,
  toParams,
} from "./division-form.js";

const AGE_PAUSE_MS = 350; // typing an age: answer once the typing pauses

export function mount(form) {
  const page = form.closest("article") ?? document;
  const app = {
    form,
    page,
    root: new URL(form.dataset.root, document.baseURI),
    table: readJson(page, "#lookup-table"),
    words: readJson(page, "#lookup-words"),
    engine: null, // the engine client, once it is ready
    asked: 0, // answers are numbered: a late one never replaces a newer one
    part: (id) => page.querySelector(`#${id}`),
  };
  form.elements.edition.addEventListener("change", () => syncEditionFields(form));
  let pause = null;
  form.addEventListener("input", (event) => {
    if (event.target.name !== "age") return;
    followAge(form);
    clearTimeout(pause);
    pause = setTimeout(() => show(app, true), AGE_PAUSE_MS);
  });
  form.addEventListener("change", (event) => {
    if (event.target.name === "age") clearTimeout(pause);
    followAge(form);
    show(app, true);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(pause);
    show(app, true);
  });
  const divisions = page.querySelector("#divisions-form");
  divisions.addEventListener("submit", (event) => {
    event.preventDefault();
    whoMayUse(app, true);
  });
  const params = new URLSearchParams(location.search);
  const technique = params.get("technique");
  if (technique !== null) divisions.elements.technique.value = technique;
  if (fillForm(form, params)) show(app, false);
  startEngine(app, technique !== null);
}

function readJson(page, selector) {
  return JSON.parse(page.querySelector(selector).textContent);
}

// The engine client is loaded only here, and by a dynamic import: if it cannot load
// (blocked, no WebAssembly), the page goes on answering from the table.
function startEngine(app, askWho) {
  import("../engine/engine-client.js")
    .then(async ({ engine }) => {
      const { showEngineStatus } = await import("./status.js");
      showEngineStatus(engine, app.page);
      if (askWho) whoMayUse(app, false, engine);
      await engine.ready;
      app.engine = engine;
      if (!app.part("lookup-results").hidden) show(app, false);
    })
    .catch(() => {
      // No engine: the table has answered and goes on answering; the status box says why.
    });
}

async function show(app, remember) {
  const fields = readForm(app.form);
  if (remember) history.replaceState(history.state, "", `?${toParams(fields)}`);
  const number = ++app.asked;
  let answer = null;
  let source = "table";
  if (app.engine) {
    try {
      answer = await app.engine.request({ action: "my-division", ...fields });
      source = "engine";
    } catch {
      answer = null; // the engine failed this once: the table answers
    }
  }
  if (number !== app.asked) return;
  render(app, answer ?? answerFrom(app.table, fields), source, fields);
}

function render(app, answer, source, fields) {
  const query = String(toParams(fields));
  if (app.shown?.query === query && sameAnswer(app.shown.answer, answer)) {
    // The engine confirms what the table said (they agree on every key: a test proves
    // it): only the source line changes; the answer is not drawn and laid out again.
    // Measured (Lighthouse mobile, lookup, 4 interleaved runs each): total blocking time
    // 1,288 -> 933 ms (medians).
    showSource(app, source);
    return;
  }
  app.shown = { query, answer };
  const { form, words } = app;
  const ui = words.ui;
  const said = words.editions[answer.edition];
  clearFieldMessages(form);
  markInvalid(form, null);
  app.part("lookup-error").hidden = true;
  const results = app.part("lookup-results");
  const placement = answer.placement;
  if (placement.error) {
    results.hidden = true;
    showFieldError(app, placement.error);
    app.part("lookup-announce").textContent = "";
    return;
  }
  for (const remark of placement.remarks) fieldMessage(form, remark.field, said.remarks[remark.code], "remark");
  const facts = placement.answer;
  results.hidden = false;
  results.dataset.edition = answer.edition;
  results.dataset.query = query; // what was asked (tests wait on it)
  const total = facts.legal.length + facts.not_legal.length;
  const count = fill(facts.legal.length === 1 ? ui.count_one : ui.count_other, { legal: facts.legal.length, total });
  const summary = [fill(ui.group, { group: said.groups[facts.group] }), count];
  if (facts.competes_at) summary.push(fill(ui.competes_at, { rank: said.ranks[facts.competes_at] }));
  app.part("lookup-summary").textContent = summary.join(" ");
  app.part("lookup-who").textContent = filledIn(form);
  showSource(app, source);
  renderTechniques(app, answer.edition, facts);
  renderFouls(app, answer.edition, facts);
  renderCompare(app, answer);
  app.part("lookup-announce").textContent = app.part("lookup-summary").textContent;
}

/** The form as one line, for print: each filled-in field's label and value, as shown. */
function filledIn(form) {
  const parts = [];
  for (const control of form.querySelectorAll("select, input[type=number]")) {
    const shown = control.tagName === "SELECT" ? control.selectedOptions[0] : null;
    if (!control.value || control.disabled) continue;
    parts.push(`${control.labels[0].textContent}: ${shown ? shown.textContent : control.value}`);
  }
  for (const box of form.querySelectorAll("input:checked")) {
    parts.push(box.closest("label").textContent.trim());
  }
  return parts.join(" · ");
}

function showFieldError(app, error) {
  markInvalid(app.form, error.field);
  fieldMessage(app.form, error.field, error.message, "error");
}

function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value);
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

function cite(app, edition, clause) {
  return citeLink(app.root, edition, clause, app.form);
}

function noteLink(app, edition, note) {
  const target = fill(app.words.paths.note, { edition, note });
  return el("a", { href: new URL(target, app.root).href }, app.words.editions[edition].notes[note]);
}

function techniqueRow(app, edition, id, legal, detail, clause) {
  const ui = app.words.ui;
  const said = app.words.editions[edition];
  const mark = legal ? ui.legal : detail.prohibited ? ui.never : ui.not_legal;
  return el(
    "tr",
    { class: legal ? "lvl-yes" : "lvl-no", dataset: { technique: id, legal: String(legal) } },
    el("th", { scope: "row" }, el("span", { class: "lvl-technique" }, said.techniques[id]),
      el("span", { class: "lvl-technique-kind" }, said.descriptions[id])),
    el("td", { class: "lvl-verdict" }, el("span", { class: "lvl-mark" }, mark)),
    el("td", { class: "lvl-when" }, ...(detail.text ?? [])),
    el("td", { class: "lvl-rule" }, cite(app, edition, clause)),
  );
}

function table(caption, rows) {
  return el("div", { class: "lvl-results-wrap", role: "region", "aria-label": caption, tabindex: "0" },
    el("table", { class: "lvl-answers" }, el("caption", { class: "lvl-sr" }, caption), el("tbody", {}, ...rows)));
}

// Which answered: the rules table in the page or the engine.
function showSource(app, source) {
  const ui = app.words.ui;
  app.part("lookup-results").dataset.source = source;
  app.part("lookup-source").textContent = source === "engine" ? ui.from_engine : ui.from_table;
  app.part("lookup-source").dataset.source = source;
}

/** Whether two answers (parsed JSON) are the same, whatever the order of their keys. */
function sameAnswer(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => sameAnswer(a[key], b[key]));
}

function renderTechniques(app, edition, facts) {
  const ui = app.words.ui;
  const said = app.words.editions[edition];
  const legal = facts.legal.map((id) => techniqueRow(app, edition, id, true, {}, said.unlisted.clause));
  app.part("lookup-legal").replaceChildren(
    legal.length ? table(app.part("may-do").textContent, legal) : el("p", {}, ui.none_legal),
  );
  app.part("lookup-unlisted").replaceChildren(
    said.unlisted.text, " ", cite(app, edition, said.unlisted.clause), " ",
    noteLink(app, edition, said.unlisted.note),
  );
  const blocked = facts.not_legal.map((item) => {
    const text = item.prohibited ? [ui.prohibited] : [
      `${said.unlocks[item.unlock]}. `,
      el("span", { class: "lvl-first" }, fill(ui.first_allowed, { group: said.groups[item.group] })),
    ];
    return techniqueRow(app, edition, item.id, false, { prohibited: item.prohibited, text }, item.cite);
  });
  app.part("lookup-not-legal").replaceChildren(table(app.part("not-allowed").textContent, blocked));
}

function renderFouls(app, edition, facts) {
  const ui = app.words.ui;
  const said = app.words.editions[edition];
  const items = facts.fouls.map((fact) => {
    const foul = said.fouls[fact.id];
    const status =
      fact.status === "applies" ? ui.foul_applies
      : fact.status === "legal-here" ? fill(ui.foul_legal_here, { technique: foul.technique })
      : ui.foul_not_here;
    const item = el("li", { class: fact.status === "applies" ? "lvl-foul lvl-no" : "lvl-foul lvl-yes", dataset: { foul: fact.id, applies: String(fact.status === "applies") } },
      el("strong", {}, foul.name), " ", el("span", { class: "lvl-mark" }, status), " ", cite(app, edition, fact.cite));
    if (fact.status === "applies") {
      item.append(el("p", { class: "lvl-description" }, foul.description), el("p", { class: "lvl-cost" }, foul.cost));
      if (foul.reset) item.append(el("p", {}, foul.reset));
    }
    return item;
  });
  app.part("lookup-fouls").replaceChildren(...items);
  const ladder = said.ladders[facts.ladder];
  const rows = ladder.steps.map((step, index) => el("tr", {}, el("th", { scope: "row" }, String(index + 1)), el("td", {}, step)));
  app.part("lookup-ladder").replaceChildren(
    el("table", { class: "lvl-ladder", dataset: { ladder: facts.ladder } },
      el("caption", {}, ladder.name),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.step), el("th", { scope: "col" }, ui.what))),
      el("tbody", {}, ...rows)),
  );
  app.part("lookup-disqualifies").replaceChildren(
    el("li", {}, ladder.disqualifies),
    el("li", {}, ui.disqualifies_severe),
    el("li", {}, ui.disqualifies_disciplinary),
  );
}

function renderCompare(app, answer) {
  const ui = app.words.ui;
  const box = app.part("lookup-compare");
  const compared = answer.compare;
  const heading = app.part("changed");
  heading.hidden = box.hidden = compared === null;
  if (compared === null) return;
  if (compared.needs) {
    box.replaceChildren(el("p", { class: "lvl-needs", dataset: { needs: compared.needs } }, ui[`needs_${compared.needs}`]));
    return;
  }
  if (compared.error) {
    const title = app.words.editions[compared.edition].title;
    box.replaceChildren(el("p", { class: "lvl-needs" }, fill(ui.compare_fix, { edition: title })));
    if (compared.edition !== answer.edition) showFieldError(app, compared.error);
    return;
  }
  const [older, newer] = compared.editions;
  const names = { old: app.words.editions[older].title, new: app.words.editions[newer].title };
  if (!compared.differences.length) {
    box.replaceChildren(el("p", { dataset: { differences: "0" } }, fill(ui.compare_none, names)));
    return;
  }
  const rows = compared.differences.map((found) => {
    const said = app.words.editions[newer];
    const name = found.kind === "technique" ? said.techniques[found.id]
      : found.kind === "foul" ? said.fouls[found.id].name : ui.scale;
    const cell = (edition, value, clause) => {
      const text = found.kind === "ladder" ? app.words.editions[edition].ladders[value].name : ui[`${found.kind}_${value}`];
      // Green where it is good for the athlete: a technique legal, a foul not a foul.
      const good = found.kind === "foul" ? value === false : value === true;
      const kind = typeof value === "boolean" ? (good ? "lvl-yes" : "lvl-no") : "";
      return el("td", { class: kind }, text, " ", cite(app, edition, clause));
    };
    const what = el("th", { scope: "row" }, name);
    if (found.notes.length) {
      what.append(el("span", { class: "lvl-reading" }, ui.our_reading, " ",
        ...found.notes.flatMap((note, i) => [i ? ", " : "", noteLink(app, newer, note)])));
    }
    return el("tr", { dataset: { kind: found.kind, id: found.id } }, what,
      cell(older, found.before, found.cites[0]), cell(newer, found.after, found.cites[1]));
  });
  box.replaceChildren(
    el("p", {}, fill(ui.compare_intro, names)),
    el("div", { class: "lvl-results-wrap", role: "region", "aria-label": heading.textContent, tabindex: "0" },
      el("table", { class: "lvl-compare" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ui.item), el("th", { scope: "col" }, names.old), el("th", { scope: "col" }, names.new))),
        el("tbody", {}, ...rows))),
  );
}

async function whoMayUse(app, remember, engine = app.engine) {
  const divisions = app.page.querySelector("#divisions-form");
  const technique = divisions.elements.technique.value;
  const edition = app.form.elements.edition.value;
  if (remember) {
    const params = new URLSearchParams(location.search);
    params.set("technique", technique);
    params.set("edition", edition);
    history.replaceState(history.state, "", `?${params}`);
  }
  const out = app.page.querySelector("#divisions-result");
  out.textContent = app.words.ui.checking;
  try {
    const client = engine ?? (await import("../engine/engine-client.js")).engine;
    const result = await client.request({ action: "divisions-for", edition, technique });
    const summary = document.createElement("p");
    summary.textContent = `${result.summary} `;
    summary.append(cite(app, result.edition, result.cite));
    out.replaceChildren(summary);
  } catch (error) {
    out.textContent = error.kind === "rules" ? error.message : "";
  }
}
