// /lookup/, "My division": the rules for one athlete, and who may use a technique.
//
// Everything comes from what the build wrote into the page, and no rules engine is
// loaded: the rules table (#lookup-table, lvl_rules.faces.my_division.table, read by
// division-table.js), which answers every question the form can ask and says which
// fields matter at which age; and the words (#lookup-words, lvl_rules.words.my_division),
// with the engine's answers to "who may use" each technique, made at build time.
// Nothing here decides a rule.

import { answerFrom, askedFields, editionOf, placementIndex } from "./division-table.js";
import {
  askOnly,
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
import { drawAnswer } from "./lookup-answer.js";
import { drawCompare } from "./lookup-compare.js";
import { chartLink, cite, el } from "./lookup-dom.js";
import { askable, errorShown } from "./lookup-state.js";
import { shareButton } from "./share.js";

const AGE_PAUSE_MS = 350; // typing an age: answer once the typing pauses

export function mount(form) {
  const page = form.closest("article") ?? document;
  const table = readJson(page, "#lookup-table");
  const app = {
    form,
    page,
    table,
    root: new URL(form.dataset.root, document.baseURI),
    words: readJson(page, "#lookup-words"),
    askable: askable(table),
    left: new Set(), // the fields the person has left: only theirs are said to be wrong
    sent: false, // asked for (the button, or a link): every field's error is said
    part: (id) => page.querySelector(`#${id}`),
  };
  const follow = () => {
    followAge(form);
    const fields = readForm(form);
    askOnly(form, app.askable, askedFields(table, editionOf(table, fields), fields));
  };
  form.elements.edition.addEventListener("change", () => syncEditionFields(form));
  let pause = null;
  form.addEventListener("input", (event) => {
    if (event.target.name !== "age") return;
    follow();
    clearTimeout(pause);
    pause = setTimeout(() => show(app, true), AGE_PAUSE_MS);
  });
  form.addEventListener("change", (event) => {
    if (event.target.name === "age") clearTimeout(pause);
    app.left.add(event.target.name);
    follow();
    show(app, true);
  });
  // A field left (even unchanged) may now be said to be wrong.
  form.addEventListener("focusout", (event) => {
    if (!event.target.name || app.left.has(event.target.name)) return;
    app.left.add(event.target.name);
    show(app, false);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(pause);
    app.sent = true;
    follow();
    show(app, true);
    // Asked for: the answer's first screen in view, and focus with it.
    app.part("lookup-results-title").focus({ preventScroll: true });
    app.part("lookup-results").scrollIntoView({ block: "start" });
  });
  const divisions = page.querySelector("#divisions-form");
  divisions.addEventListener("submit", (event) => {
    event.preventDefault();
    whoMayUse(app, true);
  });
  openFoldsToPrint(page);
  // Each answer has its own address (/lookup/<division>/, whose page previews it), with
  // this form's fields as its query: the share sheet gets its title, summary and address,
  // the clipboard the address alone.
  const share = app.part("lookup-share");
  shareButton(share, () => sharedAnswer(app, share.dataset.shareTitle));
  const params = new URLSearchParams(location.search);
  const technique = params.get("technique");
  const asked = fillForm(form, params);
  follow();
  app.sent = asked; // a link asks at once
  if (asked) show(app, false);
  // The page is as the link made it (lookup-link.js).
  delete document.documentElement.dataset.lvlLinkAsks;
  delete document.documentElement.dataset.lvlLinkEdition;
  if (technique !== null) {
    divisions.elements.technique.value = technique;
    whoMayUse(app, false);
  }
  form.dataset.ready = "true"; // the form answers from here on (tests wait on it)
}

function readJson(page, selector) {
  return JSON.parse(page.querySelector(selector).textContent);
}

function show(app, remember) {
  const fields = readForm(app.form);
  const query = String(toParams(fields));
  if (remember) history.replaceState(history.state, "", `?${query}`);
  const answer = answerFrom(app.table, fields);
  const error = answer.placement.error;
  // A field not yet reached, or not yet left, is not said to be wrong.
  const said = error ? errorShown(error.field, app.left, app.sent) : false;
  const shown = `${query}${said ? "!" : ""}`;
  if (app.shown === shown) return; // the same question: the answer on screen stands
  app.shown = shown;
  app.form.dataset.answered = query; // what the page has answered, error or not (tests wait on it)
  const { form, words } = app;
  clearFieldMessages(form);
  markInvalid(form, null);
  const results = app.part("lookup-results");
  const placement = answer.placement;
  if (placement.error) {
    results.hidden = true;
    if (said) {
      markInvalid(form, placement.error.field);
      fieldMessage(form, placement.error.field, placement.error.message, "error");
    }
    app.part("lookup-announce").textContent = "";
    return;
  }
  const edition = words.editions[answer.edition];
  for (const remark of placement.remarks) fieldMessage(form, remark.field, edition.remarks[remark.code], "remark");
  results.hidden = false;
  results.dataset.edition = answer.edition;
  results.dataset.query = query; // what was asked (tests wait on it)
  app.part("lookup-who").textContent = filledIn(form);
  const division = divisionOf(app, fields);
  app.part("lookup-poster").href = new URL(fill(words.paths.poster, { division: division.path }), app.root).href;
  drawAnswer(app, answer.edition, placement.answer);
  app.part("lookup-changed-box").hidden = !drawCompare(app, answer);
  app.part("lookup-announce").textContent = app.part("lookup-may").textContent;
}

/** The division whose answer the form's fields get: its address, title and summary. */
function divisionOf(app, fields) {
  const edition = editionOf(app.table, fields);
  const { by, divisions } = app.words.divisions;
  return divisions[by[placementIndex(app.table, edition, fields)]];
}

/** What sharing this answer gives: its division's address with the form's fields, its
 *  title and summary (the page's own, while no answer is shown). */
function sharedAnswer(app, pageTitle) {
  const fields = readForm(app.form);
  const division = app.part("lookup-results").hidden ? null : divisionOf(app, fields);
  if (!division) return { url: location.href, title: pageTitle, copy: location.href };
  const url = new URL(division.path, app.root);
  url.search = String(toParams(fields));
  return { url: url.href, title: division.title, text: division.summary, copy: url.href };
}

/** The form as one line, for print: each filled-in field's label and value, as shown. */
function filledIn(form) {
  const parts = [];
  for (const control of form.querySelectorAll("select, input[type=number]")) {
    const shown = control.tagName === "SELECT" ? control.selectedOptions[0] : null;
    if (!control.value || control.disabled) continue;
    parts.push(`${control.labels[0].textContent}: ${shown ? shown.textContent : control.value}`);
  }
  for (const box of form.querySelectorAll("input:checked:not(:disabled)")) {
    parts.push(box.closest("label").textContent.trim());
  }
  return parts.join(" · ");
}

/** Printed, the answer is whole: its folded sections open while the page prints. */
function openFoldsToPrint(page) {
  let closed = [];
  window.addEventListener("beforeprint", () => {
    closed = [...page.querySelectorAll("#lookup-results details:not([open])")];
    for (const fold of closed) fold.open = true;
  });
  window.addEventListener("afterprint", () => {
    for (const fold of closed) fold.open = false;
    closed = [];
  });
}

/** "Who may use a technique?": the engine's answer for this edition and technique,
 *  made at build time, with the technique's row in the chart. */
function whoMayUse(app, remember) {
  const divisions = app.page.querySelector("#divisions-form");
  const technique = divisions.elements.technique.value;
  const edition = editionOf(app.table, { edition: app.form.elements.edition.value });
  if (remember) {
    const params = new URLSearchParams(location.search);
    params.set("technique", technique);
    params.set("edition", edition);
    history.replaceState(history.state, "", `?${params}`);
  }
  const out = app.page.querySelector("#divisions-result");
  const found = app.words.who[edition][technique];
  if (!found) {
    out.replaceChildren(el("p", {}, app.words.ui.who_unknown));
    return;
  }
  if (found.error) {
    out.replaceChildren(el("p", {}, found.error));
    return;
  }
  out.replaceChildren(el("p", { dataset: { technique } }, `${found.summary} `, cite(app, edition, found.cite), " ",
    chartLink(app, edition, technique, app.words.ui.chart_row)));
}
