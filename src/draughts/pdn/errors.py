"""The PDN reader's errors, each a :class:`~draughts.PDNError` of one kind, and its warning for skipped games."""

from __future__ import annotations

from draughts.errors import AmbiguousMoveError, IllegalMoveError, PDNError, UnknownVariantError

__all__ = ["PDNAmbiguousMoveError", "PDNIllegalMoveError", "PDNTextError", "PDNUnknownVariantError", "PDNWarning"]


class PDNIllegalMoveError(PDNError, IllegalMoveError):
    """A move in a PDN game that is not legal in its position, or an unknown move (``-``)."""


class PDNAmbiguousMoveError(PDNError, AmbiguousMoveError):
    """A move in a PDN game that several legal moves fit, and no later move settles."""


class PDNUnknownVariantError(PDNError, UnknownVariantError):
    """A game whose rules cannot be told: an unknown GameType, one that contradicts its variant or
    ``ruleset=``, or a Variant tag naming no known ruleset."""


class PDNTextError(PDNError):
    """Text no PDN file can hold: a tag, comment or other string of a game with a lone surrogate.

    Raised by the reader for that game (so ``errors="skip"`` skips it) and by the writer before it
    writes anything.
    """


class PDNWarning(UserWarning):
    """A game skipped by ``read_games(..., errors="skip")``; the message names the game and the line."""
