"""``python -m draughts.hub [--variant NAME]``: another spelling of ``draughts hub``, the one command line."""

from __future__ import annotations

import sys

from draughts.cli import main

if __name__ == "__main__":
    sys.exit(main(["hub", *sys.argv[1:]]))
