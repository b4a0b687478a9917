"""The browser engine's files: the lvl_rules wheel (one per build), the pinned Pyodide
runtime, the engine's standard library and the manifest, written into ``<site>/engine/``."""
