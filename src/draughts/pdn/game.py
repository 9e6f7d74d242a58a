"""The :class:`Game` model: one game of a PDN file, as read or as to be written."""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.move import Move
from draughts.pdn.events import BaseVisitor, ResultT, accept
from draughts.pdn.tags import ITALIAN_TAGS, ROSTER, tag_name, variant_tags
from draughts.pdn.tree import GameNode, build_tree
from draughts.position import Position
from draughts.results import STANDARD_RESULTS, normalise_result, result_for, winner_of
from draughts.rules import Ruleset
from draughts.rules.names import get_variant


def _initial_of(game: Game) -> Position:
    return Position.initial(game.ruleset)


@attrs.define
class Game:
    """One game of a PDN file: tags, start position, main line, result and annotations.

    Attributes:
        ruleset: The rules the game is played under (a variant name is converted).
        headers: The tags, in file order. Italian tag names (``Bianco``, ``Nero``, ``Risultato`` ...)
            are renamed to the standard ones; values are as written.
        start: The start position (from the FEN tag, else the variant's initial position).
        moves: The main line, each move legal in turn from ``start``.
        result: The result, normalised (see the module notes): ``"1-0"``, ``"2-0"``, ``"*"`` ...
        comments: Comments by the number of plies played when they appear.
        annotations: NAGs (``$1``) and marks (``!?``) by the number of plies played, so a move's own
            annotations are under its ply number (1 = first move).
        variations: Variation text (without the outer parentheses) by the number of plies played.
        preamble: Comments before the game's first tag.
        index: The game's number in the file it was read from (not part of equality).
        line: The first line of the game in that file (not part of equality).
        warnings: What the reader noticed and worked around (not part of equality).
        guessed: True when no tag named the rules and the reader chose them from the moves
            (see ``draughts.pdn.guess``; not part of equality).
    """

    ruleset: Ruleset = attrs.field(converter=get_variant)
    headers: dict[str, str] = attrs.field(factory=dict)
    start: Position = attrs.field(default=attrs.Factory(_initial_of, takes_self=True))
    moves: list[Move] = attrs.field(factory=list)
    result: str = "*"
    comments: dict[int, list[str]] = attrs.field(factory=dict)
    annotations: dict[int, list[str]] = attrs.field(factory=dict)
    variations: dict[int, list[str]] = attrs.field(factory=dict)
    preamble: list[str] = attrs.field(factory=list)
    index: int | None = attrs.field(default=None, eq=False)
    line: int | None = attrs.field(default=None, eq=False)
    warnings: list[str] = attrs.field(factory=list, eq=False)
    guessed: bool = attrs.field(default=False, eq=False)
    _tree: GameNode | None = attrs.field(default=None, eq=False, repr=False, init=False)

    def tree(self) -> GameNode:
        """The game as a tree of nodes: the main line and every variation, replayed (see :mod:`draughts.pdn.tree`).

        Built on the first call from :attr:`moves`, :attr:`comments`, :attr:`annotations` and
        :attr:`variations`, then kept, so edits to the tree stay; :func:`~draughts.pdn.visitor.export`
        writes it. A variation with an illegal move is dropped with a :class:`PDNWarning` that
        names it (also in :attr:`warnings`); the main line is not affected.
        """
        if self._tree is None:
            label = f"game {self.index}" if self.index is not None else "the game"
            self._tree, dropped = build_tree(
                self.start, self.moves, self.comments, self.annotations, self.variations, label
            )
            self.warnings.extend(dropped)
        return self._tree

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Drive ``visitor`` (:mod:`draughts.pdn.visitor`) over the game: its tags as
        :meth:`export_headers` gives them, its tree and its result; return ``visitor.result()``."""
        return accept(self, visitor)

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the tree's main line (see :meth:`tree`)."""
        return self.tree().mainline()

    def mainline_moves(self) -> list[Move]:
        """The moves of the tree's main line (the same as :attr:`moves` until the tree is edited)."""
        return self.tree().mainline_moves()

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None, result: str | None = None) -> Game:
        """A game of ``board``'s moves from its root position.

        Without ``result`` the result is the board's outcome in PDN terms (see :func:`result_for`),
        or ``*`` while the game goes on. The Result tag, when ``headers`` has one, is set to match.
        """
        if result is None:
            outcome = board.outcome()
            result = "*" if outcome is None else result_for(board.ruleset, outcome.winner)
        tags = dict(headers or {})
        if "Result" in tags:
            tags["Result"] = result
        return cls(board.ruleset, tags, board.root(), board.move_stack, result)

    def board(self) -> Board:
        """A :class:`~draughts.Board` with the main line played from ``start``.

        Raises:
            IllegalMoveError: a move of :attr:`moves` is not legal in turn.
        """
        board = Board.from_position(self.start)
        for move in self.moves:
            board.push(move)
        return board

    def positions(self) -> list[Position]:
        """The start position and the position after each move."""
        positions = [self.start]
        for move in self.moves:
            positions.append(positions[-1].play(move))
        return positions

    @property
    def end(self) -> Position:
        """The position after the last move."""
        return self.positions()[-1]

    @property
    def winner(self) -> Color | None:
        """The winner :attr:`result` names (see :func:`winner_of`); None for a draw or no result."""
        return winner_of(self.ruleset, self.result)

    def export_headers(self) -> dict[str, str]:
        """The tags :func:`write_game` writes, in its order (see the module notes)."""
        out: dict[str, str] = {}
        tags: dict[str, str] = {}
        for name, value in self.headers.items():
            name = tag_name(name)
            if name:
                tags[name] = re.sub(r"[\r\n]+", " ", value)
        for name in [name for name in tags if name in ITALIAN_TAGS and ITALIAN_TAGS[name] not in tags]:
            tags = {(ITALIAN_TAGS[name] if key == name else key): value for key, value in tags.items()}
        for name in ROSTER[:-1]:
            if name in tags:
                out[name] = tags[name]
        result = normalise_result(self.result) or re.sub(r"[\r\n]+", " ", self.result)
        if "Result" in tags or result not in STANDARD_RESULTS:
            out["Result"] = result
        out.update(variant_tags(self.ruleset))
        if self.start != Position.initial(self.ruleset):
            out["SetUp"] = "1"
            # Numbers on boards with a k-file: Position.from_fen reads "k11" as a king on 11.
            out["FEN"] = self.start.fen(numeric=self.ruleset.board_size > 10)
        for name, value in tags.items():
            if name not in ROSTER and name not in ("GameType", "SetUp", "FEN") and name not in out:
                out[name] = value
        return out
