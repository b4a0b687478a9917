"""The faces of the rules: the Python library, the JSON API, the command line, the export.

Edition IDs ("latest", 2, "2") are resolved here, once; the engines take an Edition.
"""
