"""Game trees: a game's moves and its variations as nodes, as python-chess's ``chess.pgn`` has them.

:meth:`Game.tree() <draughts.pdn.Game.tree>` replays the main line and every variation of a game
read from PDN into a tree of :class:`GameNode`. Variations are parsed and replayed without
recursion (a variation 100,000 moves deep, or nested 100,000 levels, reads), and an illegal move
in a variation drops that variation only, with a warning that names it.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

from draughts._text import excerpt
from draughts.board import Board
from draughts.errors import DraughtsError, PDNError
from draughts.move import Move
from draughts.notation import matching_moves, move_text
from draughts.pdn.commands import Commands, split_commands
from draughts.pdn.errors import PDNWarning
from draughts.pdn.words import MARKS, MOVE_NUMBER, NAG, TRAILING_MARKS, first_player_frame, rotated
from draughts.position import Position


class GameNode:
    """One node of a game tree: the position after ``move`` (the root has no move).

    Attributes:
        parent: The node this move was played from (None at the root).
        move: The move that led here (None at the root).
        variations: The moves played from here, the main line first.
        comment: The comment after the move (at the root: before the first move), commands taken out.
        starting_comment: A comment before the move; written only for the first move of a variation.
        nags: NAGs (``$1``) and marks (``!?``) of the move, in order.
        commands: ``%eval``, ``%clk``, ``%cal`` and ``%csl`` of the comment, as typed values.
        position: The position after the move.
        ply: Moves played from the game's start to here (0 at the root).
    """

    __slots__ = ("commands", "comment", "move", "nags", "parent", "ply", "position", "starting_comment", "variations")

    def __init__(self, position: Position, parent: GameNode | None = None, move: Move | None = None) -> None:
        self.parent = parent
        self.move = move
        self.position = position
        self.ply: int = 0 if parent is None else parent.ply + 1
        self.variations: list[GameNode] = []
        self.comment = ""
        self.starting_comment = ""
        self.nags: list[str] = []
        self.commands = Commands()

    def __repr__(self) -> str:
        return f"<GameNode ply {self.ply} {self.san() if self.move is not None else 'root'}>"

    def san(self) -> str:
        """The move as PDN writes it from the parent's position (``32-28``)."""
        if self.parent is None or self.move is None:
            raise PDNError("the root of a game tree has no move")
        return move_text(self.parent.position, self.move)

    def board(self) -> Board:
        """A board at this node, with the moves from the root on its stack (so it can be undone)."""
        moves = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        board = Board.from_position(node.position)
        for move in reversed(moves):
            board.push(move)
        return board

    def root(self) -> GameNode:
        """The root of the tree (the game's start)."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def is_mainline(self) -> bool:
        """Whether every node from the root to here is its parent's first variation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def next(self) -> GameNode | None:
        """The main continuation (the first variation), or None at the end of a line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of this node's main continuation."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main continuation after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of the main continuation after this one."""
        return [node.move for node in self.mainline() if node.move is not None]

    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "") -> GameNode:
        """A new last variation: ``move`` played here.

        Raises:
            PDNError: ``move`` is not legal here (the tree is left unchanged).
        """
        if move not in self.position.legal_moves():
            raise PDNError(f"move {move} is not legal in {self.position.fen()}")
        node = GameNode(self.position.play(move), self, move)
        node.comment, node.starting_comment = comment, starting_comment
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """``move`` played here as the new main continuation (the old one becomes the second line)."""
        node = self.add_variation(move, comment=comment)
        self.variations.insert(0, self.variations.pop())
        return node

    def variation(self, move: Move | GameNode) -> GameNode:
        """The variation that starts with ``move`` (a move or one of the child nodes).

        Raises:
            PDNError: no variation here starts so.
        """
        for node in self.variations:
            if node is move or node.move == move:
                return node
        raise PDNError(f"no variation starts with {excerpt(str(move))} at ply {self.ply}")

    def has_variation(self, move: Move | GameNode) -> bool:
        """Whether a variation here starts with ``move``."""
        return any(node is move or node.move == move for node in self.variations)

    def _index(self, move: Move | GameNode) -> int:
        node = self.variation(move)
        return next(index for index, child in enumerate(self.variations) if child is node)

    def promote_to_main(self, move: Move | GameNode) -> None:
        """Make the variation ``move`` starts the main continuation."""
        self.variations.insert(0, self.variations.pop(self._index(move)))

    def promote(self, move: Move | GameNode) -> None:
        """Move the variation ``move`` starts one place up."""
        index = self._index(move)
        if index > 0:
            self.variations[index - 1], self.variations[index] = self.variations[index], self.variations[index - 1]

    def demote(self, move: Move | GameNode) -> None:
        """Move the variation ``move`` starts one place down."""
        index = self._index(move)
        if index < len(self.variations) - 1:
            self.variations[index + 1], self.variations[index] = self.variations[index], self.variations[index + 1]

    def remove_variation(self, move: Move | GameNode) -> None:
        """Remove the variation ``move`` starts, with everything after it."""
        del self.variations[self._index(move)]

    def same_tree(self, other: GameNode) -> bool:
        """Whether the trees under this node and ``other`` have the same moves, comments, NAGs and commands.

        Compared without recursion, so any depth is fine.
        """
        pairs = [(self, other)]
        while pairs:
            mine, theirs = pairs.pop()
            if (
                mine.move != theirs.move
                or mine.comment != theirs.comment
                or mine.nags != theirs.nags
                or mine.commands != theirs.commands
                or len(mine.variations) != len(theirs.variations)
            ):
                return False
            side = mine.parent is not None and mine.parent.variations[0] is not mine
            if side and mine.starting_comment != theirs.starting_comment:
                return False
            pairs.extend(zip(mine.variations, theirs.variations, strict=True))
        return True

    def set_comment(self, text: str) -> None:
        """Set the comment, taking its ``%`` commands out into :attr:`commands`."""
        self.comment, self.commands = split_commands(text)


_WORD = re.compile(r"\{([^}]*)\}|\(|\)|[^\s(){}]+")


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    """``(kind, text)`` of a variation's text: ``"comment"``, ``"open"``, ``"close"`` or ``"word"``."""
    for match in _WORD.finditer(text):
        word = match.group()
        if match.group(1) is not None:
            yield "comment", " ".join(match.group(1).split())
        elif word == "(":
            yield "open", word
        elif word == ")":
            yield "close", word
        else:
            yield "word", word


class _Frame:
    """A variation being replayed: where it branches from and its last node so far."""

    __slots__ = ("base", "current", "first", "pending", "spoiled")

    def __init__(self, base: GameNode) -> None:
        self.base = base  # the node the variation's first move is played from
        self.current = base
        self.first: GameNode | None = None
        self.pending = ""  # a comment before the variation's first move
        self.spoiled = False


class VariationReader:
    """Replays variation text onto a tree, without recursion; illegal variations are dropped with a warning."""

    def __init__(self, label: str = "the game") -> None:
        self.label = label
        self.warnings: list[str] = []

    def read(self, base: GameNode, text: str) -> None:
        """Replay the variation ``text`` (without its outer parentheses) from ``base``."""
        frames = [_Frame(base)]
        for kind, word in _tokens(text):
            frame = frames[-1]
            if kind == "open":
                current = frame.current
                start = current.parent if current is not frame.base and current.parent is not None else current
                nested = _Frame(start)
                nested.spoiled = frame.spoiled
                frames.append(nested)
            elif kind == "close":
                if len(frames) > 1:
                    frames.pop()
            elif frame.spoiled:
                continue
            elif kind == "comment":
                self._comment(frame, word)
            else:
                self._word(frame, word)

    def _comment(self, frame: _Frame, text: str) -> None:
        if frame.first is None:
            frame.pending = f"{frame.pending} {text}".strip()
        else:
            node = frame.current
            comment = f"{node.comment} {text}".strip() if node.comment or node.commands else text
            merged, commands = split_commands(comment)
            node.comment = merged
            node.commands = _merge(node.commands, commands)

    def _word(self, frame: _Frame, word: str) -> None:
        number = MOVE_NUMBER.match(word)
        if number is not None:
            word = word[number.end() :]
        if not word or re.fullmatch(r"\.+|…", word):
            return
        if NAG.fullmatch(word) or MARKS.fullmatch(word):
            if frame.first is not None:
                frame.current.nags.append(word)
            return
        mark = TRAILING_MARKS.search(word)
        core = word[: mark.start()] if mark else word
        position = frame.current.position
        text = rotated(position.ruleset, core) if first_player_frame(position.ruleset) else core
        try:
            found = matching_moves(position, text)
        except DraughtsError:
            found = []
        if not found:
            self._spoil(frame, core)
            return
        node = GameNode(position.play(found[0]), frame.current, found[0])
        frame.current.variations.append(node)
        if frame.first is None:
            frame.first, node.starting_comment = node, frame.pending
        frame.current = node
        if mark:
            node.nags.append(mark.group())

    def _spoil(self, frame: _Frame, word: str) -> None:
        frame.spoiled = True
        start = frame.first
        if start is not None:
            assert start.parent is not None
            start.parent.variations = [node for node in start.parent.variations if node is not start]
        where = frame.base.ply
        message = (
            f"{self.label}: the variation from ply {where + 1} "
            f"({excerpt(start.san() if start else word, 40)} ...) is dropped: move {excerpt(word, 40)} at ply "
            f"{frame.current.ply + 1} is not legal in {frame.current.position.fen()}"
        )
        self.warnings.append(message)
        warnings.warn(message, PDNWarning, stacklevel=4)


def _merge(old: Commands, new: Commands) -> Commands:
    return Commands(
        new.eval if new.eval is not None else old.eval,
        new.clock if new.clock is not None else old.clock,
        old.arrows + new.arrows,
        old.squares + new.squares,
    )


def build_tree(
    start: Position,
    moves: list[Move],
    comments: dict[int, list[str]],
    annotations: dict[int, list[str]],
    variations: dict[int, list[str]],
    label: str = "the game",
) -> tuple[GameNode, list[str]]:
    """The tree of a main line and its notes keyed by plies played (as :class:`~draughts.pdn.Game` keeps them).

    A variation written after move *k* is an alternative to move *k*: it is replayed from the
    position before it. Returns the root and the warnings about dropped variations.
    """
    root = GameNode(start)
    line = [root]
    for move in moves:
        node = GameNode(line[-1].position.play(move), line[-1], move)
        line[-1].variations.append(node)
        line.append(node)
    for ply, node in enumerate(line):
        if ply in comments:
            node.set_comment(" ".join(comments[ply]))
        node.nags = list(annotations.get(ply, [])) if ply else []
    reader = VariationReader(label)
    for ply in sorted(variations):
        base = line[max(min(ply, len(line) - 1) - 1, 0)]
        for text in variations[ply]:
            reader.read(base, text)
    return root, reader.warnings
