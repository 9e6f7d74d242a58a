"""polydraughts: the rules of every major draughts variant, from one engine.

>>> import draughts
>>> sorted(draughts.VARIANTS)[:8]
['american', 'antidraughts', 'brazilian', 'breakthrough', 'canadian', 'czech', 'frisian', 'frysk']
>>> pos = draughts.Position.initial("italian")
>>> draughts.perft(pos, 4)
1469
"""

from __future__ import annotations

from draughts._core import NATIVE
from draughts.board import Board, DrawCounters, Outcome, Termination
from draughts.color import BLACK, WHITE, Color
from draughts.errors import (
    AmbiguousMoveError,
    CaptureSearchLimitError,
    DraughtsError,
    DrawClaimError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesetError,
    InvalidSquareError,
    PDNError,
    UnknownVariantError,
)
from draughts.legal import LegalMoves
from draughts.move import Move
from draughts.perft import divide, perft
from draughts.position import Piece, Position
from draughts.rules import (
    CapturedRemoval,
    CaptureFacts,
    CapturePromotion,
    Criterion,
    Directions,
    DrawRules,
    EndgameRule,
    KingLanding,
    KingRange,
    KingsEarliest,
    MostKings,
    MostPieces,
    MostValue,
    MoveCountRule,
    Precedence,
    ResultNotation,
    Ruleset,
    WithKing,
)
from draughts.rules.files import load_ruleset, resolve_ruleset, ruleset_from_text, ruleset_to_text, save_ruleset
from draughts.rules.geometry import BoardSquares, Numbering, SquareNames
from draughts.rules.names import ALIASES, from_gametype, get_variant
from draughts.rules.transforms import breakthrough, losing, no_forced_capture
from draughts.rules.variants import VARIANTS

__version__ = "0.1.0"

__all__ = [
    "ALIASES",
    "BLACK",
    "NATIVE",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "BoardSquares",
    "CaptureFacts",
    "CapturePromotion",
    "CaptureSearchLimitError",
    "CapturedRemoval",
    "Color",
    "Criterion",
    "Directions",
    "DraughtsError",
    "DrawClaimError",
    "DrawCounters",
    "DrawRules",
    "EndgameRule",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesetError",
    "InvalidSquareError",
    "KingLanding",
    "KingRange",
    "KingsEarliest",
    "LegalMoves",
    "MostKings",
    "MostPieces",
    "MostValue",
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
    "WithKing",
    "__version__",
    "breakthrough",
    "divide",
    "from_gametype",
    "get_variant",
    "load_ruleset",
    "losing",
    "no_forced_capture",
    "perft",
    "resolve_ruleset",
    "ruleset_from_text",
    "ruleset_to_text",
    "save_ruleset",
]
