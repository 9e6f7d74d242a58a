"""Compare polydraughts' legal moves with two independent libraries on thousands of positions.

The peers are py-draughts 1.10.1 (Frisian, Frysk!, Antidraughts, Breakthrough) and pydraughts
0.6.7 (Turkish, Frisian, Frysk!, Antidraughts, Breakthrough). Both import as ``draughts``, so each
lives in a virtual environment of its own (under ``--venv-dir``, default
``~/.cache/polydraughts-bench``, the environments ``benchmarks/perft.py --compare`` uses; created
and filled with pip on first use) and answers a small driver script run in a subprocess; neither
ever enters the environment polydraughts runs in.

For each variant the script builds positions with polydraughts (all from one seed, so a run is
reproducible):

* ``start``: the start position, given to each peer as *its own* start position (a check that the
  square translation is right);
* ``anchor``: positions that show each peer bug (see ``ANCHORS``);
* ``playout``: positions from random games played from the start;
* ``endgame``: a few pieces each, most of them kings;
* ``crowd``: many pieces of both kinds scattered over the board (long and competing captures);
* ``king-limit`` (Frisian, Frysk!): a few quiet moves played from an endgame, mostly with one king,
  so that the limit of three king moves in a row bites; the peer replays the same moves (neither
  peer reads the king-move counts from a FEN: pydraughts looks back at the game's moves).

Each position goes to the peer in the peer's own notation (translated through the board
coordinates of ``ruleset.geometry.coords``: pydraughts numbers Turkish squares a1 = 1 and stores
them with the rows reversed inside, which its own FEN reader undoes), and its legal moves come
back as start, end and captured squares. Moves are compared by identity: start, end and the set
of captured pieces. Every disagreement is classified by the first of ``EXPLANATIONS`` that
accounts for all of it (a known peer bug, one found by this script, a limitation the peer
documents), or else *unexplained*. Where the rule sources conflict (Turkish crowning in the middle
of a capture, how the Frisian king-move limit is counted) both peers make polydraughts' choices, so
no explanation of that kind is needed yet. A table of counts per variant and peer follows; the
exit status is 1 if a disagreement is unexplained or a peer raised an error (a peer too slow for
``--timeout`` on a position is reported, not counted).

Usage (polydraughts importable, e.g. its virtual environment or ``PYTHONPATH=src``)::

    python tools/peer_crosscheck.py                          # 2,000 positions per variant
    python tools/peer_crosscheck.py --positions 300 --variant turkish
    python tools/peer_crosscheck.py --peer py-draughts --seed 7 --show 3
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import venv
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import attrs

import draughts
from draughts import BLACK, WHITE, Color, MostValue, Move, Piece, Position, Precedence, Ruleset

Identity = tuple[int, int, frozenset[int]]

# --- the peers and their notations ---------------------------------------------------------------


class Notation(NamedTuple):
    """How a peer numbers one board: 1..N row by row, left to right as White sees the board."""

    size: int
    all_squares: bool
    """Every square is numbered (Turkish), or only the dark ones (bottom-left corner dark)."""
    from_top: bool
    """Square 1 is on Black's back row (PDN top-left), or on White's (a1 = 1)."""

    def coords(self) -> list[tuple[int, int]]:
        """``(x, y)`` of square 1, 2, ... (x = file from White's left, y = rank from White's side)."""
        rows = range(self.size - 1, -1, -1) if self.from_top else range(self.size)
        return [(x, y) for y in rows for x in range(self.size) if self.all_squares or (x + y) % 2 == 0]


DARK_10 = Notation(10, all_squares=False, from_top=True)
"""py-draughts and pydraughts on 10x10: 1 = b10 ... 46 = a1, 50 = i1 (PDN, as polydraughts)."""
TURKISH_A1 = Notation(8, all_squares=True, from_top=False)
"""pydraughts' external Turkish numbers: a1 = 1, h1 = 8, a8 = 57 (White's men start on 9-24)."""


class Peer(NamedTuple):
    name: str
    requirement: str
    variants: dict[str, tuple[str, Notation]]
    """polydraughts variant -> (the peer's name for it, its notation)."""


PEERS = {
    "py-draughts": Peer(
        "py-draughts",
        "py-draughts==1.10.1",
        {
            "frisian": ("frisian", DARK_10),
            "frysk": ("frysk", DARK_10),
            "antidraughts": ("antidraughts", DARK_10),
            "breakthrough": ("breakthrough", DARK_10),
        },
    ),
    "pydraughts": Peer(
        "pydraughts",
        "pydraughts==0.6.7",
        {
            "turkish": ("turkish", TURKISH_A1),
            "frisian": ("frisian", DARK_10),
            "frysk": ("frysk", DARK_10),
            "antidraughts": ("antidraughts", DARK_10),
            "breakthrough": ("breakthrough", DARK_10),
        },
    ),
}
VARIANTS = ("turkish", "frisian", "frysk", "antidraughts", "breakthrough")


class Translation:
    """polydraughts square numbers <-> a peer's, through the board coordinates of both."""

    def __init__(self, rules: Ruleset, notation: Notation) -> None:
        geometry = rules.geometry
        if (geometry.size, geometry.squares) != (notation.size, len(notation.coords())):
            raise ValueError(f"{notation} does not describe the board of {rules.name}")
        peer_number = {xy: number for number, xy in enumerate(notation.coords(), 1)}
        self.to_peer = {square: peer_number[geometry.coords[square]] for square in range(1, geometry.squares + 1)}
        self.to_ours = {peer: ours for ours, peer in self.to_peer.items()}

    def fen(self, position: Position) -> str:
        """``position`` as a FEN in the peer's numbers (no rule state: the peers read none)."""
        sides: dict[Color, list[tuple[int, str]]] = {WHITE: [], BLACK: []}
        for square, piece in position.pieces().items():
            number = self.to_peer[square]
            sides[piece.color].append((number, f"{'K' if piece.king else ''}{number}"))
        lists = [color.letter + ",".join(text for _, text in sorted(sides[color])) for color in (WHITE, BLACK)]
        return ":".join([position.turn.letter, *lists])

    def move(self, move: Move) -> tuple[int, int, list[int]]:
        """``move`` as (start, end, captured squares) in the peer's numbers."""
        return self.to_peer[move.start], self.to_peer[move.end], sorted(self.to_peer[c] for c in move.captured)

    def identity(self, path: Sequence[int], captured: Iterable[int]) -> Identity:
        """A peer's move (its path and captured squares) as a polydraughts identity."""
        return self.to_ours[path[0]], self.to_ours[path[-1]], frozenset(self.to_ours[c] for c in captured)

    def text(self, identity: Identity) -> str:
        """A move identity written in both numberings, e.g. ``57-1 (peer 57-1)``."""
        start, end, captured = identity

        def write(squares: Sequence[int]) -> str:
            return ("x" if captured else "-").join(map(str, squares))

        ours = [start, *sorted(captured), end] if captured else [start, end]
        return f"{write(ours)} (peer {write([self.to_peer[square] for square in ours])})"


# --- the positions -------------------------------------------------------------------------------


@attrs.frozen
class Case:
    """One position to compare: ``root`` (no rule state) and the moves played from it."""

    variant: str
    kind: str
    root: Position
    history: tuple[Move, ...] = ()
    peer_start: bool = False
    """Give the peer its own start position instead of a FEN (checks the translation)."""

    @property
    def final(self) -> Position:
        return replay(self.root, self.history)


def limit_binds(position: Position) -> bool:
    """Whether a king of the side to move has made as many quiet moves in a row as the rules allow."""
    moves = position.king_moves(position.turn)
    return moves is not None and moves[1] >= (position.ruleset.king_move_limit or 0)


def replay(root: Position, history: Iterable[Move]) -> Position:
    position = root
    for move in history:
        position = position.play(move)
    return position


def stateless(position: Position) -> Position:
    """The same pieces and side to move, without rule state (the king-move counts)."""
    return Position.from_pieces(position.ruleset, position.pieces(), position.turn)


def comparable(position: Position) -> bool:
    """Whether the position is still in play for move generation: where the first king wins, a
    position with a king has ended (polydraughts lists no moves there, the peers still do)."""
    rules = position.ruleset
    return not (rules.crowning_wins and position.squares(WHITE, kings=True) + position.squares(BLACK, kings=True))


def man_may_stand(rules: Ruleset, color: Color, square: int) -> bool:
    """Whether a man of ``color`` can stand on ``square``: not on its crowning row, not behind its
    first row of men (men never move backward onto it)."""
    _, y = rules.geometry.coords[square]
    row = y if color is WHITE else rules.board_size - 1 - y
    return rules.men_start_row - 1 <= row < rules.board_size - 1


def placement(rules: Ruleset, rng: random.Random, counts: dict[Color, tuple[int, int]], turn: Color) -> Position:
    """Random pieces: ``counts[color] = (kings, men)``, on squares where they can stand."""
    free = list(range(1, rules.geometry.squares + 1))
    rng.shuffle(free)
    pieces: dict[int, Piece] = {}
    for color in (WHITE, BLACK):
        kings, men = counts[color]
        for king in [True] * kings + [False] * men:
            for index, square in enumerate(free):
                if king or man_may_stand(rules, color, square):
                    pieces[square] = Piece(color, king)
                    del free[index]
                    break
    return Position.from_pieces(rules, pieces, turn)


def random_counts(rules: Ruleset, rng: random.Random, low: int, high: int, king_share: float) -> tuple[int, int]:
    pieces = rng.randint(low, min(high, rules.men_per_side))
    kings = 0 if rules.crowning_wins else sum(rng.random() < king_share for _ in range(pieces))
    return kings, pieces - kings


def placed_cases(
    rules: Ruleset, rng: random.Random, kind: str, count: int, low: int, high: int, king_share: float
) -> list[Case]:
    cases: list[Case] = []
    seen: set[Position] = set()
    for _ in range(20 * count):
        if len(cases) >= count:
            break
        counts = {color: random_counts(rules, rng, low, high, king_share) for color in (WHITE, BLACK)}
        position = placement(rules, rng, counts, rng.choice((WHITE, BLACK)))
        if position not in seen and comparable(position):
            seen.add(position)
            cases.append(Case(rules.name, kind, position))
    return cases


def playout_cases(
    rules: Ruleset, rng: random.Random, count: int, per_game: int = 8, max_plies: int = 300
) -> list[Case]:
    """Positions sampled from random games (``per_game`` from each), without rule state."""
    cases: list[Case] = []
    seen: set[Position] = set()
    while len(cases) < count:
        position = Position.initial(rules)
        game = []
        for _ in range(max_plies):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
            if comparable(position):
                game.append(stateless(position))
        for position in rng.sample(game, min(per_game, len(game))):
            if position not in seen and len(cases) < count:
                seen.add(position)
                cases.append(Case(rules.name, "playout", position))
    return cases


def king_limit_cases(rules: Ruleset, rng: random.Random, count: int) -> list[Case]:
    """Quiet moves from an endgame where the side to move has kings and men, mostly with one king,
    so that the king-move limit comes into play; compared after the last of them."""
    cases: list[Case] = []
    for _ in range(200 * count):
        if len(cases) >= count:
            break
        side = rng.choice((WHITE, BLACK))
        counts = {
            side: (rng.randint(1, 2), rng.randint(0, min(3, rules.men_per_side - 2))),  # no men: no limit
            side.opponent: random_counts(rules, rng, 1, 3, 0.5),
        }
        root = placement(rules, rng, counts, side)
        position, history, favourite = root, [], None
        for _ply in range(rng.choice((6, 8))):
            moves: Sequence[Move] = position.legal_moves()
            if not moves or any(move.captured for move in moves):
                break  # the limit is about quiet moves: keep the histories free of captures
            if position.turn is side and rng.random() < 0.9:
                kings = [move for move in moves if position.is_king_at(move.start)]
                moves = [move for move in kings if move.start == favourite] or kings or moves
            move = rng.choice(moves)
            if position.turn is side:
                favourite = move.end if position.is_king_at(move.start) else None
            history.append(move)
            position = position.play(move)
        else:
            cases.append(Case(rules.name, "king-limit", root, tuple(history)))
    return cases


ANCHORS = {
    # FAMILY.md (section 6): pydraughts moves the king on a8 (57) over its own man on a2 (9) to a1,
    # and Black's king on d8 (60) over its own man on f8 (62) to g8 and h8.
    # Found here: enemy pieces do not stop it either (h3-e3 over g3 and f3, which it cannot take).
    "turkish": ["W:WK57,9:B64", "B:W9:BK60,62", "B:Wf3,g3:BKh3"],
    # Three kings (official: worth more than five men) against five men (pydraughts: 4.503 < 5).
    # Kings 7 and 11 take the same five pieces; pydraughts adds 1+1.501+1+1+1.501 for king 7's
    # order and gets 6.001999999999999, less than 6.002: it drops king 7's captures.
    "frisian": ["W:W46:BK11,14,20,K21,23,32,K36,41", "B:W18,K21,29,37,K38:BK7,K11"],
    "frysk": ["B:W18,K21,29,37,K38:BK7,K11"],
}
"""Positions the notes name, per variant, as FENs in polydraughts' numbers."""

SHARES = {"playout": 0.4, "endgame": 0.3, "crowd": 0.3}
LIMIT_SHARES = {"playout": 0.35, "endgame": 0.25, "crowd": 0.25, "king-limit": 0.15}


def cases_for(variant: str, positions: int, seed: int) -> list[Case]:
    """``positions`` cases for ``variant``, the same ones for the same seed."""
    rules = draughts.get_variant(variant)
    rng = random.Random(seed * 1_000_003 + zlib.crc32(variant.encode()))
    shares = LIMIT_SHARES if rules.king_move_limit else SHARES
    wanted = {kind: round(share * positions) for kind, share in shares.items()}
    cases = [Case(variant, "start", Position.initial(rules), peer_start=True)]
    cases += [Case(variant, "anchor", Position.from_fen(rules, fen)) for fen in ANCHORS.get(variant, [])]
    cases += playout_cases(rules, rng, wanted["playout"])
    cases += placed_cases(rules, rng, "endgame", wanted["endgame"], 1, 5, 0.6)
    cases += placed_cases(rules, rng, "crowd", wanted["crowd"], 4, 12, 0.35)
    if "king-limit" in wanted:
        cases += king_limit_cases(rules, rng, wanted["king-limit"])
    return cases


# --- running a peer ------------------------------------------------------------------------------

# Run by the peer's interpreter, from an empty directory: reads one JSON case a line from the file
# named by argv[2] and prints one JSON answer a line: the legal moves as [path, captured] in the
# peer's numbers, or an error (an exception, or no answer within argv[3] seconds).
DRIVER = r"""
import json, signal, sys, time

kind, cases_path, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])

if kind == "pydraughts":
    from draughts import Board

    def load(variant, fen):
        return Board(variant) if fen == "startpos" else Board(variant, fen)

    def moves(board):
        return [(list(m.steps_move), sorted(m.captures or [])) for m in board.legal_moves()]

    def push(board, index):
        board.push(board.legal_moves()[index])
else:
    from draughts.boards import AntidraughtsBoard, BreakthroughBoard, FrisianBoard, FryskBoard

    BOARDS = {"frisian": FrisianBoard, "frysk": FryskBoard, "antidraughts": AntidraughtsBoard,
              "breakthrough": BreakthroughBoard}

    def load(variant, fen):
        return BOARDS[variant]() if fen == "startpos" else BOARDS[variant].from_fen(fen)

    def moves(board):
        return [([s + 1 for s in m.square_list], sorted(c + 1 for c in m.captured_list))
                for m in board.legal_moves]

    def push(board, index):
        board.push(board.legal_moves[index])


class Late(Exception):
    pass


def alarm(signum, frame):
    raise Late()


timed = hasattr(signal, "setitimer")
if timed:
    signal.signal(signal.SIGALRM, alarm)
with open(cases_path, encoding="utf-8") as cases:
    for line in cases:
        case = json.loads(line)
        answer = {"id": case["id"]}
        began = time.perf_counter()
        if timed:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            board = load(case["variant"], case["fen"])
            for ply, (start, end, captured) in enumerate(case["history"]):
                found = [i for i, (path, caps) in enumerate(moves(board))
                         if (path[0], path[-1], sorted(caps)) == (start, end, sorted(captured))]
                if not found:
                    raise LookupError(f"move {ply + 1} of the history, {start}-{end} x {captured}, is not legal")
                push(board, found[0])
            answer["moves"] = moves(board)
        except Late:
            answer["error"] = f"no answer within {timeout:g} s"
            answer["late"] = True
        except Exception as error:
            answer["error"] = f"{type(error).__name__}: {error}"
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
        answer["seconds"] = time.perf_counter() - began
        print(json.dumps(answer), flush=True)
"""


def peer_python(venv_dir: Path, peer: Peer) -> Path:
    """The interpreter of ``peer``'s virtual environment, created and filled on first use."""
    home = venv_dir / peer.name
    python = home / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    wanted = peer.requirement.split("==")[1]
    check = [str(python), "-c", f"import importlib.metadata as m; print(m.version({peer.name!r}))"]
    if python.exists():
        found = subprocess.run(check, capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == wanted:
            return python
    print(f"creating {home} with {peer.requirement} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", peer.requirement], check=True)
    return python


def ask_peer(
    python: Path, peer: Peer, cases: Sequence[Case], translation: Translation, timeout: float, progress: str
) -> list[dict[str, object]]:
    """Every case's answer from the peer, in order (a dict with ``moves`` or ``error``)."""
    peer_variant = peer.variants[cases[0].variant][0]
    with tempfile.TemporaryDirectory() as scratch:
        driver, requests = Path(scratch) / "peer_driver.py", Path(scratch) / "cases.jsonl"
        driver.write_text(DRIVER, encoding="utf-8")
        with requests.open("w", encoding="utf-8") as out:
            for index, case in enumerate(cases):
                request = {
                    "id": index,
                    "variant": peer_variant,
                    "fen": "startpos" if case.peer_start else translation.fen(case.root),
                    "history": [translation.move(move) for move in case.history],
                }
                out.write(json.dumps(request) + "\n")
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        command = [str(python), str(driver), peer.name, str(requests), str(timeout)]
        answers: list[dict[str, object]] = []
        # From an empty directory, so that no 'draughts' but the peer's can be imported.
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=scratch, env=env) as process:
            assert process.stdout is not None
            for line in process.stdout:
                answers.append(json.loads(line))
                if sys.stderr.isatty() and len(answers) % 50 == 0:
                    print(f"\r{progress}: {len(answers)}/{len(cases)}", end="", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
        if process.returncode != 0 or len(answers) != len(cases):
            raise RuntimeError(f"{peer.name} stopped after {len(answers)} of {len(cases)} cases")
    return answers


# --- classifying disagreements -------------------------------------------------------------------

KNOWN_BUG, NEW_BUG, LIMITATION, UNEXPLAINED, PEER_ERROR, LATE = (
    "known peer bug",
    "peer bug found here",
    "peer limitation",
    "unexplained",
    "peer error",
    "no answer in time",
)


class Explanation(NamedTuple):
    """A reason two move lists may differ, and a test that the reason accounts for all of it."""

    peer: str
    variants: frozenset[str]
    verdict: str
    name: str
    explains: Callable[[Case, set[Identity], set[Identity]], bool]


def same_as_under(change: Callable[[Ruleset], Ruleset]) -> Callable[[Case, set[Identity], set[Identity]], bool]:
    """The peer's moves are exactly polydraughts' under the ruleset ``change`` makes (the peer
    plays that rule instead)."""

    def explains(case: Case, ours: set[Identity], theirs: set[Identity]) -> bool:
        return same_moves_under(change, case) == theirs

    return explains


def same_moves_under(change: Callable[[Ruleset], Ruleset], case: Case) -> set[Identity]:
    """polydraughts' moves in ``case`` under the ruleset ``change`` makes of the case's."""
    rules = change(case.root.ruleset)
    position = replay(Position.from_pieces(rules, case.root.pieces(), case.root.turn), case.history)
    return {move.identity for move in position.legal_moves()}


def passes_over_a_piece(case: Case, ours: set[Identity], theirs: set[Identity]) -> bool:
    """The peer has every move polydraughts has, and its extra moves are quiet king moves along a
    rank or file with a piece (of either side) between the start and the end."""
    if not ours <= theirs:
        return False
    position = case.final
    coords = position.ruleset.geometry.coords
    occupied = {coords[square] for square in position.pieces()}
    for start, end, captured in theirs - ours:
        if captured or not position.is_king_at(start):
            return False
        (x0, y0), (x1, y1) = coords[start], coords[end]
        if x0 != x1 and y0 != y1:
            return False
        steps = max(abs(x1 - x0), abs(y1 - y0))
        dx, dy = (x1 - x0) // steps, (y1 - y0) // steps
        if not any((x0 + i * dx, y0 + i * dy) in occupied for i in range(1, steps)):
            return False
    return True


def float_sums_lose_moves(case: Case, ours: set[Identity], theirs: set[Identity]) -> bool:
    """The peer keeps some, not all, of the captures of the highest value (counting a king as 1.501
    men, as it does): it adds the values up in floating point in the order of capture, and a sum
    such as 1 + 1.501 + 1 + 1 + 1.501 rounds below the same numbers added in another order, so it
    drops captures of the same pieces in another order and other captures of the same value."""
    best = same_moves_under(_pydraughts_value, case)
    if not theirs or not theirs < best:
        return False
    for _, _, captured in best - theirs:
        kings = sum(1 for square in captured if case.final.is_king_at(square))
        if not order_matters(len(captured) - kings, kings):
            return False
    return True


@functools.cache
def order_matters(men: int, kings: int) -> bool:
    """Whether adding ``men`` times 1.0 and ``kings`` times 1.501 in floating point gives different
    sums in different orders (first for three men and two kings)."""
    sums = set()
    for places in itertools.islice(itertools.combinations(range(men + kings), kings), 100_000):
        total = 0.0
        for index in range(men + kings):
            total += 1.501 if index in places else 1.0
        sums.add(total)
        if len(sums) > 1:
            return True
    return False


def _pydraughts_value(rules: Ruleset) -> Ruleset:
    return attrs.evolve(rules, precedence=(MostValue(man=1000, king=1501), Precedence.WITH_KING))


def _no_king_limit(rules: Ruleset) -> Ruleset:
    return attrs.evolve(rules, king_move_limit=None)


EXPLANATIONS = (
    Explanation(
        "pydraughts",
        frozenset({"turkish"}),
        KNOWN_BUG,
        "a king's quiet move passes over pieces, its own or enemy ones it cannot capture (its Turkish "
        "perft 5 is 85,146; kish's published 85,090)",
        passes_over_a_piece,
    ),
    Explanation(
        "pydraughts",
        frozenset({"frisian", "frysk"}),
        KNOWN_BUG,
        "a king counts 1.501 men in the capture value (FRI-2011 art. 11: n kings are worth more than 2n-1 men)",
        same_as_under(_pydraughts_value),
    ),
    Explanation(
        "pydraughts",
        frozenset({"frisian", "frysk"}),
        NEW_BUG,
        "captures of the highest value lost to floating-point rounding (it compares sums of 1.501 "
        "per king added in capture order, e.g. 1+1.501+1+1+1.501 < 1.501+1.501+1+1+1)",
        float_sums_lose_moves,
    ),
    Explanation(
        "py-draughts",
        frozenset({"frisian", "frysk"}),
        LIMITATION,
        "the limit of three king moves in a row is not enforced (FRI-2011 art. 17; its docstring: "
        "'tracked but not currently enforced')",
        same_as_under(_no_king_limit),
    ),
)


def classify(peer: str, case: Case, ours: set[Identity], theirs: set[Identity]) -> tuple[str, str]:
    """(verdict, reason) of one comparison; ``("agree", "")`` when the move sets are equal."""
    if ours == theirs:
        return "agree", ""
    for explanation in EXPLANATIONS:
        if (
            peer == explanation.peer
            and case.variant in explanation.variants
            and explanation.explains(case, ours, theirs)
        ):
            return explanation.verdict, explanation.name
    return UNEXPLAINED, "polydraughts and the peer disagree"


# --- the run -------------------------------------------------------------------------------------


class Finding(NamedTuple):
    peer: str
    case: Case
    verdict: str
    reason: str
    ours: set[Identity]
    theirs: set[Identity]
    error: str


def describe(finding: Finding, translation: Translation) -> str:
    case = finding.case
    peer_fen = "its start position" if case.peer_start else translation.fen(case.root)
    lines = [
        f"  [{finding.peer} {case.variant} {case.kind}] {finding.verdict}: {finding.reason}",
        f"    FEN {case.root.fen(numeric=True)}   (peer: {peer_fen})",
    ]
    if case.history:
        lines.append(f"    then {' '.join(str(move) for move in case.history)}  ->  {case.final.fen(numeric=True)}")
    if finding.error:
        lines.append(f"    peer error: {finding.error}")
    else:
        for label, moves in (
            ("only polydraughts", finding.ours - finding.theirs),
            ("only the peer", finding.theirs - finding.ours),
        ):
            if moves:
                shown = sorted(moves, key=lambda m: (m[0], m[1], sorted(m[2])))
                lines.append(
                    f"    {label}: {', '.join(translation.text(move) for move in shown[:8])}"
                    + (f" ... ({len(moves)})" if len(moves) > 8 else "")
                )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tools/peer_crosscheck.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=2000, help="positions per variant (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions (default 1)")
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="only this variant (repeatable)")
    parser.add_argument("--peer", action="append", choices=sorted(PEERS), help="only this peer (repeatable)")
    parser.add_argument("--show", type=int, default=1, help="examples printed per explained reason (default 1)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a peer may take on one position")
    parser.add_argument(
        "--venv-dir",
        type=Path,
        default=Path.home() / ".cache" / "polydraughts-bench",
        help="where the peers' virtual environments live (default: ~/.cache/polydraughts-bench)",
    )
    args = parser.parse_args(argv)
    if args.positions < 10:
        parser.error(f"--positions {args.positions} must be at least 10")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    peers = [PEERS[name] for name in (args.peer or sorted(PEERS))]
    variants = args.variant or list(VARIANTS)
    print(f"polydraughts {draughts.__version__}; {args.positions} positions per variant, seed {args.seed}")
    findings: list[Finding] = []
    rows = []
    translations: dict[tuple[str, str], Translation] = {}
    for variant in variants:
        users = [peer for peer in peers if variant in peer.variants]
        if not users:
            continue
        cases = cases_for(variant, args.positions, args.seed)
        kinds = Counter(case.kind for case in cases)
        limit = sum(1 for case in cases if case.kind == "king-limit" and limit_binds(case.final))
        print(
            f"{variant}: {len(cases)} positions ({', '.join(f'{n} {k}' for k, n in kinds.items())})"
            + (f"; the king-move limit binds in {limit}" if limit else ""),
            flush=True,
        )
        ours = [{move.identity for move in case.final.legal_moves()} for case in cases]
        for peer in users:
            rules = draughts.get_variant(variant)
            translation = translations.setdefault((peer.name, variant), Translation(rules, peer.variants[variant][1]))
            python = peer_python(args.venv_dir, peer)
            began = time.perf_counter()
            answers = ask_peer(python, peer, cases, translation, args.timeout, f"{peer.name} {variant}")
            seconds = time.perf_counter() - began
            verdicts: Counter[str] = Counter()
            for case, mine, answer in zip(cases, ours, answers, strict=True):
                error = str(answer.get("error", ""))
                if error:
                    verdict = LATE if answer.get("late") else PEER_ERROR
                    reason, theirs = "the peer gave no move list", set()
                else:
                    moves = answer["moves"]
                    assert isinstance(moves, list)
                    theirs = {translation.identity(path, captured) for path, captured in moves}
                    verdict, reason = classify(peer.name, case, mine, theirs)
                verdicts[verdict] += 1
                if verdict != "agree":
                    findings.append(Finding(peer.name, case, verdict, reason, mine, theirs, error))
            rows.append((peer.name, variant, len(cases), verdicts, seconds))
    print()
    columns = [
        ("known bug", KNOWN_BUG),
        ("new bug", NEW_BUG),
        ("limitation", LIMITATION),
        ("unexplained", UNEXPLAINED),
        ("peer error", PEER_ERROR),
        ("late", LATE),
    ]
    header = f"{'peer':<12} {'variant':<13} {'positions':>9} {'agree':>6} {'disagree':>8}"
    header += "".join(f" {label:>{len(label)}}" for label, _ in columns) + f" {'peer s':>6}"
    print(header)
    print("-" * len(header))
    for peer_name, variant, total, verdicts, seconds in rows:
        line = f"{peer_name:<12} {variant:<13} {total:>9} {verdicts['agree']:>6} {total - verdicts['agree']:>8}"
        line += "".join(f" {verdicts[verdict]:>{len(label)}}" for label, verdict in columns)
        print(line + f" {seconds:>6.0f}")
    print()
    reasons = Counter((f.peer, f.case.variant, f.verdict, f.reason) for f in findings)
    for (peer_name, variant, verdict, reason), count in sorted(reasons.items()):
        print(f"{peer_name} {variant}: {count} x {verdict}: {reason}")
        shown = [
            f
            for f in findings
            if (f.peer, f.case.variant, f.verdict, f.reason) == (peer_name, variant, verdict, reason)
        ]
        limit = len(shown) if verdict in (UNEXPLAINED, PEER_ERROR, LATE) else args.show
        for finding in shown[:limit]:
            print(describe(finding, translations[(finding.peer, finding.case.variant)]))
    bad = sum(1 for f in findings if f.verdict in (UNEXPLAINED, PEER_ERROR))
    late = sum(1 for f in findings if f.verdict == LATE)
    if late:
        print(f"\n{late} positions unanswered within --timeout {args.timeout:g} s (not counted as disagreements)")
    if bad:
        print(f"\n{bad} disagreements unexplained, or peer errors")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
