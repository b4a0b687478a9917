// Shared by the benchmark pages: the request both pages answer and how they report.
export const REQUEST = {
  action: "eligibility",
  edition: "2",
  age: 30,
  belt: "purple",
  uniform: "nogi",
  experience: [],
};

// Show the answer, wait until it has been painted, then publish the time since navigation
// start (performance.now() counts from it) for benchmarks/browser_start.py to read.
export async function render(result, extra = {}) {
  const legal = result.techniques.filter((t) => t.legal).length;
  document.getElementById("answer").textContent =
    `${result.description}: ${legal} of ${result.techniques.length} techniques legal`;
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  document.body.dataset.done = JSON.stringify({ ms: performance.now(), ...extra });
}

export function fail(error) {
  document.getElementById("answer").textContent = `failed: ${error.message}`;
  document.body.dataset.error = String(error?.message ?? error);
}
