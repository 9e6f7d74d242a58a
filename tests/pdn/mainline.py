"""Test helpers: a game tree's main line and its notes by ply (the number of moves played), to compare readings."""

from __future__ import annotations

from draughts.pdn import Game, GameNode
from draughts.pdn.game import comment_of


def nodes(game: Game) -> list[GameNode]:
    """The root and the main line's nodes: ``nodes(game)[ply]`` is the node after ``ply`` moves."""
    return [game, *game.mainline()]


def comments(game: Game) -> dict[int, str]:
    """The main line's comments (with their ``%`` commands) by ply; 0 is the comment before the first move."""
    return {node.ply: comment_of(node) for node in nodes(game) if comment_of(node)}


def nags(game: Game) -> dict[int, list[str]]:
    """The main line's NAGs and marks by ply."""
    return {node.ply: node.nags for node in game.mainline() if node.nags}


def sides(game: Game) -> dict[int, list[str]]:
    """The first moves of the side lines that are alternatives to the main line's move at each ply."""
    out: dict[int, list[str]] = {}
    for node in game.mainline():
        assert node.parent is not None
        if len(node.parent.variations) > 1:
            out[node.ply] = [side.san() for side in node.parent.variations[1:]]
    return out
