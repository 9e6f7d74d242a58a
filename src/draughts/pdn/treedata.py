"""Game trees as plain data (lists and dicts of JSON types), for a client that shows and edits a tree.

:func:`tree_data` lists a tree's nodes in the order PDN writes them (each node before its
children, the main continuation first), each with its ``id`` (its index in the list), its
``parent``'s id, its ``children`` ids (main line first), ``ply``, ``move`` (as PDN writes it),
``fen`` (the position after it), ``comment``, ``starting_comment`` and ``nags``.
:func:`tree_from_data` builds the tree back from the start position and that list, replaying each
move, so a client can send back a tree it has edited (a side line added by playing a different move
at any node: a new node whose parent is that node). Both work without recursion.

>>> from draughts import pdn
>>> game = pdn.parse_game('[GameType "20"] 1. 32-28 (1. 33-29 {also}) 19-23 *')
>>> nodes = tree_data(game)
>>> [(node["id"], node["parent"], node["move"], node["children"]) for node in nodes]
[(0, None, None, [1, 3]), (1, 0, '32-28', [2]), (2, 1, '19-23', []), (3, 0, '33-29', [])]
>>> tree_from_data(game.position, nodes).same_tree(game)
True
"""

from __future__ import annotations

from typing import Any

from draughts._text import excerpt
from draughts.errors import DraughtsError, PDNError
from draughts.notation import parse_move
from draughts.pdn.commands import command_text, split_commands
from draughts.pdn.game import Game, GameNode
from draughts.pdn.words import check_nag
from draughts.position import Position

__all__ = ["tree_data", "tree_from_data"]


def tree_data(root: GameNode) -> list[dict[str, Any]]:
    """The nodes of the tree under ``root`` as dicts (see the module notes); ``root`` is node 0."""
    out: list[dict[str, Any]] = []
    stack: list[tuple[GameNode, int | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        index = len(out)
        commands = command_text(node.commands)
        out.append(
            {
                "id": index,
                "parent": parent,
                "children": [],
                "ply": node.ply,
                "move": None if node.parent is None else node.san(),
                "fen": node.position.fen(),
                "comment": f"{node.comment} {commands}".strip() if commands else node.comment,
                "starting_comment": node.starting_comment,
                "nags": list(node.nags),
            }
        )
        if parent is not None:
            out[parent]["children"].append(index)
        stack.extend((child, index) for child in reversed(node.variations))
    return out


def tree_from_data(start: Position, nodes: list[dict[str, Any]]) -> Game:
    """The game whose tree :func:`tree_data`'s list describes, from ``start``; node 0 is the root.

    A node's ``parent`` must come before it in the list; its ``move`` must be legal in the
    parent's position (written as PDN writes it, or any form :func:`~draughts.notation.parse_move`
    reads). Children are kept in list order, so the first listed is the main continuation.

    Raises:
        PDNError: a node names no earlier parent, its move is not legal there, or a NAG is neither
            ``$N`` nor a mark (the message quotes it).
    """
    game = Game(start=start)
    built: list[GameNode] = []
    for index, item in enumerate(nodes):
        parent = item.get("parent")
        if index == 0:
            node: GameNode = game
        else:
            if not isinstance(parent, int) or not 0 <= parent < index:
                raise PDNError(f"node {index}: parent {excerpt(str(parent))} is not an earlier node")
            base = built[parent]
            text = str(item.get("move", ""))
            try:
                move = parse_move(base.position, text)
            except DraughtsError as error:
                raise PDNError(f"node {index}: move {excerpt(text)} at ply {base.ply + 1}: {error}") from None
            node = GameNode(base.position.play(move), base, move)
            base.variations.append(node)
            node.starting_comment = str(item.get("starting_comment") or "")
            try:
                node.nags = [check_nag(str(nag)) for nag in item.get("nags") or []]
            except PDNError as error:
                raise PDNError(f"node {index}: {error}") from None
        node.comment, node.commands = split_commands(str(item.get("comment") or ""))
        built.append(node)
    return game
