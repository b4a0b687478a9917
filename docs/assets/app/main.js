// LVL Rules: mounts the interactive pages (lookup, calculator) on each page view,
// including Material's instant navigation. Only those pages import the rules engine,
// so no other page downloads Pyodide.

const APPS = {
  lookup: () => import("./lookup.js"),
  calculator: () => import("./calculator.js"),
  board: () => import("./board.js"),
};

// Classes the calculator's match mode and the audience screen set on <html>: a page
// reached by instant navigation starts without them.
const SCREEN_CLASSES = ["lvl-match", "lvl-audience-screen"];

function mountAll() {
  document.documentElement.classList.remove(...SCREEN_CLASSES);
  for (const root of document.querySelectorAll("[data-lvl-app]")) {
    if (root.dataset.mounted) continue;
    root.dataset.mounted = "true";
    const load = APPS[root.dataset.lvlApp];
    if (!load) continue;
    load()
      .then((app) => app.mount(root))
      .catch((error) => console.error("LVL Rules: this page's app failed to load", error));
  }
}

if (typeof document$ !== "undefined") {
  document$.subscribe(mountAll); // Material: every page view, instant or not
} else {
  mountAll();
}
