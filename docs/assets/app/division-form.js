// The division fields shared by the lookup and the calculator: edition, age, LVL or
// belt, prior experience, uniform. They only carry values; the engine checks them.

const FIELDS = ["edition", "age", "lvl", "belt", "uniform"];

/** Show the fields of the chosen edition; hide and disable the others. */
export function syncEditionFields(form) {
  const edition = form.elements.edition.value;
  for (const block of form.querySelectorAll("[data-for-edition]")) {
    const mine = block.dataset.forEdition === edition;
    block.hidden = !mine;
    for (const control of block.querySelectorAll("input, select")) control.disabled = !mine;
  }
  const page = form.closest("article") ?? document;
  const inert = page.querySelector(`template[data-controls-for="${edition}"]`);
  if (inert && !page.querySelector(`.lvl-controls[data-for-edition="${edition}"]`)) {
    inert.before(inert.content.cloneNode(true)); // first time this edition is chosen
  }
  for (const block of page.querySelectorAll(".lvl-controls[data-for-edition]")) {
    block.hidden = block.dataset.forEdition !== edition;
  }
}

/** The division as request fields, from the enabled controls of the form. */
export function readForm(form) {
  const data = new FormData(form);
  const division = {};
  for (const name of FIELDS) {
    const value = data.get(name);
    if (value !== null && value !== "") division[name] = value;
  }
  const experience = data.getAll("experience");
  if (experience.length) division.experience = experience;
  return division;
}

/** Fill the form from URL query parameters; returns true when an age was given. */
export function fillForm(form, params) {
  const edition = params.get("edition");
  if (edition && [...form.elements.edition.options].some((o) => o.value === edition)) {
    form.elements.edition.value = edition;
  }
  syncEditionFields(form);
  const age = params.get("age");
  if (age !== null) form.elements.age.value = age;
  for (const name of ["lvl", "belt"]) {
    const value = params.get(name);
    const select = [...form.querySelectorAll(`select[name="${name}"]`)].find((s) => !s.disabled);
    if (value !== null && select) setSelect(select, value);
  }
  const experience = params.getAll("experience").flatMap((v) => v.split(","));
  for (const box of form.querySelectorAll('input[name="experience"]:not(:disabled)')) {
    box.checked = experience.includes(box.value);
  }
  const uniform = params.get("uniform");
  for (const radio of form.querySelectorAll('input[name="uniform"]')) {
    if (uniform !== null) radio.checked = radio.value === uniform;
  }
  return age !== null;
}

/** Query parameters for a division (experience as one comma-separated value). */
export function toParams(division) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(division)) {
    params.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  return params;
}

/** Mark the control named by an engine error (field "age", "belt", ...), clear the rest. */
export function markInvalid(form, field) {
  for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  if (!field) return;
  const control = [...form.querySelectorAll(`[name="${field}"]`)].find((c) => !c.disabled);
  control?.setAttribute("aria-invalid", "true");
}

/** Select a value; an unknown value (from a hand-typed URL) is kept so the engine can name it. */
function setSelect(select, value) {
  if (![...select.options].some((o) => o.value === value)) {
    select.add(new Option(`${value} (not a known value)`, value));
  }
  select.value = value;
}

/** Where to show an error: text, and the element revealed. */
export function showError(box, error) {
  box.hidden = !error;
  box.textContent = error ? error.message : "";
}

/** A link to the permalink of a clause: "§5.4". */
export function citeLink(root, edition, clause) {
  const link = document.createElement("a");
  link.href = new URL(`cite/${edition}/${clause}/`, root).href;
  link.textContent = `§${clause}`;
  link.title = `LVL Rules, Edition ${edition}, §${clause}`;
  return link;
}
