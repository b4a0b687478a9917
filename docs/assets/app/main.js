// LVL Rules: mounts the interactive pages (lookup, calculator) on each page view,
// including Material's instant navigation. Only those pages import the rules engine,
// so no other page downloads Pyodide.

import { reloadIntoNewBuild } from "./page-life.js";

const APPS = {
  lookup: () => import("./lookup.js"),
  calculator: () => import("./calculator.js"),
  board: () => import("./board.js"),
  sheet: () => import("./sheet.js"),
};

function mountAll() {
  // Match mode sets this class on <html>: a page reached by instant navigation starts
  // without it.
  document.documentElement.classList.remove("lvl-match");
  for (const root of document.querySelectorAll("[data-lvl-app]")) {
    if (root.dataset.mounted) continue;
    root.dataset.mounted = "true";
    const load = APPS[root.dataset.lvlApp];
    if (!load) continue;
    load()
      .then((app) => app.mount(root), reloadIfOfAnotherBuild)
      .catch((error) => console.error("LVL Rules: this page's app failed to load", error));
  }
}

// The app's module did not load. After a deploy, this page's scripts may be an older
// build's, gone from the server (they are named by their content), while the theme's
// instant navigation brought in a page of the new build: load the page afresh, once, as
// the new build's (page-life.js). (Offline, the same page comes again, and the error is
// reported.)
function reloadIfOfAnotherBuild(error) {
  if (reloadIntoNewBuild()) return new Promise(() => {}); // the page is leaving
  throw error;
}

if (typeof document$ !== "undefined") {
  document$.subscribe(mountAll); // Material: every page view, instant or not
} else {
  mountAll();
}
