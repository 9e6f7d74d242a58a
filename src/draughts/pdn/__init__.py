"""PDN 3.0 game files: a streaming reader that is strict about rules and lenient about layout, and a writer.

A game is a tree, as in python-chess's ``chess.pgn``: :class:`Game` is its root (tags, start
position, result) and every :class:`GameNode` below holds a move, its comments, NAGs, ``%``
commands and the side lines from it. One lexer reads the main line and every variation in one
pass; one writer (:func:`write_game`, a :class:`StringExporter`) writes the tree back.

>>> from draughts import pdn
>>> text = '[White "A"] [Black "B"] [GameType "20"] 1. 32-28 19-23 (1... 18-23 $1) 2. 28x19 {forced} 14x23 2-0'
>>> game = pdn.parse_game(text)
>>> len(game.mainline_moves()), game.result, game.end().parent.comment
(4, '2-0', 'forced')
>>> [node.san() for node in game.next().variations]
['19-23', '18-23']
>>> print(pdn.write_game(game), end="")
[White "A"]
[Black "B"]
[GameType "20"]
<BLANKLINE>
1. 32-28 19-23 (1... 18-23 $1) 2. 28x19 {forced} 2... 14x23 2-0

Reading
-------
:func:`read_games` reads a path or a stream line by line and yields one :class:`Game` at a time, so a
large collection is never loaded at once (a ``str`` is a path; PDN text in a string reads with
:func:`parse_game`). Every move of the main line is replayed: ``game.mainline_moves()`` are legal
:class:`~draughts.Move` objects from ``game.position``, the start. What the reader accepts, beyond PDN 3.0:

* **Layout.** CRLF, a byte-order mark, ``%`` line comments, comments before the first tag (kept
  in :attr:`Game.preamble`), padded tag names, unquoted tag values (``[Round 17]``), raw
  backslashes in tag values, move numbers glued to moves (``1.33-28``), zero-padded numbers
  (``01.``), ``1...`` and ``1. ...``, moves after the last move number, no move numbers at all.
* **Moves** are read by :func:`draughts.notation.matching_moves`: short and long forms, either
  separator (plain moves written with ``x``, captures with ``-``), padded squares (``1- 6``,
  ``06-11``), Russian short notation (``ed4``), upper-case algebraic squares, Hub-style captures,
  and ``!``/``?``/``(?)`` marks glued to the move. A from-to capture that several legal moves fit is
  kept open: the reader follows every candidate until later moves rule all but one out (a
  breadth-first search over the candidates, merging lines that reach the same position). If
  several lines with different positions survive to the end of the game, that is an
  :class:`PDNAmbiguousMoveError`.
* **Multi-jumps split into one ply per jump** (playstrategy.org writes ``6. c3xa5 e5xc3 7. c3xa1``
  for the one black move e5xc3xa1) are merged, but only when the split capture matches no legal
  move as written; :attr:`Game.warnings` records each merge.
* **Algebraic squares in American checkers** (PDN numbers the squares; playstrategy.org writes
  ``c3-d4``) are read from the side of the player who moves first (Black), whose men start on
  ranks 1-3: ``a1`` is Black's near-left corner, as the PDN GameType notation attribute places the
  first square "from the perspective of the starting player". For every other named variant the
  first player is White, so this is the usual a1 at White's near left.
* **Results**: see below. ``0-0`` and ``*`` too. A match score in the place of the result
  (``4-6``, ``1-9``, which look like moves) is taken as the result when it is the last token of
  the movetext and equals the Result tag.
* **Encodings.** A path or a binary stream is read once, from its start to its end, so a pipe,
  ``/dev/stdin`` or a process substitution read the same as a file. A byte-order mark of UTF-16
  or UTF-32 selects that encoding, and so does UTF-16 without a mark (text whose every other byte
  is NUL). Otherwise each line that is valid UTF-8 is read as UTF-8 (a UTF-8 mark is dropped),
  and the other lines with one 8-bit code page chosen from all of them: cp1251 (Cyrillic) when
  most of their bytes above 127 make up whole words of such bytes, as Cyrillic words do, else
  cp1252/Latin-1, where accented letters sit among ASCII letters (``Müünchen``). Pass
  ``encoding=`` to force one; bytes it cannot decode are then a :class:`~draughts.PDNError`. Text
  streams are used as they are.
* **Games without movetext.** A tag section that is followed by another tag section is a game of
  its own, with no moves: a new game starts at a tag after a blank line that ends a tag section,
  or at a tag its section already has (``[Event "A"] [Event "B"]`` are two games).

Not accepted, each an error for that game: a move that is illegal in its position (the message
names the ply and lists the legal moves), unknown moves written ``-`` (``1. - -``: the game cannot
be replayed), an unknown or contradictory GameType (see below), a bad FEN, text in the movetext
that is neither a move, a move number, a mark, a NAG nor a result, unbalanced braces or
parentheses, ``/FEN "..."/`` setup commands inside the movetext, a tag or comment holding a lone
surrogate (:class:`PDNTextError`: text no file can hold), and a movetext of more than 100,000
tokens (moves, move numbers, comments; a hundred times the longest real games), whose rest is read
and dropped so that one huge game costs bounded memory. A ``{`` or ``(`` left open ends at the
next line that starts with a tag, so it spoils its own game only. With ``errors="skip"`` such a
game is skipped with a :class:`PDNWarning` that names it and reading goes on with the next game:
every error of one game is a :class:`~draughts.PDNError` of that game, whatever failed below (a
``RecursionError`` too). With ``errors="raise"`` (the default) the :class:`~draughts.PDNError`
propagates. Messages quote at most a short excerpt of long input. Reading is linear in the input
(100,000 tags of one game read in well under a second of CPU).

Which rules a game follows
--------------------------
* **GameType.** The tag's number names the variant (:func:`~draughts.from_gametype`). Its other
  fields must agree with that variant where they change the rules: ``26,B,8,8,A0,0`` (Brazilian
  numbers, Black first) is an error, not Brazilian draughts. The notation field is not checked
  (International files write ``20,W,10,10,N1,0``). A bare number outside PDN 3.0 that is an
  alias (:data:`~draughts.ALIASES`) names that ruleset: lidraughts writes 96 for Breakthrough,
  97 for Frysk! and 98 for Antidraughts.
* **ruleset=** is the ruleset the caller says the games follow. It is used for games without a
  GameType tag, and a game's GameType tag must be its own (the number of its ``pdn_gametype``,
  fields agreeing): a game tagged ``25`` read with ``ruleset="international"`` is an error that
  names both. So a ruleset of your own with a GameType number of its own (``pool`` with 23) reads
  its own files back.
* Without ``ruleset=`` (None), a game without a GameType tag follows its **Variant** tag if that
  names a ruleset (``russian``, ``american-nfc``, ``American/English`` as playstrategy.org writes),
  else International draughts. A Variant tag that names nothing known is an error saying to pass
  the ruleset as ``ruleset=``.
* **Guessed rules.** A game that no tag names (no GameType, no Variant) and that cannot be read
  as International draughts is tried under the PDN variants whose notation and board size fit its
  moves (algebraic ``c3-d4`` on 8x8: Russian, Brazilian, Czech, Turkish; numbers up to 32:
  Italian, American, Spanish ...), in the catalog's order, and read under the first where every
  move is legal. :attr:`Game.guessed` is then True and :attr:`Game.warnings` says so: a guess is no
  proof (a Czech game may be legal in Russian draughts too), ``ruleset=`` decides. When no guess
  reads, the error is that of the rules the moves went furthest in, with a hint at ``ruleset=``.

Decisions
---------
* **Variations** are replayed from the position before the move they are an alternative to, each
  move matched as the main line's are (the first legal move a short form fits). A variation with a
  move that is not legal there (or prose in parentheses) is dropped with the lines nested in it,
  and :attr:`Game.warnings` says which; the main line is not affected. A result inside a variation
  is skipped; ``write_game(game, variations=False)`` leaves the side lines out.
* **Comments** are kept with whitespace collapsed, the comments after one move joined by spaces
  into :attr:`GameNode.comment`; their ``%`` commands (``[%eval 0.3]``, ``[%clk 0:01:05]``,
  ``[%cal ...]``, ``[%csl ...]``) are read into :attr:`GameNode.commands` and written back in one
  normal form (a command whose value does not read, such as an evaluation of 400 digits, stays in
  the text). The comment before the first move is the root's (the :class:`Game`'s); a comment
  before a variation's first move is that move's :attr:`GameNode.starting_comment`. NAGs (``$1``)
  and marks (``!?``) are the move's :attr:`GameNode.nags`; one before the first move is dropped.
* **Move numbers** are checked for syntax only; the side to move comes from the position.
* **Result.** :attr:`Game.result` is normalised (``1:0`` -> ``1-0``, ``1/2:1/2`` -> ``1/2-1/2``,
  spaces removed, ``½`` -> ``1/2``) and keeps its scoring system (``2-0`` on 8x8 stays ``2-0``).
  When the Result tag and the movetext's result disagree, **the tag wins**, unless the tag is
  missing, unreadable or ``*``: movetexts that stop early end in ``*`` while the tag has the real
  result, and in the collections checked, where both give a decisive result that differ, the tag
  fits the final position. The disagreement is noted in :attr:`Game.warnings`.
* **Who "1-0" means.** The first score belongs to the player who moves first in the variant:
  White everywhere except American checkers, where it is Black. Worked out from the files: in the
  20 playstrategy.org American games that end with the loser to move and no legal move, ``1-0``
  always goes with a Black win and ``0-1`` with a White win; in the CheckerBoard (Tinsley) and
  Open Checkers Archive files, which list ``[Black "..."]`` first, the ``1-0`` games end with Black
  ahead in material in 30 of the 34 where material differs, the ``0-1`` games with White ahead in
  65 of 81. :attr:`Game.winner`, :func:`winner_of` and :func:`result_for` follow this.

Writing
-------
:func:`write_game` writes the tags Event, Site, Date, Round, White, Black, Result (those the game
has), then the tags that name the rules, then SetUp ``"1"`` and FEN when the game does not start
from the initial position, then the other tags. The rules are named so that reading the text back
gives the game's ruleset: a GameType tag the game was read with is kept as it was written
(``"20"`` stays ``"20"``) when it names the game's ruleset; else the ruleset's full
``pdn_gametype_tag`` when reading that tag gives this very ruleset (the named variants); else a
``Variant`` tag with the ruleset's name when the name gives it back (``american-nfc``); else, for a
ruleset of the caller's own, which must then be read back with ``ruleset=``, a ``Variant`` tag that
no name resolves (its name, with ``" (custom rules)"`` after it if the name is a named variant's)
and its GameType if no named variant has that number. So a ruleset evolved from Brazilian never
claims GameType 26. Then the movetext, the whole tree: move numbers (``1.``, and ``1...`` when the
second player's move opens the movetext or a variation or follows a comment or variation), each
move in the variant's notation (short unless ambiguous, then the long form PDN 3.0 prescribes),
marks, NAGs, comments with their commands, variations nested in parentheses, and the result,
wrapped at 80 characters. :meth:`Game.export_headers` gives the tags exactly as written;
``parse_game(write_game(g), ruleset=g.ruleset)`` (for a named variant or a house rule, without
``ruleset=`` too) is equal to ``g`` once ``g``'s headers are those, however long the game and
however deep its tree, and writing it again gives the same text. A result that cannot stand as
a PDN game terminator (a match score such as ``4-6``) is written in the Result tag, and the
movetext ends with ``*``. A ``}`` in a comment is written as ``)``. A move's first NAG, when it is a
mark, is glued to it; its other marks and NAGs follow in order. A NAG that is neither ``$N`` nor a
mark (``{``, ``1-0``, ``28-24`` would read back as other text, moves or a result) is refused with a
:class:`~draughts.PDNError`, and a game with text no file can hold (a lone surrogate) with
:class:`PDNTextError`, both before anything is written.
:func:`write_games` to a path makes the text of every game first, then replaces a regular file (or
creates a new one) through a temporary file beside it, so a game that cannot be written leaves an
existing file as it was; a device or a FIFO (``/dev/null``, ``/dev/stdout``) is written into,
never replaced by a file.
"""

from __future__ import annotations

from draughts.pdn.errors import (
    PDNAmbiguousMoveError,
    PDNIllegalMoveError,
    PDNTextError,
    PDNUnknownVariantError,
    PDNWarning,
)
from draughts.pdn.game import Game, GameNode
from draughts.pdn.reader import parse_game, parse_games, read_game, read_games
from draughts.pdn.visitor import (
    GameBuilder,
    HeadersBuilder,
    SkipVisitor,
    StringExporter,
    read_headers,
    read_with,
)
from draughts.pdn.writer import write_game, write_games
from draughts.results import normalise_result, result_for, winner_of

__all__ = [
    "Game",
    "GameBuilder",
    "GameNode",
    "HeadersBuilder",
    "PDNAmbiguousMoveError",
    "PDNIllegalMoveError",
    "PDNTextError",
    "PDNUnknownVariantError",
    "PDNWarning",
    "SkipVisitor",
    "StringExporter",
    "normalise_result",
    "parse_game",
    "parse_games",
    "read_game",
    "read_games",
    "read_headers",
    "read_with",
    "result_for",
    "winner_of",
    "write_game",
    "write_games",
]
