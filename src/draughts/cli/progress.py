"""A progress bar on standard error, shown only in a terminal, for the commands that run long
(``lab``, ``match``, ``annotate``): standard output stays for the results, so a pipe or a
``--format json`` reader never sees the bar."""

from __future__ import annotations

import sys
from typing import TextIO


class Bar:
    """``[#####.....] 3/10 games`` on one line of standard error, rewritten as work is done.

    Args:
        unit: What is counted (``games``, ``positions``).
        stream: Where the bar goes (default: standard error, read when the bar is made).
    """

    def __init__(self, unit: str = "games", stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.unit = unit
        self.shown = self.stream.isatty()

    def __call__(self, done: int, total: int, note: str = "") -> None:
        """Show ``done`` of ``total`` and a ``note`` after them (such as the score so far)."""
        if self.shown:
            filled = 30 * done // max(total, 1)
            tail = f"  {note}" if note else ""
            print(
                f"\r\033[K[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {self.unit}{tail}",
                end="",
                file=self.stream,
                flush=True,
            )

    def clear(self) -> None:
        """Remove the bar (before the results are printed)."""
        if self.shown:
            print("\r\033[K", end="", file=self.stream, flush=True)
