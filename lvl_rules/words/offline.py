"""What every page says about offline use (overrides/main.html; docs/assets/app/offline.js
puts in the megabytes, ``{cached}`` and ``{total}``, and the build's ``{version}``): what is
kept, the control that keeps everything (again, for the rest, once keeping was cut short),
and the prompt when a newer build is installed.
"""

from __future__ import annotations

REGION_LABEL = "Offline use"
KEPT = {
    "page": "This page is available offline.",
    "everything": "The whole rulebook and the calculators are available offline.",
    "keep": "Keep the whole rulebook and the calculators offline ({total} MB)",
    "keeping": "Keeping the rulebook for offline use: {cached} of {total} MB",
    # When keeping everything stopped before the end (a dropped connection, most often):
    # what is kept, and the control again, for the rest.
    "failed": (
        "Keeping stopped at {cached} of {total} MB: the connection dropped. Once it is back,"
        " keep the rest: nothing kept is downloaded again."
    ),
    "retry": "Keep the rest offline ({total} MB)",
    "build": "Build {version}",
}
PROGRESS_LABEL = "Kept for offline use"
UPDATE_AVAILABLE = "A new version of the rules is available."
RELOAD = "Reload"
