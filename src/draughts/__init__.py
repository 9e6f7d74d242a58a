"""polydraughts: the rules of every major draughts variant, from one engine.

>>> import draughts
>>> sorted(draughts.VARIANTS)
['american', 'brazilian', 'czech', 'international', 'italian', 'russian', 'spanish']
>>> pos = draughts.Position.initial("italian")
>>> draughts.perft(pos, 4)
1469
"""

from __future__ import annotations

from draughts.board import Board, DrawCounters, Outcome, Termination
from draughts.color import BLACK, WHITE, Color
from draughts.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesetError,
    InvalidSquareError,
    PDNError,
    UnknownVariantError,
)
from draughts.geometry import Numbering, SquareNames
from draughts.legal import LegalMoves
from draughts.move import Move
from draughts.perft import divide, perft
from draughts.position import Piece, Position
from draughts.rules import (
    CapturedRemoval,
    CapturePromotion,
    DrawRules,
    EndgameRule,
    KingRange,
    MoveCountRule,
    Precedence,
    ResultNotation,
    Ruleset,
)
from draughts.variants import ALIASES, VARIANTS, from_gametype, get_variant, no_forced_capture

__version__ = "0.1.0"

__all__ = [
    "ALIASES",
    "BLACK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "CapturePromotion",
    "CapturedRemoval",
    "Color",
    "DraughtsError",
    "DrawCounters",
    "DrawRules",
    "EndgameRule",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesetError",
    "InvalidSquareError",
    "KingRange",
    "LegalMoves",
    "Move",
    "MoveCountRule",
    "Numbering",
    "Outcome",
    "PDNError",
    "Piece",
    "Position",
    "Precedence",
    "ResultNotation",
    "Ruleset",
    "SquareNames",
    "Termination",
    "UnknownVariantError",
    "__version__",
    "divide",
    "from_gametype",
    "get_variant",
    "no_forced_capture",
    "perft",
]
