"""Tools around the build: the server (Caddy, configured from the site's headers, for
``make serve``, the tests and the PDF step; where a venue's phones find it), the link
checker and how every script launches Chromium."""
