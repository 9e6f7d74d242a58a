"""``python -m draughts``: the same command line as the ``draughts`` console script."""

from __future__ import annotations

import sys

from draughts.cli import main

if __name__ == "__main__":
    sys.exit(main())
