// LVL Rules: small enhancements for rule pages. No rule logic lives here.
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

if (typeof document$ !== "undefined") {
  document$.subscribe(showCopyButtons);  // Material: after every (instant) page load
} else {
  document.addEventListener("DOMContentLoaded", showCopyButtons);
}
