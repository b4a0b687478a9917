// The engine client as the site's pages use it: navigation -> first rendered answer.
import { engine } from "/assets/engine/engine-client.js";
import { REQUEST, fail, render } from "./common.js";

const progress = document.getElementById("progress");
engine.onProgress((p) => {
  const bytes = p.total ? ` ${(p.loaded / 1e6).toFixed(1)}/${(p.total / 1e6).toFixed(1)} MB` : "";
  progress.textContent = `${p.state}: ${p.stage ?? ""}${bytes}`;
});
try {
  const result = await engine.request(REQUEST);
  await render(result, { timings: engine.status.timings, versions: engine.status.versions });
} catch (error) {
  fail(error);
}
