// The engine's memory snapshot: Pyodide's memory with lvl_rules imported and both
// editions loaded, made at build time (build_scripts/bundle/make_snapshot.mjs) and
// restored instead of starting Python and importing the package. The one place that
// names Pyodide's private snapshot options (_makeSnapshot, _loadSnapshot), for the build
// and the worker alike: an upgrade of Pyodide that changes them breaks here, and the
// tests that restore it fail.
//
// Worth it only to a visitor who asked to keep the calculators offline: the worker
// restores it only from the offline cache, where "keep offline" puts it, and never
// downloads it (3.6 MB as brotli, for a second saved). Measured with benchmarks/network.py
// (a returning official: the calculator again after "keep offline", against the same
// build without the snapshot, benchmarks/site_variants.py no-snapshot): see SAVES below.
// SAVES: filled in from the measurement.

/** The option that makes a Pyodide whose memory can be snapshotted (build time). */
export const MAKING = { _makeSnapshot: true };

/** loadPyodide's options to restore the snapshot from `kept`, its response in the
 * offline cache (the worker imports this module only then). */
export function restoring(kept) {
  return { _loadSnapshot: kept.arrayBuffer() };
}

/** Python to run on an interpreter restored from the snapshot: its random state is every
 * visitor's, so it is seeded afresh. */
export const RESTORED = "import random; random.seed()";
