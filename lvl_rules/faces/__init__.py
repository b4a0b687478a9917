"""The faces of the rules: the Python library, the JSON API, the command line, the export,
and the site build's face (:mod:`.site`).

Edition IDs ("latest", 2, "2") are resolved here, once; the engines take an Edition.

The faces join the rooms: every error raised below (model, loading, engines) is a problem
code with details, and here it gets its words, once, as the package is imported
(``lvl_rules/__init__`` imports the faces), so that ``str(error)`` is the sentence for
everyone, the Python API's users included.
"""

from ..errors import phrase_with
from ..words.errors import message

phrase_with(message)
