"""The exception family of polydraughts.

Every error the library raises on bad input is a :class:`DraughtsError`, which is a
:class:`ValueError`, so ``except ValueError`` in calling code keeps working. Messages quote
the offending input and say what was expected. A call that raises leaves every object as it was.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "BookError",
    "CaptureSearchLimitError",
    "DXPConnectionError",
    "DXPError",
    "DatabaseError",
    "DraughtsError",
    "DrawClaimError",
    "GameOverError",
    "HubEngineError",
    "HubEngineTerminatedError",
    "HubEngineTimeoutError",
    "HubError",
    "IllegalMoveError",
    "InvalidActionError",
    "InvalidFenError",
    "InvalidLimitError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesetError",
    "InvalidScoreError",
    "InvalidSeedError",
    "InvalidSquareError",
    "InvalidWeightsError",
    "LineTooLongError",
    "MatchResultsError",
    "PDNError",
    "PatternError",
    "PlayerSpecError",
    "RequestError",
    "ServeError",
    "UnknownBallotError",
    "UnknownLevelError",
    "UnknownVariantError",
]


class DraughtsError(ValueError):
    """Base class of every error polydraughts raises on bad input."""


class UnknownVariantError(DraughtsError):
    """A variant name, alias or PDN GameType that names no known ruleset."""


class InvalidRulesetError(DraughtsError):
    """A ruleset whose fields contradict each other or are out of range."""


class InvalidSquareError(DraughtsError):
    """A square number or name that is not a playable square of the board."""


class InvalidPositionError(DraughtsError):
    """A position that cannot arise: overlapping pieces, a man on its own crowning row, too many pieces."""


class InvalidFenError(InvalidPositionError):
    """A FEN string that does not parse, or describes an impossible position."""


class InvalidMoveError(DraughtsError):
    """Move text or a move object that is malformed (before any legality check)."""


class IllegalMoveError(DraughtsError):
    """A well-formed move that is not legal in the position it is played in."""


class CaptureSearchLimitError(DraughtsError):
    """A position whose captures are too many to enumerate: the capture search expanded more states
    than its bound (``MAX_STATES`` of the native capture search), which only some custom rulesets
    allow (pieces lifted at once on a crowded board); the position and its objects are unchanged."""


class AmbiguousMoveError(DraughtsError):
    """Move text that matches more than one legal move."""


class InvalidSeedError(DraughtsError):
    """A random seed that is not None or a whole number from 0 up (the environments' ``reset``)."""


class InvalidWeightsError(DraughtsError):
    """Engine evaluation weights that are not integers (:class:`draughts.engine.Weights`)."""


class PDNError(DraughtsError):
    """A PDN game that cannot be read: broken syntax, an unknown GameType, a bad FEN, an illegal move ...

    The message names the game (its number in the file and its White, Black and Event tags), the
    line and, for a move, the ply and the move text. The same facts are attributes, None where they
    do not apply.
    """

    def __init__(
        self,
        message: str,
        *,
        game: int | None = None,
        line: int | None = None,
        ply: int | None = None,
        move: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.game = game
        """The game's number in the file (1 = first)."""
        self.line = line
        """The line of the offending text (1 = first line of the file or text)."""
        self.ply = ply
        """The ply (1 = the first move of the game) of the offending move."""
        self.move = move
        """The offending move text, as written."""
        self.headers = dict(headers or {})
        """The game's tags, as far as they were read."""


class HubError(DraughtsError):
    """Bad Hub protocol input: a line that does not parse, a value out of range, a request that cannot be served.

    Raised for what the caller (or the other side's line) got wrong: a malformed line, a position
    or move text that does not fit the ruleset, a search mode, a ruleset the engine does not play.
    What goes wrong with the engine's process is a :class:`HubEngineError` instead.
    """


class HubEngineError(RuntimeError):
    """A Hub engine that failed while running: it misbehaved, exited or stopped answering.

    Like python-chess's ``EngineError``, a :class:`RuntimeError`, not a :class:`ValueError`: the
    caller's input was fine, the engine was not. Raised when the engine cannot be started, answers
    ``error`` to a search, plays an illegal move or none; the subclasses say when its process has
    gone (:class:`HubEngineTerminatedError`) or did not answer in time
    (:class:`HubEngineTimeoutError`). The message quotes what the engine said (its ``error`` lines,
    and the end of its error output when it exited).

    It is not a :class:`HubError`: code that caught ``HubError`` for both must catch
    ``(HubError, HubEngineError)``.
    """


class HubEngineTerminatedError(HubEngineError):
    """A Hub engine whose process has exited or closed its pipes."""


class HubEngineTimeoutError(HubEngineError):
    """A Hub engine that did not answer within its time (the search's time plus the client's timeout)."""


# --- errors of one part of the library, kept here with the rest of the family ---
# Each is importable from its old module too (draughts.engine.InvalidLimitError ...): the same class.


class InvalidLimitError(DraughtsError):
    """A search limit, level setting or clock time that is out of range (:mod:`draughts.engine`)."""


class InvalidScoreError(DraughtsError):
    """A score text or value that is not an engine score (:class:`draughts.engine.score.Score`)."""


class UnknownLevelError(InvalidLimitError):
    """A level name that names no engine level (:func:`draughts.engine.get_level`).

    A subclass of :class:`InvalidLimitError` only because ``get_level`` raised that before; an
    unknown name is not a bad limit, so catch this class for it.
    """


class DrawClaimError(IllegalMoveError):
    """A draw claimed when no claim-based draw rule is met (:meth:`draughts.Board.claim_draw`).

    A subclass of :class:`IllegalMoveError` because ``claim_draw`` raised that before, and a claim
    is one of the actions a player may take: one that the rules do not allow now.
    """


class PlayerSpecError(DraughtsError):
    """A player in no form of the player syntax, or of a kind the command cannot play (:mod:`draughts.players`)."""


class GameOverError(DraughtsError):
    """A move asked of a game that is over: an environment step taken before ``reset`` or after every
    agent has left the game (:mod:`draughts.ai`), a built-in engine player asked to move in a
    finished game (:class:`~draughts.players.EnginePlayer`)."""


class InvalidActionError(DraughtsError):
    """An environment action that is not an integer of the action space, legality aside (:mod:`draughts.ai`)."""


class ServeError(DraughtsError):
    """The web board's server cannot start: the address cannot be bound (:mod:`draughts.web`)."""


class RequestError(DraughtsError):
    """A web request the server cannot answer: bad fields, an unknown game, too large a body ...

    Attributes:
        status: The HTTP status to answer with (400 by default).
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class DXPError(DraughtsError):
    """Bad DXP (DamExchange) input: a frame that does not parse, a move no legal move matches, a
    request that cannot be served (a board DXP cannot carry)."""


class DXPConnectionError(DXPError):
    """The DXP peer went away (connection closed or reset) or stayed silent past its time."""


class UnknownBallotError(DraughtsError):
    """An opening ballot name a variant has no ballot of (:func:`draughts.openings.ballot`)."""


class MatchResultsError(DraughtsError):
    """A match's results file that is not of this match, or is damaged (the message names the file and line)."""


class DatabaseError(DraughtsError):
    """A file that is not a game database of this format, or a request the database cannot answer."""


class BookError(DatabaseError):
    """A file that is not an opening book of this format, or a book probed with other rules."""


class PatternError(DraughtsError):
    """A position pattern's text that does not read (:mod:`draughts.db`)."""


class LineTooLongError(EOFError):
    """A Hub engine printed a line longer than ``draughts.hub.process.MAX_LINE`` characters (it
    has been stopped): the end of its output as far as the reader is concerned, hence an EOFError."""
