// /lookup/: every technique for a division (legal or not, why, the clause), and which
// divisions may use one technique. Answers come from lvl_rules in the engine worker.

import { engine } from "../engine/engine-client.js";
import { citeLink, fillForm, markInvalid, readForm, showError, syncEditionFields, toParams } from "./division-form.js";
import { showEngineStatus } from "./status.js";

export function mount(form) {
  const page = form.closest("article") ?? document;
  const root = new URL(form.dataset.root, document.baseURI);
  const parts = {
    error: page.querySelector("#lookup-error"),
    results: page.querySelector("#lookup-results"),
    summary: page.querySelector("#lookup-summary"),
    announcer: page.querySelector("#lookup-announce"),
    rows: page.querySelector("#lookup-rows"),
    divisions: page.querySelector("#divisions-form"),
    divisionsResult: page.querySelector("#divisions-result"),
  };
  showEngineStatus(engine, page);
  form.elements.edition.addEventListener("change", () => syncEditionFields(form));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    check(form, parts, root, true);
  });
  parts.divisions.addEventListener("submit", (event) => {
    event.preventDefault();
    whoMayUse(form, parts, root, true);
  });
  const params = new URLSearchParams(location.search);
  const technique = params.get("technique");
  if (technique !== null) parts.divisions.elements.technique.value = technique;
  if (fillForm(form, params)) check(form, parts, root, false);
  if (technique !== null) whoMayUse(form, parts, root, false);
}

async function check(form, parts, root, remember) {
  const division = readForm(form);
  if (remember) history.replaceState(history.state, "", `?${toParams(division)}`);
  parts.summary.textContent = "Checking…";
  parts.announcer.textContent = "Checking…";
  try {
    const result = await engine.request({ action: "eligibility", ...division });
    showError(parts.error, null);
    markInvalid(form, null);
    render(result, parts, root);
  } catch (error) {
    if (error.kind !== "rules") return; // start-up problems are shown by the status box
    showError(parts.error, error);
    markInvalid(form, error.field);
    parts.summary.textContent = "";
    parts.announcer.textContent = ""; // the error box is an alert: it is read out
  }
}

function render(result, parts, root) {
  parts.results.hidden = false;
  const legal = result.techniques.filter((t) => t.legal).length;
  const who = result.description.charAt(0).toUpperCase() + result.description.slice(1);
  const verb = legal === 1 ? "is" : "are";
  parts.summary.textContent =
    `${who}, Edition ${result.edition}: ${result.group.label}. ` +
    `${legal} of the ${result.techniques.length} techniques in the chart ${verb} legal. ` +
    result.remarks.join(" ");
  // The results section may just have appeared: announce from a status that was there.
  parts.announcer.textContent = parts.summary.textContent;
  parts.rows.replaceChildren(...result.techniques.map((t) => row(t, result.edition, root)));
}

function row(technique, edition, root) {
  const tr = document.createElement("tr");
  tr.dataset.technique = technique.id;
  tr.dataset.legal = String(technique.legal);
  tr.className = technique.legal ? "lvl-yes" : "lvl-no";
  const name = document.createElement("th");
  name.scope = "row";
  name.textContent = technique.name;
  const verdict = document.createElement("td");
  verdict.textContent = technique.legal ? "✓ Legal" : "✗ Not legal";
  const reason = document.createElement("td");
  reason.textContent = technique.reason;
  const rule = document.createElement("td");
  rule.append(citeLink(root, edition, technique.cite));
  tr.append(name, verdict, reason, rule);
  return tr;
}

async function whoMayUse(form, parts, root, remember) {
  const technique = parts.divisions.elements.technique.value;
  const edition = form.elements.edition.value;
  if (remember) {
    const params = new URLSearchParams(location.search);
    params.set("technique", technique);
    params.set("edition", edition);
    history.replaceState(history.state, "", `?${params}`);
  }
  const out = parts.divisionsResult;
  out.textContent = "Checking…";
  try {
    const result = await engine.request({ action: "divisions-for", edition, technique });
    const summary = document.createElement("p");
    summary.textContent = `${result.summary} `;
    summary.append(citeLink(root, result.edition, result.cite));
    out.replaceChildren(summary);
  } catch (error) {
    out.textContent = error.kind === "rules" ? error.message : "";
  }
}
