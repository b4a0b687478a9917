// LVL Rules: small enhancements for every page. No rule logic lives here.
// Citation buttons share the citation with the phone's share sheet, or copy it ("LVL
// Rules, Edition 2, §5.4 — https://…/cite/2/5.4/"): app/share.js, fetched on a page that
// has them; their words are in their data- attributes (lvl_rules/words/site.py). Their
// place is kept from the first paint (invisible until wired: lvl.css), so nothing moves
// when they show.
// Material's instant navigation replaces the page's content: document$ wires the new one.

const SHARE_MODULE = new URL("app/share.js", document.currentScript.src).href;

function wireCitations() {
  const buttons = [...document.querySelectorAll("button.lvl-copy:not([data-wired])")];
  if (!buttons.length) return;
  import(SHARE_MODULE).then(({ shareButton }) => {
    for (const button of buttons) {
      const url = new URL(button.dataset.href, document.baseURI).href;
      const wired = shareButton(button, { url, title: button.dataset.cite, text: button.dataset.cite });
      button.dataset.wired = wired ? "yes" : "no"; // "no": it stays invisible (lvl.css)
    }
  });
}

// The reader opens search (the search box, or the header's search button on a phone):
// Material's search worker starts now if it was waiting for the engine
// (assets/javascripts/workers/search-when-free.js). A worker that begins to wait asks
// ("waiting"): a reader who wanted search before it listened (a link with ?q=, which
// Material opens as the page loads) is not left waiting.
const searchChannel = typeof BroadcastChannel === "function" ? new BroadcastChannel("lvl-rules-search") : null;
let searchIsWanted = new URLSearchParams(location.search).has("q");
function searchWanted() {
  searchIsWanted = true;
  searchChannel?.postMessage("start");
}
if (searchChannel) {
  searchChannel.onmessage = (event) => {
    if (event.data === "waiting" && searchIsWanted) searchChannel.postMessage("start");
  };
}
document.addEventListener("focusin", (event) => {
  if (event.target.closest?.("[data-md-component=search-query]")) searchWanted();
});
document.addEventListener("change", (event) => {
  if (event.target.id === "__search" && event.target.checked) searchWanted();
});

// A search result lands on its chart row, clause or foul: each is a search entry of its
// own at <page>?at=<id> (build_scripts/pages/search_entries.py; Material links an entry
// of its own without a fragment), and Material marks the words searched for (?h=).
// On a page opened, and when a result of the page on screen is chosen; not on a page the
// reader comes back to (back, forward, reload), where the browser or Material puts the
// reader back where they were.
let shownPath = location.pathname;
let cameBack = ["reload", "back_forward"].includes(performance.getEntriesByType?.("navigation")[0]?.type);
addEventListener("popstate", () => { cameBack = true; });

// A link to a place (#5.4, a chart row's #technique-slam: the link to the same clause or
// row in another edition) marks it as a search result's is: Material's instant navigation
// scrolls to it but leaves :target where it was. Its row or list item is marked.
function landAt(url) {
  const id = url.searchParams.get("at");
  const target = id && !url.hash ? document.getElementById(id) : null;
  if (!target) return markTarget(url);
  const place = mark(target);
  place.scrollIntoView({ block: "start" });
}

function markTarget(url) {
  const id = url.hash ? decodeURIComponent(url.hash.slice(1)) : "";
  const target = id ? document.getElementById(id) : null;
  if (target) mark(target);
}

function mark(target) {
  for (const landed of document.querySelectorAll(".lvl-landed")) landed.classList.remove("lvl-landed");
  const place = target.closest("tr, li") ?? target;
  place.classList.add("lvl-landed");
  return place;
}

function pageShown() {
  shownPath = location.pathname;
  wireCitations();
  if (!cameBack) landAt(new URL(location.href));
  cameBack = false;
}

if (typeof document$ !== "undefined") {
  document$.subscribe(pageShown);  // Material: after every (instant) page load
  // Another result of the page on screen: Material fetches nothing and scrolls nowhere.
  location$.subscribe((url) => { if (url.pathname === shownPath) landAt(url); });
} else {
  document.addEventListener("DOMContentLoaded", pageShown);
}
