// Shows the engine's real start-up stages, and a way out if it cannot start. The words
// are the page's (build_scripts/pages/forms.py, from lvl_rules/words/site.py).

import { fill } from "./division-form.js";

export function showEngineStatus(engine, page) {
  const box = page.querySelector("[data-engine-status]");
  const failed = page.querySelector("[data-engine-failed]");
  if (!box) return;
  const text = box.querySelector("[data-status-text]");
  const stages = JSON.parse(box.dataset.stages); // the words for each stage the worker reports
  const bytes = box.querySelector("[data-status-bytes]");
  const bar = box.querySelector("[data-status-progress]");
  // Downloads report progress many times a second: draw at most once a frame.
  let latest = null;
  const stop = engine.onProgress((status) => {
    if (!box.isConnected) {
      stop();
      return;
    }
    const first = latest === null;
    latest = status;
    if (status.state === "ready" || status.state === "failed") show(latest);
    else if (first) requestAnimationFrame(() => latest && show(latest));
  });

  function show(status) {
    latest = null;
    if (status.state === "ready") {
      box.hidden = true;
      failed.hidden = true;
      return;
    }
    if (status.state === "failed") {
      box.hidden = true;
      failed.hidden = false;
      failed.querySelector("[data-failed-detail]").textContent = status.error?.message ?? "";
      return;
    }
    box.hidden = false;
    const stage = stages[status.stage] ?? status.stage ?? "";
    // The stage text is a live region: change it only when the stage changes.
    const said = fill(box.dataset.stage, { stage, step: status.step || 1, steps: status.steps });
    if (text.textContent !== said) text.textContent = said;
    if (bytes) bytes.textContent = status.total ? `${Math.round((100 * status.loaded) / status.total)}%` : "";
    bar.max = status.steps;
    bar.value = status.step;
  }
}
