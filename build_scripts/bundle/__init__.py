"""The browser engine's files: the lvl_rules wheel as the browser gets it (one per build,
without what only the build reads), the pinned Pyodide runtime, the memory snapshot and
the manifest, written into ``<site>/engine/``."""
