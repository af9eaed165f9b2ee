"""``python -m tavola`` is the ``tavola`` command."""

import sys

from tavola.cli import main

sys.exit(main())
