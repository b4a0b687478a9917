"""A ``_headers`` file read as the static hosts read it: its rules, and the headers
Cloudflare Pages and Netlify send for a URL by them."""

from __future__ import annotations

import re

Rules = list[tuple[str, list[tuple[str, str | None]]]]


def parse_host_headers(text: str) -> Rules:
    """The rules of a _headers file, in order: (path pattern, [(name, value)]), the value
    None for a header the rule detaches (``! Name``)."""
    rules: Rules = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif line.strip().startswith("! "):
            rules[-1][1].append((line.strip().removeprefix("! ").strip(), None))
        else:
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def matching(rules: Rules, url: str) -> Rules:
    """The rules whose pattern matches ``url``, in order: ``*`` matches any characters."""
    return [
        (pattern, lines)
        for pattern, lines in rules
        if re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), url)
    ]


def on_cloudflare(rules: Rules, url: str) -> dict[str, str]:
    """Headers Cloudflare Pages sends for ``url`` (workers-sdk, pages-shared/asset-server/
    handler.ts): each matching rule in order detaches its ``! Name`` headers, then sets
    the others, joining with ", " a value to one an earlier rule set."""
    headers: dict[str, str] = {}
    set_before: set[str] = set()
    for _, lines in matching(rules, url):
        for name, value in lines:
            if value is None:
                headers.pop(name.lower(), None)
        for name, value in lines:
            key = name.lower()
            if value is None:
                continue
            if key in set_before and key in headers:
                headers[key] = f"{headers[key]}, {value}"
            else:
                headers[key] = value
                set_before.add(key)
    return headers


def on_netlify(rules: Rules, url: str) -> dict[str, str]:
    """Headers Netlify sends for ``url`` (netlify-cli's headersForPath; its parser skips a
    line without a colon): a later matching rule's value replaces an earlier one."""
    headers: dict[str, str] = {}
    for _, lines in matching(rules, url):
        headers.update((name.lower(), value) for name, value in lines if value is not None)
    return headers
