// LVL Rules: small enhancements for every page. No rule logic lives here.
// "Copy citation" buttons copy e.g. "LVL Rules, Edition 2, §5.4 — https://…/cite/2/5.4/".
// Event delegation on the document keeps working across Material's instant navigation.

function showCopyButtons() {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button.lvl-copy[hidden]")) {
    button.hidden = false;
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.lvl-copy");
  if (!button) return;
  const url = new URL(button.dataset.href, document.baseURI).href;
  const text = `${button.dataset.cite} — ${url}`;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Copy failed: use the permalink";
  }
  setTimeout(() => { button.textContent = "Copy citation"; }, 2500);
});

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

if (typeof document$ !== "undefined") {
  document$.subscribe(showCopyButtons);  // Material: after every (instant) page load
} else {
  document.addEventListener("DOMContentLoaded", showCopyButtons);
}
