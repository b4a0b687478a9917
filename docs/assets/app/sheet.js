// /calculator/sheet/: the record of the match in the calculator's link (the same query
// and fragment): the edition and whether it is in force, the division, the athletes,
// every event with its match time, what it did and its clause, the result and its
// clause, and the match's fingerprint (the SHA-256 the engine computes, as the command
// line does), with a QR code of the replay link; printable, and downloadable as JSON;
// each athlete's final score, and lines for the officials' signatures. The match's
// details are typed here, into the address, and the sheet made again.
// One request to the engine ("sheet") gives every word and number of the rules here.

import { engine } from "../engine/engine-client.js";
import { citeLink } from "./division-form.js";
import { clockText } from "./match-clock.js";
import { linkFor, readLink } from "./match-link.js";
import { Setup } from "./match-setup.js";
import { fill, pageData } from "./page-data.js";
import { readingMark } from "./reading-mark.js";
import { sheetRequest } from "./sheet-request.js";
import { showEngineStatus } from "./status.js";

const QR_MODULE_PX = 4;

export async function mount(root) {
  const page = root.closest("article") ?? document;
  const data = pageData();
  const part = (name) => root.querySelector(`[data-sheet="${name}"]`);
  showEngineStatus(engine, page);
  // The match's details (date, event, mat, match number) are typed here: they go into
  // the address, which is the record, and the sheet is made again from it.
  const form = part("details-form");
  const url = new URL(location.href);
  for (const input of form.elements) if (input.name) input.value = url.searchParams.get(input.name) ?? "";
  let shown = null;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next = new URL(location.href);
    for (const input of form.elements) {
      if (!input.name) continue;
      if (input.value.trim()) next.searchParams.set(input.name, input.value.trim());
      else next.searchParams.delete(input.name);
    }
    history.replaceState(history.state, "", next.href);
    shown = show(root, data, part, shown);
  });
  shown = show(root, data, part, shown);
  await shown;
}

/** Ask the engine for the sheet of the match in the address, and draw it. */
async function show(root, data, part, before) {
  await before;
  const words = data.words;
  const status = part("status");
  const url = new URL(location.href);
  const params = url.searchParams;
  const setup = new Setup(data.setup).read(params, null);
  const link = await readLink(url, data.limits, words);
  if (link.error || !link.events.length) {
    status.textContent = link.error ?? words.no_match;
    return;
  }
  const request = sheetRequest(
    params, link.events, setup, Object.keys(data.detail_labels), data.limits, data.rank_axes,
  );

  let sheet;
  try {
    sheet = await engine.request(request);
  } catch (error) {
    status.textContent = fill(words.failed, { message: error.message });
    status.hidden = false;
    return;
  }
  status.hidden = true;
  const calculator = new URL(root.dataset.calculator, location.href);
  const ruleRoot = new URL("../", calculator);
  const edition = sheet.edition;
  part("edition").textContent = fill(words.edition, {
    title: edition.title,
    status: edition.in_force ? words.in_force : words.not_in_force,
  });
  part("division").textContent = fill(words.division, { division: sheet.description });
  part("athletes").textContent = fill(words.athletes, {
    a: sheet.labels.A,
    b: sheet.labels.B,
    colour_a: data.colour_names[sheet.who.A.colour],
    colour_b: data.colour_names[sheet.who.B.colour],
  });
  const given = Object.entries(sheet.details);
  part("details").textContent = given.map(([k, value]) => fill(words.detail, { label: data.detail_labels[k], value })).join(" · ");
  part("details").hidden = !given.length;
  drawEvents(part("events"), sheet, link.events, words, ruleRoot);
  for (const [athlete, tally] of Object.entries(sheet.athletes)) {
    part(`name-${athlete}`).textContent = fill(words.score_name, {
      name: sheet.labels[athlete],
      athlete,
      colour: data.colour_names[sheet.who[athlete].colour],
    });
    for (const field of ["points", "advantages", "penalties"]) part(`${field}-${athlete}`).textContent = String(tally[field]);
  }
  const result = part("result");
  result.replaceChildren(`${words.result}: ${sheet.result.summary} `);
  if (sheet.result.cite) result.append(citeLink(ruleRoot, edition.id, sheet.result.cite));
  const mark = readingMark(ruleRoot, edition.id, sheet.result.readings, words.our_reading);
  if (mark) result.append(" ", mark);

  part("fingerprint-label").textContent = fill(words.fingerprint, { form: sheet.fingerprint.form });
  part("fingerprint").textContent = sheet.fingerprint.sha256;
  const query = new URLSearchParams(params);
  query.delete("events");
  const replay = await linkFor(query, link.events, 0); // the shortest: it goes into the QR code
  calculator.search = `?${replay.params}`;
  calculator.hash = replay.hash;
  part("replay").href = calculator.href;
  drawQr(part("qr"), calculator.href, data.qr, words);

  const download = part("download");
  if (download.href.startsWith("blob:")) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(new Blob([JSON.stringify(sheet, null, 2)], { type: "application/json" }));
  download.download = `match-sheet-${sheet.fingerprint.sha256.slice(0, 12)}.json`;
  part("print").onclick = () => print();
  for (const hidden of root.querySelectorAll(".lvl-sheet-events, .lvl-sheet-score, .lvl-sheet-proof, .lvl-sheet-tools")) {
    hidden.hidden = false;
  }
  root.dataset.sheet = sheet.fingerprint.sha256; // drawn: the tests wait for it
}

/** One row per event: its number, match time, what it did (or why it was not scored)
 * and its clauses. */
function drawEvents(body, sheet, events, words, ruleRoot) {
  const byEvent = new Map();
  for (const line of sheet.log) {
    if (!byEvent.has(line.event)) byEvent.set(line.event, []);
    byEvent.get(line.event).push(line);
  }
  const rows = events.map((event, index) => {
    const row = document.createElement("tr");
    const lines = byEvent.get(index) ?? [];
    if (!lines.length || lines.some((line) => line.refused)) row.dataset.scored = "false";
    const time = Number.isInteger(event?.time) ? clockText(event.time * 1000, { up: true }) : words.no_time;
    const cells = [String(index + 1), time, lines.map((line) => line.effect).join(" ")];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    const clauses = document.createElement("td");
    for (const cite of new Set(lines.map((line) => line.cite).filter(Boolean))) {
      clauses.append(citeLink(ruleRoot, sheet.edition.id, cite), " ");
    }
    // The notes that decided any of the event's lines, once each.
    const readings = [...new Map(lines.flatMap((line) => line.readings ?? []).map((r) => [r.id, r])).values()];
    const mark = readingMark(ruleRoot, sheet.edition.id, readings, words.our_reading);
    if (mark) clauses.append(mark);
    row.append(clauses);
    return row;
  });
  body.replaceChildren(...rows);
}

/** The replay link as a QR code, drawn as SVG squares (no script-made markup). */
async function drawQr(box, text, module, words) {
  let qr;
  try {
    // `module`: its path in the code folder, which holds this module too (the build's).
    const { qrcode } = await import(new URL(`../${module}`, import.meta.url).href);
    qr = qrcode(0, "L");
    qr.addData(text);
    qr.make();
  } catch (error) {
    box.textContent = words.qr_too_long; // beyond what a QR code holds
    console.warn("LVL Rules: no QR code for this link", error);
    return;
  }
  const count = qr.getModuleCount();
  const size = (count + 8) * QR_MODULE_PX;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", words.replay_link);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  let d = "";
  for (let row = 0; row < count; row++) {
    for (let column = 0; column < count; column++) {
      if (qr.isDark(row, column)) d += `M${(column + 4) * QR_MODULE_PX} ${(row + 4) * QR_MODULE_PX}h${QR_MODULE_PX}v${QR_MODULE_PX}h-${QR_MODULE_PX}z`;
    }
  }
  path.setAttribute("d", d);
  const background = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  Object.entries({ width: size, height: size, fill: "#ffffff" }).forEach(([k, v]) => background.setAttribute(k, v));
  svg.append(background, path);
  box.replaceChildren(svg);
}
