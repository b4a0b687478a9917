"""What makes a built site publishable: the security policy (one source for the pages'
``<meta>``, the server and the host), the printed PDFs, the precompressed copies, the
service worker and ``_headers``. Runs after MkDocs, on the files it wrote."""
