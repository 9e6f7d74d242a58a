"""Writing: a :class:`~draughts.pdn.Game` as PDN 3.0 text, and games to a path or a stream."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import IO

from draughts.errors import IllegalMoveError, PDNError
from draughts.notation import move_text
from draughts.pdn.game import Game
from draughts.pdn.lexer import collapse, tokenize
from draughts.pdn.replay import MARKS, NAG
from draughts.results import STANDARD_RESULTS, normalise_result


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_pieces(text: str) -> list[str]:
    words = collapse(text.replace("}", ")")).split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _variation_pieces(text: str) -> list[str]:
    tokens = list(tokenize([f"({text})"]))
    if len(tokens) != 1 or tokens[0].kind != "variation" or tokens[0].text != collapse(text):
        raise PDNError(f"variation {text!r} is not balanced text; it cannot be written inside parentheses")
    words = collapse(text).split() or [""]
    words[0] = "(" + words[0]
    words[-1] += ")"
    return words


def _wrap(pieces: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for piece in pieces:
        if current and len(current) + 1 + len(piece) > width and piece[0] not in "%[":
            lines.append(current)
            current = piece
        else:
            current = f"{current} {piece}" if current else piece
    if current:
        lines.append(current)
    return lines


def write_game(game: Game, *, width: int = 80, variations: bool = True, numeric: bool = False) -> str:
    """``game`` as PDN 3.0 text, ending with a newline (see the module notes for the layout).

    Args:
        game: The game; its moves must be legal in turn from its start.
        width: Wrap the movetext at this many characters (a longer single token stays whole).
        variations: Write the game's variations back (verbatim), or drop them.
        numeric: Write square numbers even in algebraic variants.

    Raises:
        IllegalMoveError: a move of the game is not legal in turn.
        PDNError: a variation's text is not balanced.
    """
    headers = game.export_headers()
    lines: list[str] = []
    pieces: list[str] = []
    for text in game.preamble:
        if headers:
            lines.extend(_wrap(_comment_pieces(text), width))
        else:  # a game without tags: before its first move
            pieces.extend(_comment_pieces(text))
    lines.extend(f'[{name} "{_escape(value)}"]' for name, value in headers.items())
    if headers:
        lines.append("")
    first = game.ruleset.first_to_move
    position = game.start
    offset = 0 if position.turn is first else 1
    need_number = True

    def notes(count: int) -> bool:
        written = False
        for text in game.comments.get(count, []):
            pieces.extend(_comment_pieces(text))
            written = True
        if variations:
            for text in game.variations.get(count, []):
                pieces.extend(_variation_pieces(text))
                written = True
        return written

    notes(0)
    for ply, move in enumerate(game.moves, 1):
        try:
            text = move_text(position, move, numeric=numeric)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"ply {ply} of the game: {error}") from None
        marks = [mark for mark in game.annotations.get(ply, []) if MARKS.fullmatch(mark)]
        text += marks[0] if marks else ""
        number = (ply - 1 + offset) // 2 + 1
        if position.turn is first:
            text = f"{number}. {text}"
        elif need_number:
            text = f"{number}... {text}"
        pieces.append(text)
        pieces.extend(marks[1:])
        pieces.extend(nag for nag in game.annotations.get(ply, []) if NAG.fullmatch(nag))
        position = position.play(move)
        need_number = notes(ply)
    result = normalise_result(game.result) or game.result
    pieces.append(result if result in STANDARD_RESULTS else "*")
    lines.extend(_wrap(pieces, width))
    return "\n".join(lines) + "\n"


def write_games(
    games: Iterable[Game],
    target: str | os.PathLike[str] | IO[str],
    *,
    width: int = 80,
    variations: bool = True,
    numeric: bool = False,
) -> int:
    """Write ``games`` to a path (UTF-8) or a text stream, separated by blank lines; return how many.

    The keyword arguments are those of :func:`write_game`.
    """
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding="utf-8", newline="\n") as stream:
            return write_games(games, stream, width=width, variations=variations, numeric=numeric)
    count = 0
    for game in games:
        if count:
            target.write("\n")
        target.write(write_game(game, width=width, variations=variations, numeric=numeric))
        count += 1
    return count
