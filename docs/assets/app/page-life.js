// What a page does about its own life, in one place for every script: it is loaded again
// into the new build once it is found to be of an older one (the engine client, when its
// worker is gone from the server; main.js, when an app's module is), and the screen is
// kept awake while a live match is shown (match mode, the audience screen).

// ---------------------------------------------------------------- the new build

const RELOADED_KEY = "lvl-rules.reloaded-into-new-build";

/**
 * This page is of an older build (a file it needs is gone from the server): load its
 * address again, once per address (the lookup and the calculator keep their state in
 * it; a second try for the same address reports the error instead). The service worker
 * would serve the old page again: it is unregistered first (handing over to the waiting
 * new one by skip-waiting took over 30 s on a loaded machine), and the page is marked as
 * leaving (data-lvl-leaving), since offline.js registering it again at the load event
 * would revive it (Chromium). Returns whether the page is leaving.
 */
export function reloadIntoNewBuild() {
  if (!globalThis.location || !globalThis.sessionStorage) return false;
  try {
    if (sessionStorage.getItem(RELOADED_KEY) === location.href) return false; // tried once
    sessionStorage.setItem(RELOADED_KEY, location.href);
  } catch {
    return false; // no session storage: the page reports what failed
  }
  const root = globalThis.document?.documentElement;
  if (root) root.dataset.lvlLeaving = "new-build";
  const workers = globalThis.navigator?.serviceWorker;
  const unregistered = workers?.controller
    ? workers.getRegistration().then((registration) => registration?.unregister())
    : Promise.resolve();
  unregistered.catch(() => {}).then(() => location.reload());
  return true;
}

// ---------------------------------------------------------------- the screen kept awake

/**
 * Keep the screen on while `shown()` says a live match is on screen (Screen Wake Lock,
 * where the browser can; refused, battery saver or no permission, the screen may sleep).
 * The browser lets the lock go when the page is hidden: it is asked for again when the
 * page is seen. Returns `update()`, to call when what `shown()` says changes.
 */
export function keepAwake(shown) {
  let lock = null;
  let asking = false;
  async function update() {
    if (!("wakeLock" in navigator)) return;
    const wanted = shown() && document.visibilityState === "visible";
    if (wanted && !lock && !asking) {
      asking = true;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => (lock = null));
      } catch {
        lock = null;
      }
      asking = false;
      if (!shown()) update(); // left while asking
    } else if (!wanted && lock && document.visibilityState === "visible") {
      lock.release().catch(() => {});
      lock = null;
    }
  }
  document.addEventListener("visibilitychange", update);
  update();
  return update;
}
