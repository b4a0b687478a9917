"""Figures, never assertions: engine speed, site build time, browser start-up, Lighthouse,
a venue's load on the site server.

Run each as ``.venv/bin/python -m benchmarks.<name>`` from the repository root (``make bench``).
"""
