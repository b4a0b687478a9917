"""What every page says about offline use (overrides/main.html; docs/assets/app/offline.js
puts in the megabytes, ``{cached}`` and ``{total}``, and the build's ``{version}``): what is
kept and of which build, the control that keeps everything (again, for the rest, once
keeping was cut short), a newer build keeping its copies of what was kept (and when that
stopped short), the prompt when it is installed, and, on an address where the browser
keeps nothing (plain http on a venue's network), that offline keeping needs https.
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
    "build": "(build {version})",
    # A deploy: the new build's copies of what was kept are downloaded before it answers.
    "updating": (
        "Keeping the new version for offline use: {cached} of {total} MB. What is kept"
        " stays available offline meanwhile."
    ),
    "interrupted": (
        "The new version could not be kept for offline use (the connection dropped). What"
        " is kept, of build {version}, stays available offline; the new version is kept"
        " at a next visit online."
    ),
}
PROGRESS_LABEL = "Kept for offline use"
UPDATE_AVAILABLE = "A new version of the rules is available."
RELOAD = "Reload"
# Plain http on a venue's network: the browser runs no service worker there.
UNAVAILABLE = (
    "This address cannot keep the rules for offline use: that needs a secure (https)"
    " address. Every page works while you are connected."
)
