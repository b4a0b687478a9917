// Share or copy: the phone's share sheet (the Web Share API) where the browser has one,
// the clipboard otherwise. One module for every "share" button of the site: citations
// (assets/lvl.js), My division (lookup.js), match links.
//
//   import { shareButton } from "./share.js";
//   shareButton(button, () => ({ url: location.href, title, text }));
//
// - `what`: what to share, `{ url, title, text, copy }` (all but `url` optional; `copy`:
//   what the clipboard gets instead of "text — url"), or a function that returns it,
//   called at each tap (the address as it is then).
// - The button's words are the page's, written by the build (lvl_rules/words/) into its
//   data- attributes: data-share-label (its label where a share sheet exists),
//   data-copy-label (where it does not), data-copied and data-failed (said for a moment
//   after a tap), data-unavailable (where it can neither share nor copy); or pass them as
//   `words`: { share, copy, copied, failed, unavailable }.
// - The button is shown (its `hidden` removed) with the right label, and shareButton
//   returns true. A browser that can neither share nor copy (plain http on a venue's
//   network: both need a secure address) gets the `unavailable` label, and a tap shows the
//   address itself beside the button, selected, for the reader to copy; without those
//   words the button stays hidden (false).
// What is copied is the text and the address, "text — url" (the address alone without a
// text), or `copy`. A share sheet the reader closes is no failure and says nothing.

const SAID_MS = 2500; // how long "Copied" (or the failure) shows before the label returns

/** Whether this browser can share `data` with a share sheet. */
export function canShare(data, nav = globalThis.navigator) {
  if (typeof nav?.share !== "function") return false;
  return typeof nav.canShare !== "function" || nav.canShare(shared(data));
}

/** What a share sheet gets: the title, text and address (not what the clipboard gets). */
function shared({ url, title, text }) {
  const data = { url };
  if (title !== undefined) data.title = title;
  if (text !== undefined) data.text = text;
  return data;
}

/** What the clipboard gets: `copy` where the caller gives it (My division: the address
 *  alone), else "text — url", or the address alone. */
export function copyText({ url, text, copy }) {
  if (copy !== undefined) return copy;
  return text ? `${text} — ${url}` : url;
}

/** Share `data` ({ url, title, text }) with the share sheet, or copy it: resolves to
 *  "shared", "cancelled" (the reader closed the sheet), "copied" or "failed". A share
 *  sheet that fails otherwise (no permission, say) falls back to the clipboard. */
export async function shareOrCopy(data, nav = globalThis.navigator) {
  if (canShare(data, nav)) {
    try {
      await nav.share(shared(data));
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
    }
  }
  try {
    await nav.clipboard.writeText(copyText(data));
    return "copied";
  } catch {
    return "failed";
  }
}

/** The words of a button, from its data- attributes. */
export function wordsOf(button) {
  const said = button.dataset;
  return {
    share: said.shareLabel,
    copy: said.copyLabel,
    copied: said.copied,
    failed: said.failed,
    unavailable: said.unavailable,
  };
}

/** Make `button` share (or copy) `what`; see the top of this module. */
export function shareButton(button, what, words = wordsOf(button), nav = globalThis.navigator) {
  const data = () => (typeof what === "function" ? what() : what);
  const sharing = canShare(data(), nav);
  if (!sharing && typeof nav?.clipboard?.writeText !== "function") {
    return words.unavailable ? showAddressOnTap(button, data, words.unavailable) : false;
  }
  const label = sharing ? words.share : words.copy;
  button.textContent = label;
  button.hidden = false;
  let restore = null;
  button.addEventListener("click", async () => {
    const said = words[await shareOrCopy(data(), nav)];
    if (!said) return; // shared, or the sheet closed: nothing to say
    button.textContent = said;
    clearTimeout(restore);
    restore = setTimeout(() => {
      button.textContent = label;
    }, SAID_MS);
  });
  return true;
}

// Neither a share sheet nor a clipboard: the button says so, and a tap writes the address
// as a link beside it (made once, its address renewed at each tap) and selects it.
function showAddressOnTap(button, data, label) {
  button.textContent = label;
  button.hidden = false;
  let link = null;
  button.addEventListener("click", () => {
    const { url } = data();
    if (!link) {
      link = button.ownerDocument.createElement("a");
      link.className = "lvl-share-address";
      button.after(link);
    }
    link.href = url;
    link.textContent = url;
    button.ownerDocument.getSelection()?.selectAllChildren(link);
  });
  return true;
}
