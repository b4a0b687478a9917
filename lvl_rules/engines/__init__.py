"""The rule logic: pure functions of an Edition and the athlete's or match's inputs.

Engines never read files and never phrase a sentence: they return structured results
(kinds, numbers, IDs, the clause) for :mod:`lvl_rules.words` to put into words.
"""
