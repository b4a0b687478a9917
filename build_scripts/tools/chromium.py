"""Debian's Chromium as every browser-driving script and test here launches it.

Never `playwright install`: it cannot download here. The flags keep Chromium from reaching
for the network on its own (background updates, sync, QUIC) and let it run as root.
"""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
