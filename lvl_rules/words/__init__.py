"""Every sentence a person reads: ranks, divisions, reasons, log lines, results, error
messages and the rendering of rule text.

The engines return structured results (kinds, numbers, IDs, clauses); the modules here
turn them into words. One place to fix a phrase, and one place to translate. This
package's ``__init__`` imports nothing, so that :mod:`lvl_rules.errors` can use
:mod:`.errors` without importing the rest.
"""
