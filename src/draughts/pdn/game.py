"""The game model, as python-chess's ``chess.pgn`` has it: a :class:`Game` is the root of a tree of :class:`GameNode`.

A :class:`GameNode` is a position with the move that led to it, its comments, NAGs and ``%``
commands, and the moves played from it (:attr:`GameNode.variations`, the main line first). The root
of every tree read or written is a :class:`Game`, which adds the tags and the result. Every walk
here is a loop, not a recursion, so a line 100,000 moves deep, or side lines nested 100,000 levels,
is fine. :func:`walk` gives a tree's events to a visitor (:mod:`draughts.pdn.events`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from draughts._text import excerpt
from draughts.board import Board
from draughts.color import Color
from draughts.errors import DraughtsError, IllegalMoveError, PDNError
from draughts.move import Move
from draughts.notation import move_text
from draughts.pdn.commands import Commands, command_text, split_commands
from draughts.pdn.events import SKIP, BaseVisitor, ResultT, begin_headers
from draughts.pdn.tags import ITALIAN_TAGS, ROSTER, kept_rules_tags, tag_name, variant_tags
from draughts.position import Position
from draughts.results import STANDARD_RESULTS, normalise_result, result_for, winner_of
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset
from draughts.rules.names import get_variant

__all__ = ["Game", "GameNode", "comment_of", "descendants", "visit_movetext", "walk", "walk_line"]

_Flat = tuple[int, Move, str, Commands | None, str, list[str]]
_NO_COMMANDS = Commands()
"""What a node without commands compares as (never handed out: :attr:`GameNode.commands` makes its own)."""
"""One node of a tree that is not the root, as copies and pickles hold it: its parent's index (each
node comes after its parent), its move, comment, commands, starting comment and NAGs."""


class GameNode:
    """One node of a game tree: the position after ``move`` (the root, a :class:`~draughts.pdn.Game`,
    has no move).

    Attributes:
        parent: The node this move was played from (None at the root).
        move: The move that led here (None at the root).
        variations: The moves played from here, the main line first.
        comment: The comment after the move (at the root: before the first move), commands taken out.
        starting_comment: A comment before the move; written only for the first move of a variation.
        nags: NAGs (``$1``) and marks (``!?``) of the move, in order.
        position: The position after the move (at the root: the start position).
        ply: Moves played from the game's start to here (0 at the root).
    """

    __slots__ = ("_commands", "comment", "move", "nags", "parent", "ply", "position", "starting_comment", "variations")

    def __init__(self, position: Position, parent: GameNode | None = None, move: Move | None = None) -> None:
        self.parent = parent
        self.move = move
        self.position = position
        self.ply: int = 0 if parent is None else parent.ply + 1
        self.variations: list[GameNode] = []
        self.comment = ""
        self.starting_comment = ""
        self.nags: list[str] = []
        self._commands: Commands | None = None  # made when first asked for: most nodes have none

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

    def game(self) -> Game:
        """The :class:`~draughts.pdn.Game` at the root of the tree.

        Raises:
            PDNError: the tree's root is a bare node, not a game.
        """
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise PDNError("this node's tree has no Game at its root")
        return node

    def is_end(self) -> bool:
        """Whether no move is played from here (the end of a line)."""
        return not self.variations

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

    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: list[str] | None = None
    ) -> GameNode:
        """A new last variation: ``move`` played here.

        Raises:
            PDNError: ``move`` is not legal here (the tree is left unchanged).
        """
        if move not in self.position.legal_moves():
            raise PDNError(f"move {excerpt(str(move))} is not legal in {self.position.fen()}")
        node = GameNode(self.position.play(move), self, move)
        node.set_comment(comment)
        node.starting_comment = starting_comment
        node.nags = list(nags or [])
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """``move`` played here as the new main continuation (the old one becomes the second line)."""
        node = self.add_variation(move, comment=comment)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_line(self, moves: list[Move] | tuple[Move, ...]) -> GameNode:
        """``moves`` played in turn from here, each as a new last variation; the last node.

        Raises:
            PDNError: a move is not legal in turn (the moves before it stay added).
        """
        node = self
        for move in moves:
            node = node.add_variation(move)
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
                or (mine._commands or _NO_COMMANDS) != (theirs._commands or _NO_COMMANDS)
                or len(mine.variations) != len(theirs.variations)
            ):
                return False
            side = mine.parent is not None and mine.parent.variations[0] is not mine
            if side and mine.starting_comment != theirs.starting_comment:
                return False
            pairs.extend(zip(mine.variations, theirs.variations, strict=True))
        return True

    @property
    def commands(self) -> Commands:
        """``%eval``, ``%clk``, ``%cal`` and ``%csl`` of the comment, as typed values (to read or to set)."""
        if self._commands is None:
            self._commands = Commands()
        return self._commands

    @commands.setter
    def commands(self, commands: Commands) -> None:
        self._commands = commands

    def set_comment(self, text: str) -> None:
        """Set the comment, taking its ``%`` commands out into :attr:`commands`."""
        self.comment, commands = split_commands(text)
        self._commands = commands or None


def descendants(node: GameNode) -> Iterator[GameNode]:
    """``node`` and every node under it, each before its children, the main continuation first
    (the order PDN writes them); a loop, not a recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.variations))


class Game(GameNode):
    """One game of a PDN file: the root of its tree (python-chess's ``chess.pgn.Game``), with its tags and result.

    The root's :attr:`~GameNode.position` is the start position, its :attr:`~GameNode.comment` the
    comment before the first move, and :meth:`~GameNode.mainline_moves` the main line; every node
    below holds its move, comments, NAGs, ``%`` commands and side lines (see :class:`GameNode`).
    Two games are equal when their tags, result, preamble, start and trees are.

    Args:
        ruleset: The rules (a ruleset, a name or a rule file); default: ``start``'s, else International draughts.
        headers: The tags, in order.
        start: The start position (default: the ruleset's initial position).
        moves: A main line to play from ``start``.
        result: The result (``"1-0"``, ``"2-0"``, ``"*"`` ...).

    Attributes:
        headers: The tags, in file order. Italian tag names (``Bianco``, ``Nero``, ``Risultato`` ...)
            are renamed to the standard ones; values are as written.
        result: The result, normalised (see the package notes): ``"1-0"``, ``"2-0"``, ``"*"`` ...
        preamble: Comments before the game's first tag.
        index: The game's number in the file it was read from (not part of equality).
        line: The first line of the game in that file (not part of equality).
        warnings: What the reader noticed and worked around, side lines it dropped among them (not
            part of equality).
        guessed: True when no tag named the rules and the reader chose them from the moves
            (see ``draughts.pdn.guess``; not part of equality).

    Raises:
        IllegalMoveError: a move of ``moves`` is not legal in turn.
        DraughtsError: ``start`` is not a position of ``ruleset``.
    """

    __slots__ = ("guessed", "headers", "index", "line", "preamble", "result", "warnings")
    __hash__ = None  # type: ignore[assignment]  # equal by value, and mutable

    def __init__(
        self,
        ruleset: Ruleset | str | os.PathLike[str] | None = None,
        headers: Mapping[str, str] | None = None,
        start: Position | None = None,
        moves: Iterable[Move] = (),
        result: str = "*",
        *,
        preamble: Iterable[str] = (),
    ) -> None:
        rules = None if ruleset is None else resolve_ruleset(ruleset)
        if start is None:
            start = Position.initial(rules or get_variant("international"))
        elif rules is not None and start.ruleset != rules:
            raise DraughtsError(f"the start position is one of {start.ruleset.name}, not of {rules.name}")
        super().__init__(start)
        self.headers: dict[str, str] = dict(headers or {})
        self.result = result
        self.preamble: list[str] = list(preamble)
        self.index: int | None = None
        self.line: int | None = None
        self.warnings: list[str] = []
        self.guessed = False
        node: GameNode = self
        for ply, move in enumerate(moves, 1):
            try:
                position = node.position.play(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"ply {ply} of the game: {error}") from None
            child = GameNode(position, node, move)
            node.variations.append(child)
            node = child

    def __repr__(self) -> str:
        named = " ".join(f"{tag}={self.headers[tag]!r}" for tag in ("White", "Black") if tag in self.headers)
        plies = len(self.mainline_moves())
        return f"<Game {self.ruleset.name} {named + ' ' if named else ''}{plies} plies {self.result}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.headers == other.headers
            and self.result == other.result
            and self.preamble == other.preamble
            and self.position == other.position
            and self.same_tree(other)
        )

    @property
    def ruleset(self) -> Ruleset:
        """The rules the game is played under (the start position's)."""
        return self.position.ruleset

    @property
    def winner(self) -> Color | None:
        """The winner :attr:`result` names (see :func:`~draughts.pdn.winner_of`); None for a draw or no result."""
        return winner_of(self.ruleset, self.result)

    @classmethod
    def from_board(cls, board: Board, headers: Mapping[str, str] | None = None, result: str | None = None) -> Game:
        """A game of ``board``'s moves from its root position.

        Without ``result`` the result is the board's outcome in PDN terms (see
        :func:`~draughts.pdn.result_for`), or ``*`` while the game goes on. The Result tag, when
        ``headers`` has one, is set to match.
        """
        if result is None:
            outcome = board.outcome()
            result = "*" if outcome is None else result_for(board.ruleset, outcome.winner)
        tags = dict(headers or {})
        if "Result" in tags:
            tags["Result"] = result
        return cls(board.ruleset, tags, board.root(), board.move_stack, result)

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Drive ``visitor`` (:mod:`draughts.pdn.visitor`) over the game: its tags as
        :meth:`export_headers` gives them, its tree and its result; return ``visitor.result()``."""
        if begin_headers(visitor, self.export_headers().items()):
            visit_movetext(self, self.result, visitor)
        visitor.end_game()
        return visitor.result()

    def copy(self) -> Game:
        """A copy of the game and its whole tree (positions and moves are shared: they do not change)."""
        return _rebuilt(self._state(), list(_flat(self)), replay=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat, so that pickling a game 100,000 plies long needs no deep recursion (multiprocessing, Dask).
        return _unpickled, (self._state(), [(p, m, c, k, s, n) for p, m, c, k, s, n, _ in _flat(self)])

    def _state(self) -> dict[str, Any]:
        return {
            "start": self.position,
            "comment": self.comment,
            "commands": self._commands,
            "headers": self.headers,
            "result": self.result,
            "preamble": self.preamble,
            "index": self.index,
            "line": self.line,
            "warnings": self.warnings,
            "guessed": self.guessed,
        }

    def export_headers(self) -> dict[str, str]:
        """The tags :func:`~draughts.pdn.write_game` writes, in its order (see the package notes)."""
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
        out.update(kept_rules_tags(tags, self.ruleset) or variant_tags(self.ruleset))
        if self.position != Position.initial(self.ruleset):
            out["SetUp"] = "1"
            # Numbers on boards with a k-file: Position.from_fen reads "k11" as a king on 11.
            out["FEN"] = self.position.fen(numeric=self.ruleset.width > 10)
        for name, value in tags.items():
            if name not in ROSTER and name not in ("GameType", "SetUp", "FEN") and name not in out:
                out[name] = value
        return out


def _flat(game: Game) -> Iterable[tuple[int, Move, str, Commands | None, str, list[str], Position]]:
    """The nodes under ``game`` (not the root) in the order of :func:`descendants`."""
    index: dict[int, int] = {id(game): 0}
    for count, node in enumerate(descendants(game)):
        index[id(node)] = count
        if node.parent is None:
            continue
        assert node.move is not None
        nags = list(node.nags)
        commands, position = node._commands, node.position
        yield index[id(node.parent)], node.move, node.comment, commands, node.starting_comment, nags, position


def _rebuilt(state: dict[str, Any], nodes: list[Any], *, replay: bool) -> Game:
    """The game of ``state`` (:meth:`Game._state`) with the tree of ``nodes`` (:func:`_flat`'s items)."""
    game = Game(start=state["start"], headers=state["headers"], result=state["result"], preamble=state["preamble"])
    game.comment, game._commands = state["comment"], _copied(state["commands"])
    game.index, game.line, game.guessed = state["index"], state["line"], state["guessed"]
    game.warnings = list(state["warnings"])
    built: list[GameNode] = [game]
    for parent_index, move, comment, commands, starting, nags, *position in nodes:
        parent = built[parent_index]
        node = GameNode(parent.position.play(move) if replay else position[0], parent, move)
        node.comment, node._commands, node.starting_comment, node.nags = comment, _copied(commands), starting, nags
        parent.variations.append(node)
        built.append(node)
    return game


def _unpickled(state: dict[str, Any], nodes: list[_Flat]) -> Game:
    return _rebuilt(state, list(nodes), replay=True)


def _copied(commands: Commands | None) -> Commands | None:
    if commands is None:
        return None
    return Commands(commands.eval, commands.clock, list(commands.arrows), list(commands.squares))


def comment_of(node: GameNode) -> str:
    """A node's comment with its commands written back."""
    commands = command_text(node._commands) if node._commands else ""
    return f"{node.comment} {commands}" if node.comment and commands else node.comment or commands


def walk(root: GameNode, visitor: BaseVisitor[ResultT]) -> None:
    """The movetext events of the tree under ``root``: the root's comment, then each node's main move,
    its side lines as variations, then the main line goes on (as PDN writes it). Without recursion,
    so any depth is fine."""
    comment = comment_of(root)
    if comment:
        visitor.visit_comment(comment)
    _walk_under(root, visitor)


def _walk_under(top: GameNode, visitor: BaseVisitor[ResultT]) -> None:
    """The events of everything after ``top``: its main move, its side lines, then on down the main line."""
    stack: list[tuple[str, GameNode]] = [("after", top)]
    while stack:
        kind, node = stack.pop()
        if kind == "close":
            visitor.end_variation()
            continue
        if kind == "open":
            if visitor.begin_variation() is SKIP:
                del stack[-2:]  # its ("after", node) and ("close", node)
                continue
            _visit(node, visitor, starting=True)
            continue
        if not node.variations:
            continue
        main = node.variations[0]
        _visit(main, visitor, starting=False)
        todo: list[tuple[str, GameNode]] = []
        for side in node.variations[1:]:
            todo += [("open", side), ("after", side), ("close", side)]
        todo.append(("after", main))
        stack.extend(reversed(todo))


def _visit(node: GameNode, visitor: BaseVisitor[ResultT], *, starting: bool) -> None:
    assert node.parent is not None
    assert node.move is not None
    if starting and node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(node.parent.position, node.move)
    for nag in node.nags:
        visitor.visit_nag(nag)
    comment = comment_of(node)
    if comment:
        visitor.visit_comment(comment)


def walk_line(node: GameNode, visitor: BaseVisitor[ResultT]) -> None:
    """The events of the line that starts with ``node`` (its starting comment, its move, what follows
    it and the side lines within), without the begin/end of the variation around it."""
    _visit(node, visitor, starting=True)
    _walk_under(node, visitor)


def visit_movetext(root: GameNode, result: str, visitor: BaseVisitor[ResultT]) -> None:
    """The movetext events of the tree under ``root`` for ``visitor``: its start position, the tree and ``result``."""
    visitor.visit_start(root.position)
    walk(root, visitor)
    visitor.visit_result(result)
