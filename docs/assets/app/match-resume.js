// Matches in progress, offered again: wherever the calculator opens without a match of
// its own (Home's "Open match mode" included), the most recent matches kept in this
// browser that are not finished, each a link that opens it in match mode, one tap; the
// offer goes once this page's match has events. And "New match" asks before it leaves a
// match that is not finished (match-owner.js says which).

import { toParams } from "./division-form.js";
import { Setup } from "./match-setup.js";
import { fill, plural } from "./page-data.js";

/** Offer the unfinished matches `store` keeps, other than the owner's. */
export function offerResume(owner, store, { page, data, words }) {
  const box = page.querySelector("#calc-resume");
  if (!box || owner.match.events.length) return;
  const found = store.unfinished({ except: owner.id });
  if (!found.length) return;
  const links = found.map(({ id, record }) => {
    const setup = new Setup(data.setup).read(new URLSearchParams(), record.setup);
    const params = toParams(record.division ?? {});
    params.set("match", id);
    setup.addParams(params);
    if (record.clock?.length > 0) params.set("length", String(Math.round(record.clock.length / 1000)));
    params.set("mode", "match");
    const link = document.createElement("a");
    link.className = "lvl-act lvl-primary";
    link.href = `?${params}`;
    const events = plural(words.resume_events, record.events.length);
    link.textContent = fill(words.resume_match, { a: setup.label("A"), b: setup.label("B"), events });
    return link;
  });
  box.querySelector("[data-resume-list]").replaceChildren(...links.flatMap((link, i) => (i ? [" ", link] : [link])));
  box.hidden = false;
  box.querySelector("[data-resume-dismiss]").addEventListener("click", () => (box.hidden = true));
  const stop = owner.subscribe(() => {
    if (!owner.match.events.length) return;
    box.hidden = true; // this page's match has begun
    stop();
  });
}

/** "New match": at once if this match is finished or empty; else asked first. */
export function wireNewMatch(owner, { page }, start) {
  const dialog = page.querySelector("#calc-new-match");
  page.querySelector("#calc-reset").addEventListener("click", () => {
    if (owner.unfinished && dialog) dialog.showModal();
    else start();
  });
  dialog?.addEventListener("click", (event) => {
    if (event.target === dialog || event.target.closest("[data-close]")) dialog.close();
    else if (event.target.closest("[data-new-match]")) {
      dialog.close();
      start();
    }
  });
}
