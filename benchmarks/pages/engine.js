// The floor for our pages: the site's own engine worker (the build's manifest in the
// page) on a page with nothing else: no theme, no styles, no service worker. The same
// request as the bare page, rendered the same way.
import { engine } from "/assets/engine/engine-client.js";
import { REQUEST, fail, render } from "./common.js";

try {
  await render(await engine.request(REQUEST));
} catch (error) {
  fail(error);
}
