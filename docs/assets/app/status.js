// Shows the engine's real start-up stages, and a way out if it cannot start.

export function showEngineStatus(engine, page) {
  const box = page.querySelector("[data-engine-status]");
  const failed = page.querySelector("[data-engine-failed]");
  if (!box) return;
  const text = box.querySelector("[data-status-text]");
  const bar = box.querySelector("[data-status-progress]");
  const stop = engine.onProgress((status) => {
    if (!box.isConnected) {
      stop();
      return;
    }
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
    const stage = status.stage ?? "starting";
    const bytes = status.total ? ` (${Math.round((100 * status.loaded) / status.total)}%)` : "";
    text.textContent = `Starting the rules engine: ${stage}${bytes}, step ${status.step || 1} of ${status.steps}.`;
    bar.max = status.steps;
    bar.value = status.step;
  });
}
