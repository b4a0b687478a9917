"""Tools around the build: the static server (``make serve``, the tests, the PDF step),
the link checker, the JSON Schema writer and how every script launches Chromium."""
