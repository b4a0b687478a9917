// The calculator's buttons and pickers, read generically: a button names its preset
// (`data-preset`: the fields it records, from the page's JSON) and, when it needs more,
// the dialog that asks for the rest (`data-opens`). A dialog's controls are the event's
// open fields as the build wrote them from the event declarations (`data-slot`): a
// checkbox is a flag, a select a value, buttons with `data-value` the field it picks.
// Nothing here knows one event type from another.

/** Open a dialog as a modal (focus inside it, Escape closes it). */
export function openPicker(dialog) {
  if (!dialog.open) dialog.showModal();
}

/** Wire the buttons of both halves, the shared ones and every picker to the match's
 * owner (match-owner.js): a call is recorded with a label naming it while it waits for
 * the engine; a count or an injury time-out goes to the owner's clock. */
export function wirePickers(owner, { page }) {
  const app = { owner, page };
  const record = (event, label) => owner.record(event, label);
  const board = page.querySelector("#calc-board");
  board.addEventListener("click", (event) => {
    if (event.target.closest("dialog")) return; // the dialogs answer for themselves
    const button = event.target.closest("button[data-preset]");
    if (!button || button.disabled) return;
    const half = button.closest("[data-half]")?.dataset.half;
    press(app, button, half === "A" || half === "B" ? half : null, record);
  });
  for (const dialog of board.querySelectorAll("dialog[data-scope]")) wireDialog(app, dialog, record);
  // Controls of another edition are cloned in when that edition is chosen: wire those too.
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType === 1) for (const dialog of node.querySelectorAll?.("dialog[data-scope]") ?? []) wireDialog(app, dialog, record);
      }
    }
  }).observe(board, { childList: true });
}

/** A button was pressed for `athlete` ("A", "B" or null for the shared ones). */
export function press(app, button, athlete, record) {
  const preset = button.dataset.preset;
  if (button.dataset.count) {
    app.owner.startCount(button.dataset.count, athlete);
    return;
  }
  if (button.dataset.injury) {
    if (athlete) app.owner.injury(athlete);
    return;
  }
  const opens = button.dataset.opens;
  const fixed = presetEvent(app, preset);
  if (opens) {
    const dialog = app.page.querySelector(`#calc-board #${CSS.escape(opens)}`);
    if (!dialog) return;
    dialog.dataset.athlete = athlete ?? "";
    dialog.dataset.preset = preset;
    reset(app, dialog);
    openPicker(dialog);
    return;
  }
  if (fixed) record(withAthlete(app, fixed, athlete), button.textContent.trim());
}

function presetEvent(app, preset) {
  return app.owner.preset(preset);
}

function withAthlete(app, fixed, athlete) {
  const event = { ...fixed };
  if (athlete && !("athlete" in event) && app.owner.data.events[event.type]?.athlete) event.athlete = athlete;
  return event;
}

function reset(app, dialog) {
  const athlete = dialog.dataset.athlete;
  for (const name of dialog.querySelectorAll("[data-athlete-name]")) {
    name.textContent = athlete ? app.owner.setup.label(athlete) : "";
  }
  // A choice of athlete (a referee's decision, a random draw's winner) by what they are called.
  for (const option of dialog.querySelectorAll('select[data-slot] option:is([value="A"], [value="B"])')) {
    option.textContent = app.owner.setup.label(option.value);
  }
  for (const control of dialog.querySelectorAll("input[data-slot]")) control.checked = false;
  for (const control of dialog.querySelectorAll("select[data-slot]")) control.selectedIndex = 0;
}

function wireDialog(app, dialog, record) {
  if (dialog.dataset.wired) return;
  dialog.dataset.wired = "true";
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) {
      dialog.close(); // a tap outside the box
      return;
    }
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    const athlete = dialog.dataset.athlete || null;
    if ("close" in button.dataset) {
      dialog.close();
    } else if (button.dataset.preset) {
      dialog.close(); // a menu: the next button, for the same athlete
      press(app, button, athlete, record);
    } else if ("value" in button.dataset || "record" in button.dataset) {
      const event = withAthlete(app, presetEvent(app, dialog.dataset.preset) ?? {}, athlete);
      for (const control of dialog.querySelectorAll("[data-slot]:not(button)")) read(event, control);
      if (button.dataset.slot && button.dataset.value) event[button.dataset.slot] = button.dataset.value;
      dialog.close();
      const title = dialog.querySelector(".lvl-picker-title")?.lastChild?.textContent ?? "";
      const label = "value" in button.dataset ? `${title.replace(/^ · /, "")}: ${button.textContent.trim()}` : title;
      record(event, label.trim());
    }
  });
}

function read(event, control) {
  const name = control.dataset.slot;
  if (control.type === "checkbox") {
    if (control.checked) event[name] = true;
  } else if (control.dataset.index !== undefined) {
    (event[name] ??= [])[Number(control.dataset.index)] = control.value;
  } else if (control.value) {
    event[name] = control.value;
  }
}
