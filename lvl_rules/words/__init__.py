"""Every sentence a person reads: ranks, divisions, reasons, log lines, results, error
messages and the rendering of rule text.

The engines return structured results (kinds, numbers, IDs, clauses); the modules here
turn them into words. One place to fix a phrase, and one place to translate. The rooms
below (the model, loading, the engines, :mod:`lvl_rules.errors`) never import this one:
an error is raised as a code with details, and :mod:`lvl_rules.faces` gives
:class:`~lvl_rules.errors.RulesError` the sentences of :mod:`.errors`.

Some words are the site's only (:mod:`.site`, :mod:`.match`, :mod:`.engine`,
:mod:`.offline`): the build writes them into the pages, whose scripts read them there,
and reaches them through :mod:`lvl_rules.faces.site`. The wheel the browser gets leaves
them out (``build_scripts/bundle/wheel.py``).
"""
