// The division fields shared by the lookup and the calculator: edition, age, LVL or
// belt, prior experience, uniform. They only carry values; lvl_rules checks them (the
// engine, or the rules table it made). Their words come from the page ([data-form-words],
// written by the build from lvl_rules.words).

const FIELDS = ["edition", "age", "uniform"]; // and one per rank axis (rankAxes)

/** Fill a "{name}" template from an object of values (a name without a value stays). */
export function fill(template, values = {}) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function formWords(form) {
  return form.querySelector("[data-form-words]")?.dataset ?? {};
}

/** The rank axes of the editions (LVL, belt, …), as the build wrote them into the form. */
export function rankAxes(form) {
  return (formWords(form).rankAxes ?? "").split(" ").filter(Boolean);
}

/** Show the fields (and words) of the chosen edition; hide and disable the others'. A
 *  block says the editions it serves (data-for-editions: a rank axis's field serves every
 *  edition that goes by it). */
export function syncEditionFields(form) {
  const edition = form.elements.edition.value;
  const page = form.closest("article") ?? document;
  for (const block of page.querySelectorAll("[data-for-editions]")) {
    const mine = block.dataset.forEditions.split(" ").includes(edition);
    block.hidden = !mine;
    for (const control of block.querySelectorAll("input, select")) control.disabled = !mine;
  }
  const inert = page.querySelector(`template[data-controls-for="${edition}"]`);
  if (inert && !page.querySelector(`.lvl-controls[data-for-edition="${edition}"]`)) {
    inert.before(inert.content.cloneNode(true)); // first time this edition is chosen
  }
  for (const block of page.querySelectorAll(".lvl-controls[data-for-edition]")) {
    block.hidden = block.dataset.forEdition !== edition;
  }
}

/** Offer in each LVL or belt list only what exists at the age entered (each option says
 *  its ages, from the data). What is chosen stays, so a wrong choice can be named. */
export function followAge(form) {
  const text = String(form.elements.age.value).trim();
  const age = /^[0-9]{1,3}$/.test(text) ? Number(text) : null;
  for (const option of form.querySelectorAll("option[data-min-age]")) {
    const fits = age === null || (Number(option.dataset.minAge) <= age && age <= Number(option.dataset.maxAge));
    const keep = fits || option.selected;
    option.hidden = !keep;
    option.disabled = !keep;
  }
}

/** Ask only for the fields of `asked` among `names` (say "lvl", "belt", "experience"):
 *  each other one changes nothing now, so it is hidden and disabled (readForm leaves it
 *  out), its value kept for when it is asked again. */
export function askOnly(form, names, asked) {
  for (const name of names) {
    const wanted = asked.includes(name);
    for (const control of form.querySelectorAll(`[name="${name}"]`)) {
      control.disabled = !wanted;
      const field = control.closest(".lvl-field");
      if (field) field.hidden = !wanted;
    }
  }
}

/** The division as request fields, from the enabled controls of the form. */
export function readForm(form) {
  const data = new FormData(form);
  const division = {};
  for (const name of [...FIELDS, ...rankAxes(form)]) {
    const values = data.getAll(name).filter((value) => value !== "");
    if (values.length === 1) division[name] = values[0];
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
  for (const name of rankAxes(form)) {
    const value = params.get(name);
    for (const select of form.querySelectorAll(`select[name="${name}"]`)) {
      if (!select.disabled) setSelect(select, value ?? "", formWords(form));
    }
  }
  const experience = params.getAll("experience").flatMap((v) => v.split(","));
  for (const box of form.querySelectorAll('input[name="experience"]:not(:disabled)')) {
    box.checked = experience.includes(box.value);
  }
  const uniform = params.get("uniform");
  for (const radio of form.querySelectorAll('input[name="uniform"]')) {
    if (uniform !== null) radio.checked = radio.value === uniform.trim().toLowerCase();
  }
  if (form.elements.age) followAge(form);
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

/** Mark the control named by an error (field "age", "belt", ...), clear the rest. */
export function markInvalid(form, field) {
  for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  if (!field) return;
  const control = [...form.querySelectorAll(`[name="${field}"]`)].find((c) => !c.disabled);
  control?.setAttribute("aria-invalid", "true");
}

/** Show a message on a field (kind "error" or "remark"), or clear it (text null). */
export function fieldMessage(form, field, text, kind = "error") {
  const slot = [...form.querySelectorAll(`[data-message-for="${field}"]`)].find(
    (element) => !element.closest("[hidden]:not([data-message-for])"),
  );
  if (!slot) return;
  slot.hidden = !text;
  slot.textContent = text ?? "";
  slot.dataset.kind = kind;
  slot.setAttribute("role", kind === "error" ? "alert" : "status");
}

/** Clear every field message. */
export function clearFieldMessages(form) {
  for (const slot of form.querySelectorAll("[data-message-for]")) {
    slot.hidden = true;
    slot.textContent = "";
  }
}

/** Select a value; one from a hand-typed URL is matched without regard to case or
 *  spaces, and an unknown one is kept (named as such) so the rules can say what is wrong. */
function setSelect(select, value, words) {
  const wanted = value.trim().toLowerCase();
  const known = [...select.options].find((o) => o.value.toLowerCase() === wanted);
  if (known) {
    select.value = known.value;
    return;
  }
  select.add(new Option(fill(words.unknown ?? "{value}", { value }), value));
  select.value = value;
}

/** Where to show an error: text, and the element revealed. */
export function showError(box, error) {
  box.hidden = !error;
  box.textContent = error ? error.message : "";
}

/** A link to the permalink of a clause: "§5.4". */
export function citeLink(root, edition, clause, form = document) {
  const words = formWords(form.querySelector ? form : document);
  const link = document.createElement("a");
  link.href = new URL(`cite/${edition}/${clause}/`, root).href;
  link.textContent = fill(words.citeText ?? "§{clause}", { edition, clause });
  link.title = fill(words.citeTitle ?? "", { edition, clause });
  return link;
}
