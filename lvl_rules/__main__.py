"""``python -m lvl_rules``: the same as the ``lvl-rules`` command."""

import sys

from .faces.cli import main

sys.exit(main())
