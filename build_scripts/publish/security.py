"""The site's security headers: the one source of truth for every place that sends them.

- every HTML page carries :func:`meta_policy` in a ``<meta>`` tag: the MkDocs hook gives
  it to the theme's template (``overrides/partials/csp.html``), and the permalink pages
  get it from their generator;
- Caddy (``make serve``, the tests: ``build_scripts/tools/caddy_config.py``) sends them
  as headers, and ``build_scripts/publish/headers.py`` writes them into
  ``<site>/_headers`` for a static host (Netlify / Cloudflare Pages format).

Two Content-Security-Policies:

- :data:`PAGE_POLICY` for everything, pages included: scripts from this site only, no
  inline script, no eval, and no WebAssembly either ('wasm-unsafe-eval' is absent);
- :data:`WORKER_POLICY` for the engine worker script only: the same plus
  'wasm-unsafe-eval', because Pyodide runs there and only there. A dedicated worker's
  policy comes from its own response headers, not from the page that starts it, so a
  page's ``<meta>`` tag never reaches it (and a host that sends no header leaves the
  worker without a policy, which also lets it run).

``frame-ancestors`` is ignored (and reported as an error by Chromium) in a ``<meta>``
tag, so :func:`meta_policy` leaves it out; the header carries it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from build_scripts.publish.code_folder import FOLDER, source_of, within

# The engine worker script, by its path under docs/: each build publishes it in its code
# folder (build_scripts/publish/code_folder.py), /assets/code-<hash>/engine/engine-worker.js.
WORKER_SOURCE = "assets/engine/engine-worker.js"
# The service worker: at the site root so that its scope is the whole site.
SERVICE_WORKER_PATH = "/sw.js"

PAGE_DIRECTIVES: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'",),
    "worker-src": ("'self'",),
    "connect-src": ("'self'",),
    "img-src": ("'self'", "data:"),
    "style-src": ("'self'",),
    "font-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'self'",),
    "form-action": ("'self'",),
    "frame-ancestors": ("'none'",),
}
# Directives a <meta> policy may not carry (CSP3 §3.3): sent as a header only.
HEADER_ONLY = ("frame-ancestors", "report-uri", "sandbox")
# Never in any policy of this site; tests check the page policy against these.
FORBIDDEN_IN_PAGES = ("'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'")


def render(directives: Mapping[str, tuple[str, ...]]) -> str:
    """A policy as a header value: ``name source source; name source``."""
    return "; ".join(" ".join((name, *sources)) for name, sources in directives.items())


def _with_wasm(directives: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    changed = dict(directives)
    changed["script-src"] = (*directives["script-src"], "'wasm-unsafe-eval'")
    return changed


PAGE_POLICY = render(PAGE_DIRECTIVES)
WORKER_POLICY = render(_with_wasm(PAGE_DIRECTIVES))

COMMON_HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def meta_policy(policy: str = PAGE_POLICY) -> str:
    """``policy`` without the directives a ``<meta>`` tag may not carry."""
    kept = [
        part.strip()
        for part in policy.split(";")
        if part.strip() and part.split()[0] not in HEADER_ONLY
    ]
    return "; ".join(kept)


def attribute_safe(policy: str) -> str:
    """``policy`` as it goes into a ``content="..."`` attribute unescaped; raises
    ValueError if it holds a character that would need escaping there."""
    if any(character in policy for character in '"&<>'):
        raise ValueError(f'a policy for a <meta> tag must not contain " & < >: {policy}')
    return policy


def policy_for(url_path: str) -> str:
    """The Content-Security-Policy a response for ``url_path`` (from the site root) gets."""
    return WORKER_POLICY if source_of(url_path.removeprefix("/")) == WORKER_SOURCE else PAGE_POLICY


def worker_url_pattern() -> str:
    """A regular expression of the URL paths :func:`policy_for` gives the worker's policy
    (in every build: its code folder's name changes), for a server that matches paths by
    pattern (Caddy: build_scripts/tools/caddy_config.py)."""
    return "^/" + FOLDER.pattern.removeprefix("^") + re.escape(within(WORKER_SOURCE)) + "$"


def headers_for(url_path: str) -> dict[str, str]:
    """Every security header of the response for ``url_path`` (from the site root)."""
    return {"Content-Security-Policy": policy_for(url_path), **COMMON_HEADERS}


def script_sources(policy: str) -> tuple[str, ...]:
    """The sources of a policy's script-src (or default-src when it has none)."""
    directives = {
        part.split()[0]: tuple(part.split()[1:]) for part in policy.split(";") if part.split()
    }
    return directives.get("script-src", directives.get("default-src", ()))
