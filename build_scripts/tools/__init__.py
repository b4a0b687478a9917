"""Tools around the build: the static server (``make serve``, the tests, the PDF step),
the link checker and how every script launches Chromium."""
