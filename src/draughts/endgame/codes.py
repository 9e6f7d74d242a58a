"""The value codes of a table entry, for the side to move."""

__all__ = ["DRAW", "HOLE", "LOSS", "WIN"]

DRAW, WIN, LOSS, HOLE = 0, 1, 2, 3
"""Drawn (or not decided yet), won, lost; HOLE marks an index that is no position."""
