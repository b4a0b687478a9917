// The baseline: a plain loadPyodide() on the main thread, the wheel unpacked, lvl_rules
// imported, one request answered. URLs come from the query string (set by the benchmark):
// the same files as our engine's (its standard library too, where the site has one).
import { REQUEST, fail, render } from "./common.js";

const params = new URLSearchParams(location.search);
const indexURL = params.get("pyodide");
const wheelURL = params.get("wheel");
const stdLibURL = params.get("stdlib");
try {
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const wheel = fetch(wheelURL).then((r) => r.arrayBuffer());
  const pyodide = await loadPyodide({ indexURL, ...(stdLibURL ? { stdLibURL } : {}) });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  const handle = pyodide.pyimport("lvl_rules.faces.api").handle;
  const answer = JSON.parse(handle(JSON.stringify(REQUEST)));
  await render(answer.result);
} catch (error) {
  fail(error);
}
