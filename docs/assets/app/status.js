// Shows the engine's start-up as one honest bar and plain words, asks before a large
// download on a slow or data-saving connection, and gives a way out if it cannot start.
// The words are the page's (data-words-* on [data-engine-status], written by the build):
// this script only fills in the numbers.

const MB = 1_000_000;
const SPOKEN_EVERY_MS = 5000; // the live region's text changes at most this often

export function showEngineStatus(engine, page) {
  const box = page.querySelector("[data-engine-status]");
  const failed = page.querySelector("[data-engine-failed]");
  if (!box) return;
  const text = box.querySelector("[data-status-text]");
  const spokenText = box.querySelector("[data-status-spoken]");
  const bar = box.querySelector("[data-status-progress]");
  const ask = box.querySelector("[data-status-ask]");
  let spoken = 0;
  // Downloads report progress many times a second: draw at most once a frame.
  let latest = null;
  const stop = engine.onProgress((status) => {
    if (!box.isConnected) {
      stop();
      return;
    }
    const first = latest === null;
    latest = status;
    if (status.state !== "starting") show(latest);
    else if (first) requestAnimationFrame(() => latest && show(latest));
  });
  ask
    .querySelector("[data-status-go]")
    .addEventListener("click", () => engine.start({ asked: true }));

  function words(name, numbers = {}) {
    const pattern = box.dataset[`words${name[0].toUpperCase()}${name.slice(1)}`] ?? "";
    return pattern.replace(/\{(\w+)\}/g, (_, key) => numbers[key] ?? "");
  }

  function say(sentence, { now = false } = {}) {
    if (text.textContent !== sentence) text.textContent = sentence;
    const at = performance.now();
    if (spokenText.textContent === sentence || (!now && at - spoken < SPOKEN_EVERY_MS)) return;
    spoken = at;
    spokenText.textContent = sentence;
  }

  function show(status) {
    latest = null;
    box.hidden = status.state === "ready" || status.state === "failed";
    failed.hidden = status.state !== "failed";
    ask.hidden = status.state !== "asking";
    if (status.state === "failed") {
      failed.querySelector("[data-failed-detail]").textContent = status.error?.message ?? "";
      return;
    }
    const mb = (bytes) => (bytes / MB).toFixed(1);
    if (status.state === "asking") {
      say(words("ask", { total: mb(status.total) }), { now: true });
      bar.hidden = true;
      return;
    }
    bar.hidden = false;
    if (status.stage === "downloading" && status.total) {
      bar.max = status.total;
      bar.value = status.loaded;
      const numbers = { loaded: mb(status.loaded), total: mb(status.total) };
      say(words("downloading", numbers), { now: !text.dataset.downloading });
      text.dataset.downloading = "yes";
    } else if (status.stage === "starting" && status.total) {
      bar.removeAttribute("value"); // no byte count left to show: an honest "busy" bar
      say(words("unpacking", { total: mb(status.total) }), { now: true });
    } else {
      bar.removeAttribute("value");
      say(words("starting"), { now: true });
    }
  }
}
