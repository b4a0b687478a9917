"""What the lookup and calculator pages say about the rules engine in the browser: its
download and start-up, the question before a large download, and why it could not start.

The pages' scripts show these; each is a whole pattern, written once here, into which a
script puts only numbers and names: ``{loaded}``, ``{total}`` (megabytes), ``{seconds}``,
``{stage}``, ``{detail}`` (what failed, in the browser's or Pyodide's own words), ``{path}``,
``{status}``. The build puts them into the pages: the status box's ``data-words-*``
attributes (docs/assets/app/status.js) and a JSON element the engine client reads
(docs/assets/engine/engine-client.js).
"""

from __future__ import annotations

# The status box, while the engine downloads and starts.
STATUS = {
    "starting": "Starting the rules engine…",
    "downloading": "Downloading the rules engine: {loaded} of {total} MB",
    "unpacking": "Starting the rules engine (downloaded {total} MB)…",
    "ask": (
        "The rules engine is a {total} MB download. It is kept in this browser afterwards, "
        "for use offline."
    ),
}
# Where the status box was, once the engine is ready (the box's place stays: nothing moves).
READY = "The rules engine is ready: every answer on this page is worked out in this browser."
PROGRESS_LABEL = "Rules engine download"
DOWNLOAD_BUTTON = "Download the rules engine"

# When it cannot start, or the page has no JavaScript.
FAILED = "The rules engine could not start in this browser."
NEEDS_JAVASCRIPT = "This page needs JavaScript."
CHART_LINK = "technique chart"


def chart_instead(link: str) -> str:
    """The way out, around a link to the technique chart (``link``: its markup)."""
    return f"The {link} has the same answers as a plain page."


# Why a request or the start failed (EngineError messages of engine-client.js).
ERRORS = {
    "could-not-start": "The rules engine could not start: {detail}",
    "could-not-start-at": "The rules engine could not start ({stage}): {detail}",
    "worker-not-loaded": "the worker script failed to load",
    "restarted": "The rules engine was restarted",
    "no-answer": "The rules engine gave no answer within {seconds} s",
    "stopped": "The rules engine was stopped after a timeout",
    "failed": "The rules engine failed: {detail}",
    "no-progress": (
        "The rules engine made no progress for {seconds} s{during}. If the site's "
        "Content-Security-Policy lacks 'wasm-unsafe-eval', WebAssembly cannot run."
    ),
    "last-step": " (last step: {stage})",
    # The worker's reasons (engine-worker.js names them; the client words them).
    "no-webassembly": "this browser does not support WebAssembly, which the rules engine needs",
    "webassembly-blocked": (
        "WebAssembly is blocked here (the Content-Security-Policy must allow "
        "'wasm-unsafe-eval' in script-src): {detail}"
    ),
    "missing-file": "{path}: not on the server (HTTP {status})",
    "not-webassembly": "{path} is not WebAssembly (the server sent something else)",
}
