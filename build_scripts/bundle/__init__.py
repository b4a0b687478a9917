"""The browser engine's files: the lvl_rules wheel (one per build), the pinned Pyodide
runtime, the memory snapshot and the manifest, written into ``<site>/engine/``."""
