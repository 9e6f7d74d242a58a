"""Side lines: the variations of a movetext, replayed from the lexer's tokens onto the game tree.

The main line is replayed first (:mod:`draughts.pdn.replay`: strict, every move checked, ambiguous
captures settled by later moves); then each variation's tokens, as :mod:`draughts.pdn.lexer` gave
them in its one pass, are replayed from the node before the move they are an alternative to. A
variation with a move that is not legal (or prose in parentheses) is dropped with everything nested
in it, and :attr:`Game.warnings <draughts.pdn.Game.warnings>` says which; the main line is not
affected. No recursion: a variation 100,000 moves deep, or nested 100,000 levels, reads. A node's
comments are gathered and joined once, when the game is read, so 80,000 comments cost linear time.
"""

from __future__ import annotations

import re

from draughts._text import excerpt
from draughts.errors import DraughtsError
from draughts.notation import matching_moves
from draughts.pdn.game import GameNode
from draughts.pdn.lexer import Token
from draughts.pdn.split import is_terminator
from draughts.pdn.words import MARKS, MOVE_NUMBER, NAG, TRAILING_MARKS, first_player_frame, rotated

__all__ = ["SideLines"]

_DOTS = re.compile(r"\.+|…")


class _Frame:
    """A variation being replayed: where it branches from and its last node so far."""

    __slots__ = ("base", "current", "first", "pending", "spoiled")

    def __init__(self, base: GameNode, spoiled: bool) -> None:
        self.base = base  # the node the variation's first move is played from
        self.current = base
        self.first: GameNode | None = None
        self.pending: list[str] = []  # comments before the variation's first move
        self.spoiled = spoiled


class SideLines:
    """Replays the variations of one game onto its tree; :meth:`finish` sets the comments gathered."""

    def __init__(self, body: list[Token], label: str, warnings: list[str]) -> None:
        self.body = body
        self.label = label
        self.warnings = warnings
        self.comments: dict[int, tuple[GameNode, list[str]]] = {}

    def read(self, base: GameNode, start: int, end: int) -> None:
        """Replay the variation of ``body[start:end]`` (inside its outer brackets) from ``base``."""
        frames = [_Frame(base, False)]
        for index in range(start, end):
            token = self.body[index]
            frame = frames[-1]
            kind = token.kind
            if kind == "open":
                current = frame.current
                branch = current.parent if current is not frame.base and current.parent is not None else current
                frames.append(_Frame(branch, frame.spoiled))
            elif kind == "close":
                if len(frames) > 1:
                    frames.pop()
            elif frame.spoiled:
                continue
            elif kind == "comment":
                self._comment(frame, token.text)
            elif kind == "word":
                self._word(frame, token.text)

    def finish(self) -> None:
        """Set every node's comment from the comments gathered for it, joined once."""
        for node, texts in self.comments.values():
            node.set_comment(" ".join(texts))
        self.comments.clear()

    def _comment(self, frame: _Frame, text: str) -> None:
        if frame.first is None:
            frame.pending.append(text)
        else:
            node = frame.current
            self.comments.setdefault(id(node), (node, []))[1].append(text)

    def _word(self, frame: _Frame, word: str) -> None:
        number = MOVE_NUMBER.match(word)
        if number is not None:
            word = word[number.end() :]
        if not word or _DOTS.fullmatch(word) or is_terminator(word):
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
            frame.first, node.starting_comment = node, " ".join(frame.pending)
        frame.current = node
        if mark:
            node.nags.append(mark.group())

    def _spoil(self, frame: _Frame, word: str) -> None:
        frame.spoiled = True
        start = frame.first
        if start is not None:
            assert start.parent is not None
            start.parent.variations = [node for node in start.parent.variations if node is not start]
        self.warnings.append(
            f"{self.label}: the variation from ply {frame.base.ply + 1} "
            f"({excerpt(start.san() if start else word, 40)} ...) is dropped: move {excerpt(word, 40)} at ply "
            f"{frame.current.ply + 1} is not legal in {frame.current.position.fen()}"
        )
