"""polydraughts: the rules of every major draughts variant, from one engine.

>>> import draughts
>>> sorted(draughts.VARIANTS)
['american', 'brazilian', 'czech', 'international', 'italian', 'russian', 'spanish']
>>> pos = draughts.Position.initial("italian")
>>> draughts.perft(pos, 4)
1469
"""

from __future__ import annotations

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
    UnknownVariantError,
)
from draughts.geometry import Numbering, SquareNames
from draughts.move import Move
from draughts.perft import divide, perft
from draughts.position import Piece, Position
from draughts.rules import CapturedRemoval, CapturePromotion, KingRange, Precedence, Ruleset
from draughts.variants import ALIASES, VARIANTS, from_gametype, get_variant, no_forced_capture

__version__ = "0.1.0"

__all__ = [
    "ALIASES",
    "BLACK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "CapturePromotion",
    "CapturedRemoval",
    "Color",
    "DraughtsError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesetError",
    "InvalidSquareError",
    "KingRange",
    "Move",
    "Numbering",
    "Piece",
    "Position",
    "Precedence",
    "Ruleset",
    "SquareNames",
    "UnknownVariantError",
    "__version__",
    "divide",
    "from_gametype",
    "get_variant",
    "no_forced_capture",
    "perft",
]
