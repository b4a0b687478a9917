// Material for MkDocs' start-up helpers (theme partial javascripts/base.html), moved out of
// the page so the Content-Security-Policy allows no inline script. Same logic as upstream.
/* eslint-disable no-global-assign */
__md_scope = new URL(document.currentScript.dataset.mdScope, location);
__md_hash = (e) => [...e].reduce((e, _) => (e << 5) - e + _.charCodeAt(0), 0);
__md_get = (e, _ = localStorage, t = __md_scope) => JSON.parse(_.getItem(t.pathname + "." + e));
__md_set = (e, _, t = localStorage, a = __md_scope) => {
  try {
    t.setItem(a.pathname + "." + e, JSON.stringify(_));
  } catch (e) {}
};
