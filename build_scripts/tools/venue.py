"""Where phones on a venue's network find the site that ``make serve HOST=0.0.0.0`` serves.

The machine's own IPv4 addresses are read from its interfaces (``ip -4 -o addr``, else
its host name's addresses): nothing is sent to the network to find them.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import subprocess

EVERY_ADDRESS = ("0.0.0.0", "::", "")  # noqa: S104 (names them, binds nothing)


def addresses(host: str) -> list[str]:
    """The non-loopback IPv4 addresses a server listening on ``host`` is reached at."""
    if host not in EVERY_ADDRESS:
        return [] if ipaddress.ip_address(host).is_loopback else [host]
    try:
        listed = subprocess.run(
            ["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, check=True
        ).stdout
        found = re.findall(r"\binet (\d+\.\d+\.\d+\.\d+)/", listed)
    except (OSError, subprocess.CalledProcessError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found = [str(info[4][0]) for info in infos]
    return list(dict.fromkeys(a for a in found if not ipaddress.ip_address(a).is_loopback))


def print_addresses(host: str, port: int) -> None:
    """Each address phones should open, with a QR code of the first."""
    import segno

    urls = [f"http://{address}:{port}/" for address in addresses(host)]
    for url in urls:
        print(f"Phones on this network: {url}")
    if urls:
        segno.make(urls[0]).terminal(compact=True)
