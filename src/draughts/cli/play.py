"""A game in the terminal: people and computer players, any ruleset (``draughts play VARIANT``).

The board is drawn after every move. A human player types moves in the variant's notation, short
or long (``32-28``, ``19x28``, ``47x38x24x13x36``, ``c3-d4``, ``c3:e5``; Hub order and square
numbers in algebraic variants are read too), or a command:

========  ======================================================================================
moves     list the legal moves
hint      the engine's suggestion (strong level)
undo      take back your last move and the computer's reply
draw      claim a draw, where the ruleset's draw rules are claimed (repetition, 40 moves ...)
resign    give up the game
save      write the game so far as PDN (``save FILE``, or to the ``--save`` file)
board     draw the board again; ``fen`` prints the position's FEN
help      this list
quit      stop without a result
========  ======================================================================================

At the end the result is announced with its reason (the rule that ended the game), the game is
printed as PDN and, with ``save``, written to that file. Input is read line by line, so a script
can be piped in; when input is not a terminal each line read is echoed after its prompt.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Callable, Mapping
from typing import NoReturn, TextIO

import attrs

from draughts import pdn
from draughts.board import Board
from draughts.color import Color
from draughts.diagram import text_diagram
from draughts.engine import Engine, SearchResult, get_level, line_text
from draughts.errors import DraughtsError, InvalidMoveError, PlayerSpecError
from draughts.move import Move
from draughts.notation import matching_moves, move_text
from draughts.players import Player, PlayerSpec, parse_player
from draughts.players.factory import make_player
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["HELP", "PLAY_KINDS", "PlayerSpecError", "TerminalGame", "play", "score_text"]

HELP = """commands:
  <move>        play a move in the variant's notation, short or long (e.g. {example})
  moves         list the legal moves
  hint          ask the engine for a move
  undo          take back your last move (and the computer's reply)
  draw          claim a draw (only where the rules make draws a claim)
  resign        give up the game
  save [FILE]   write the game so far as PDN
  board, fen    show the board again, or its FEN
  help          this text
  quit          stop without a result"""


PLAY_KINDS = ("human", "random", "level", "depth", "nodes", "time", "hub")
"""The players of a terminal game (:mod:`draughts.players`): every kind but a DXP follower."""


def _player(spec: PlayerSpec | str) -> PlayerSpec:
    if isinstance(spec, PlayerSpec):
        return spec
    return parse_player(spec, accepted=PLAY_KINDS, command="draughts play")


def score_text(result: SearchResult) -> str:
    """A search score in words: ``+0.35`` men, or ``wins in 5 plies``."""
    mate = result.mate_in
    if mate is not None:
        return (
            f"wins in {_counted(mate, 'ply', 'plies')}" if mate > 0 else f"loses in {_counted(-mate, 'ply', 'plies')}"
        )
    return f"{result.value / 100:+.2f}"


_SHOWN = 8
"""How many compulsory captures an illegal-move message names (the rest: ``moves``)."""


def _counted(count: int, one: str, many: str) -> str:
    """``1 legal move``, ``2 legal moves``: the count with the word in the number it takes."""
    return f"{count} {one if count == 1 else many}"


class _EndOfGame(Exception):
    """The game has ended (by the rules, a resignation, a claim or quit)."""


@attrs.define
class _Ending:
    result: str
    message: str
    reason: str


class TerminalGame:
    """One game between two players over a text input and output, set up by :func:`play`.

    Args:
        board: Where the game starts (its ruleset is the game's).
        players: Each side's player as its text names it (``human``: moves typed).
        movers: The players that choose the other sides' moves (:func:`~draughts.players.factory.make_player`);
            the game closes them when it ends.
        hint: The engine that answers ``hint``.
        numbers: Draw the board with square numbers.
        save: The PDN file written at the end (and by ``save`` without a file name).
        stdin: Where the human moves are read from.
        stdout: Where the board and messages go.
    """

    def __init__(
        self,
        board: Board,
        players: Mapping[Color, PlayerSpec],
        movers: Mapping[Color, Player],
        hint: Engine,
        *,
        numbers: bool = False,
        save: str | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        self.rules = board.ruleset
        self.board = board
        self.players = dict(players)
        self.movers = dict(movers)
        self.hint_engine = hint
        self.numbers = numbers
        self.save_path = save
        self.stdin = sys.stdin if stdin is None else stdin
        self.stdout = sys.stdout if stdout is None else stdout
        self.echo = not _is_terminal(self.stdin)
        self.flipped = self.players[Color.BLACK].is_human and not self.players[Color.WHITE].is_human
        self.ending: _Ending | None = None

    # --- output ---

    def say(self, text: str = "") -> None:
        """Write a line."""
        print(text, file=self.stdout, flush=True)

    def show(self) -> None:
        """Draw the board and say who is to move."""
        position = self.board.position
        self.say(text_diagram(position, numbers=self.numbers, flipped=self.flipped))
        self.say(f"{position.turn} to move ({self.players[position.turn]})")

    def text(self, move: Move) -> str:
        """``move`` (legal now) in the variant's notation."""
        return move_text(self.board.position, move)

    # --- the game ---

    def run(self) -> pdn.Game:
        """Play until the game ends or a player quits; announce the result and return the game."""
        rules = self.rules
        self.say(f"{rules.title}: {self.players[Color.WHITE]} (white) against {self.players[Color.BLACK]} (black)")
        if any(player.is_human for player in self.players.values()):
            self.say("Type a move, or 'help' for the commands.")
        self.say()
        self.show()
        try:
            while True:
                outcome = self.board.outcome()
                if outcome is not None:
                    if outcome.winner is None:
                        self._end(None, "drawn", f"{outcome.termination.value}, {outcome.rule}")
                    self._end(outcome.winner, f"{outcome.winner} wins", outcome.rule)
                player = self.players[self.board.turn]
                if player.is_human:
                    self._human_turn()
                else:
                    self._computer_turn()
        except _EndOfGame:
            pass
        finally:
            self._close()
        assert self.ending is not None
        game = self.game(self.ending.result, self.ending.reason)
        self.say()
        self.say(self.ending.message)
        self.say()
        self.say(pdn.write_game(game).rstrip("\n"))
        if self.save_path is not None:
            self._write(self.save_path, game)
        return game

    def _close(self) -> None:
        """Free the players that hold something (a Hub engine's process)."""
        for mover in self.movers.values():
            mover.close(self.board.copy())

    def _end(self, winner: Color | None, verdict: str, reason: str, *, result: str | None = None) -> NoReturn:
        if result is None:
            result = pdn.result_for(self.rules, winner)
        self.ending = _Ending(result, f"Game over: {result} ({verdict}: {reason})", reason)
        raise _EndOfGame

    def game(self, result: str | None = None, reason: str | None = None) -> pdn.Game:
        """The game so far as a :class:`~draughts.pdn.Game` (``result`` default: ``*``)."""
        headers = {
            "Event": "polydraughts terminal game",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "White": self.players[Color.WHITE].pdn_name,
            "Black": self.players[Color.BLACK].pdn_name,
            "Result": result or "*",
        }
        if reason:
            headers["Termination"] = reason
        if self.rules.pdn_gametype is None:
            headers["Variant"] = self.rules.name
        return pdn.Game.from_board(self.board, headers, result or "*")

    def _write(self, path: str, game: pdn.Game) -> None:
        pdn.write_games([game], path)  # the text is made first: a game that cannot be written leaves the file
        self.say(f"Game saved to {path}")

    def _push(self, move: Move, who: str) -> None:
        text = self.text(move)
        self.board.push(move)
        self.say()
        self.say(f"{who} plays {text}")
        self.show()

    def _computer_turn(self) -> None:
        color = self.board.turn
        move, score = self.movers[color].choose(self.board.copy())
        if self.board.can_claim_draw() and score is not None and score.to_search() <= 0:
            outcome = self.board.claim_draw()
            self._end(None, f"drawn, claimed by {color}", outcome.rule, result=pdn.result_for(self.rules, None))
        self._push(move, f"{color} ({self.players[color]})")

    def _human_turn(self) -> None:
        color = self.board.turn
        self.stdout.write(f"{color}> ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            if self.echo:
                self.say("(end of input)")
            self._end(None, "unfinished", "the input ended", result="*")
        text = line.strip()
        if self.echo:
            self.say(text)
        if not text:
            return
        command, _, argument = text.partition(" ")
        handler = self._commands().get(command.lower())
        if handler is not None:
            handler(argument.strip())
            return
        self._human_move(text)

    def _commands(self) -> dict[str, Callable[[str], None]]:
        return {
            "help": self._help,
            "?": self._help,
            "moves": self._moves,
            "hint": self._hint,
            "undo": self._undo,
            "draw": self._draw,
            "resign": self._resign,
            "save": self._save,
            "board": lambda _: self.show(),
            "fen": lambda _: self.say(self.board.fen()),
            "quit": self._quit,
            "exit": self._quit,
        }

    def _human_move(self, text: str) -> None:
        position = self.board.position
        try:
            found = matching_moves(position, text)
        except InvalidMoveError as error:
            self.say(f"Not a command, and not a move: {error}. Type 'help' for the commands.")
            return
        if not found:
            self.say(self._illegal(position, text))
            return
        if len(found) > 1:
            options = " or ".join(move_text(position, move, long=True) for move in found)
            self.say(f"Ambiguous move {text!r}: it may be {options}. Type the long form.")
            return
        self._push(found[0], str(position.turn))

    def _illegal(self, position: Position, text: str) -> str:
        """Why ``text`` is not a move here: a capture is compulsory (named), or plainly not legal."""
        legal = position.legal_moves()
        if self.rules.capture_mandatory and legal and all(move.captured for move in legal):
            shown = [self.text(move) for move in legal[:_SHOWN]]
            more = f" (and {len(legal) - _SHOWN} more: type 'moves')" if len(legal) > _SHOWN else ""
            which = f"the capture {shown[0]}" if len(legal) == 1 else "one of the captures " + ", ".join(shown)
            return f"Illegal move {text!r}: capturing is compulsory here, so play {which}{more}."
        return f"Illegal move {text!r}: it is not legal here. Type 'moves' to list the legal moves."

    def _help(self, argument: str) -> None:
        legal = self.board.legal_moves
        example = self.text(legal[0]) if legal else "32-28"
        self.say(HELP.format(example=example))

    def _moves(self, argument: str) -> None:
        legal = self.board.legal_moves
        self.say(f"{_counted(len(legal), 'legal move', 'legal moves')}: " + " ".join(self.text(move) for move in legal))

    def _hint(self, argument: str) -> None:
        result = self.hint_engine.search(self.board)
        if result.move is None:
            self.say("No move to suggest.")
            return
        line = line_text(self.board.position, result.pv)
        self.say(f"Hint: {self.text(result.move)} ({score_text(result)}; line {line})")

    def _undo(self, argument: str) -> None:
        if not self.board.move_stack:
            self.say("Nothing to undo.")
            return
        taken = []
        while self.board.move_stack and not self.players[self.board.turn.opponent].is_human:
            taken.append(self.board.pop())  # the computer's replies
        if self.board.move_stack:
            taken.append(self.board.pop())  # the human's move
        self.say(f"Took back {_counted(len(taken), 'ply', 'plies')}.")
        self.show()

    def _draw(self, argument: str) -> None:
        if self.board.can_claim_draw():
            outcome = self.board.claim_draw()
            color = self.board.turn
            self._end(None, f"drawn, claimed by {color}", outcome.rule, result=pdn.result_for(self.rules, None))
        draws = self.rules.draw_rules
        claims = [rule.describe() for rule in draws.move_counts if rule.claim]
        if draws.repetitions and draws.repetition_claim:
            claims.insert(0, f"the same position {draws.repetitions} times")
        if claims:
            self.say(f"No draw can be claimed now; {self.rules.name} allows a claim after: {'; '.join(claims)}.")
        else:
            self.say(f"Draws are not claimed in {self.rules.name}: its draw rules end the game by themselves.")

    def _resign(self, argument: str) -> NoReturn:
        color = self.board.turn
        self._end(color.opponent, f"{color.opponent} wins", f"{color} resigns")

    def _save(self, argument: str) -> None:
        path = argument or self.save_path
        if not path:
            self.say("Save where? Type 'save FILE' (or start with --save FILE).")
            return
        try:
            self._write(path, self.game())
        except OSError as error:
            self.say(f"Cannot write {path!r}: {error.strerror}")
        except DraughtsError as error:  # text or a name no file can hold
            self.say(f"Cannot write {path!r}: {error}")

    def _quit(self, argument: str) -> NoReturn:
        self._end(None, "unfinished", f"{self.board.turn} quits", result="*")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def play(
    ruleset: Ruleset | str,
    *,
    white: str | PlayerSpec | None = None,
    black: str | PlayerSpec | None = None,
    fen: str | None = None,
    numbers: bool = False,
    save: str | None = None,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> pdn.Game:
    """Play a game in the terminal (the ``draughts play`` command) and return it.

    By default the side that moves first in the ruleset is a human player and the other side the
    computer at the ``intermediate`` level. A player is ``human`` or any other form of
    :func:`~draughts.players.parse_player` but ``dxp:HOST:PORT`` (``computer:LEVEL`` is read as
    ``level:LEVEL``).

    Raises:
        ~draughts.errors.PlayerSpecError: a player in no form of the player syntax, or a DXP follower.
        InvalidFenError: ``fen`` is not a position of the ruleset.
        OSError: the ``save`` file cannot be written at the end (the game has been printed).
    """
    rules = resolve_ruleset(ruleset)
    board = Board(rules, fen)  # a bad FEN is refused before any player is made
    players = {}
    for color, spec in ((Color.WHITE, white), (Color.BLACK, black)):
        if spec is None:
            spec = "human" if color is rules.first_to_move else "level:intermediate"
        players[color] = _player(spec)
    base = 0 if seed is None else seed
    hint = get_level("strong").engine(None if seed is None else base + 7)
    movers = _movers(players, board, None if seed is None else base)
    game = TerminalGame(board, players, movers, hint, numbers=numbers, save=save, stdin=stdin, stdout=stdout)
    return game.run()


def _movers(players: Mapping[Color, PlayerSpec], board: Board, seed: int | None) -> dict[Color, Player]:
    """The players that choose moves on ``board`` (all but people), each side's seeded ``seed +
    colour``; those made already are closed if one cannot be made."""
    movers: dict[Color, Player] = {}
    try:
        for color, spec in players.items():
            if not spec.is_human:
                movers[color] = make_player(spec, board.ruleset, seed=None if seed is None else seed + int(color))
    except BaseException:
        for mover in movers.values():
            mover.close(board.copy())
        raise
    return movers
