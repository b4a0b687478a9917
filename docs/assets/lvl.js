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

// Names and keyboard access for parts of Material's own markup that have none. Each of
// these parts only works with JavaScript (search, the instant-loading bar, the table
// wrappers Material's script adds), so a script is the right place to complete them.
function completeThemeMarkup() {
  // The search overlay is a dialog: a dialog needs a name.
  const search = document.querySelector('.md-search[role="dialog"]:not([aria-label])');
  search?.setAttribute("aria-label", "Search the rules");
  // The instant-loading bar is decoration; the new page's title is what is announced.
  document.querySelector(".md-progress")?.setAttribute("aria-hidden", "true");
  // A section with its own index page: Material labels its navigation by the expand
  // toggle, which holds only an icon. Name both after the section.
  for (const nav of document.querySelectorAll("nav.md-nav[aria-labelledby]")) {
    const toggle = document.getElementById(nav.getAttribute("aria-labelledby"));
    const title = nav.querySelector(":scope > .md-nav__title")?.textContent.trim();
    if (!toggle || !title || toggle.textContent.trim()) continue;
    toggle.append(hiddenText(`${title}: show or hide its pages`));
    nav.removeAttribute("aria-labelledby");
    nav.setAttribute("aria-label", title);
  }
  // Phones and tablets: the menu button is a <label> for Material's hidden drawer
  // checkbox. Let a keyboard reach it, as Material does for its section toggles, and
  // move focus into the drawer when it opens.
  const menu = document.querySelector('label.md-header__button[for="__drawer"]:not([tabindex])');
  const drawer = document.getElementById("__drawer");
  if (menu && drawer) {
    menu.tabIndex = 0;
    menu.append(hiddenText("Navigation menu"));
    menu.addEventListener("keydown", (event) => {
      if (event.key !== " ") return; // Material's own keyboard handler clicks on Enter
      event.preventDefault();
      menu.click();
    });
    drawer.addEventListener("change", () => {
      if (!drawer.checked) return;
      // Into the drawer's open panel (the current section's): the current page, else the
      // first link that can take focus.
      const nav = document.querySelector(".md-sidebar--primary");
      if (!nav) return;
      const open = [...nav.querySelectorAll("input.md-nav__toggle:checked")].at(-1);
      const panel = open?.parentElement.querySelector(":scope > nav") ?? nav;
      for (const entry of panel.querySelectorAll("a.md-nav__link--active, a.md-nav__link")) {
        entry.focus();
        if (document.activeElement === entry) break;
      }
    });
  }
  // A wide table scrolls sideways inside Material's wrapper: keyboard users must be
  // able to focus it to scroll it, and screen readers hear what it holds.
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])")) {
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", `Table: ${tableTitle(wrap)}`);
  }
}

/** Words for screen readers only (a <label> may not carry aria-label). */
function hiddenText(words) {
  const span = document.createElement("span");
  span.className = "lvl-sr";
  span.textContent = words;
  return span;
}

/** The caption of a table, or else the heading it comes under. */
function tableTitle(wrap) {
  const caption = wrap.querySelector("caption")?.textContent.trim();
  if (caption) return caption;
  for (let node = wrap.previousElementSibling; node; node = node.previousElementSibling) {
    if (/^H[1-6]$/.test(node.tagName)) return node.textContent.trim();
  }
  return document.title;
}

function onPage() {
  showCopyButtons();
  completeThemeMarkup();
}

if (typeof document$ !== "undefined") {
  document$.subscribe(onPage);  // Material: after every (instant) page load
} else {
  document.addEventListener("DOMContentLoaded", onPage);
}
