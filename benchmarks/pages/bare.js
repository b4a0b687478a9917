// The baseline: a plain loadPyodide() on the main thread, the wheel unpacked, lvl_rules
// imported, one request answered. URLs come from the query string (set by the benchmark).
import { REQUEST, fail, render } from "./common.js";

const params = new URLSearchParams(location.search);
const indexURL = params.get("pyodide");
const wheelURL = params.get("wheel");
try {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const wheel = fetch(wheelURL).then((r) => r.arrayBuffer());
  const pyodide = await loadPyodide({ indexURL });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  const handle = pyodide.pyimport("lvl_rules.faces.api").handle;
  const answer = JSON.parse(handle(JSON.stringify(REQUEST)));
  await render(answer.result);
} catch (error) {
  fail(error);
}
