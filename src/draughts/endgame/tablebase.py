"""The tablebase of one ruleset: building tables in dependency order, probing positions."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from draughts._core.native import native_rules
from draughts._core.tables import compile_rules
from draughts._text import excerpt
from draughts.board import Board
from draughts.color import Color
from draughts.endgame import phases, storage
from draughts.endgame.codes import DRAW, LOSS, WIN
from draughts.endgame.errors import TablebaseError, TablebaseFileError
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material, build_order, dependencies, materials_up_to
from draughts.endgame.phases import phase
from draughts.endgame.probe import NodeProbe, node_probe
from draughts.endgame.solve import PackedTable, Solved, Value, solve, terminal_value
from draughts.endgame.symmetry import colour_symmetric, mirrored, mirrored_pairs
from draughts.endgame.table import Table, code_name, write_table
from draughts.endgame.within import INF, has_draw_rules, keeps_within, men_advance, plan_of
from draughts.move import Move
from draughts.notation import move_text
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.names import get_variant

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "Tablebase",
    "Verdict",
    "build_material",
    "default_directory",
    "has_draw_rules",
    "masks_of",
    "material_of",
]

DEFAULT_MAX_POSITIONS = 50_000_000
"""The largest material (entries, both sides to move) a build accepts unless told otherwise. A
material of kings only is solved whole, some 60 bytes an entry with flying kings (about 3 GB at
this size); one with men slice by slice, some 20 to 30 (see the Speed section of the endgame
page). International's five pieces need ``max_positions=250_000_000`` (``MKvMKK``: 210 million
entries, about 4 GiB)."""

SLICED_BYTES, WHOLE_BYTES = 30, 60
"""Bytes an entry a build takes at its peak, about: a material solved slice by slice, and whole
(measured with flying kings: ``benchmarks/endgame.py --isolate``)."""


def default_directory() -> Path:
    """Where tables live unless a directory is given: ``$DRAUGHTS_TABLEBASES``, else
    ``$XDG_CACHE_HOME/polydraughts/tablebases`` (``~/.cache`` without ``XDG_CACHE_HOME``)."""
    explicit = os.environ.get("DRAUGHTS_TABLEBASES")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "polydraughts" / "tablebases"


@attrs.frozen
class Verdict:
    """What a tablebase says about a position, for the side to move.

    Attributes:
        result: ``"win"``, ``"loss"`` or ``"draw"``: the pure game-theoretic value (no move-count
            or endgame draw rules).
        plies: For a win, the plies to the end of the game under best play (the winner takes the
            shortest way, the loser the longest); for a loss likewise; None for a draw.
        within_rules: The result under the ruleset's move-count and endgame draw rules, for the
            position with those counters just reset (see :doc:`/endgame`): a
            theoretical win the rules would draw is ``"draw"`` here. The same as ``result`` in a
            ruleset without such rules; None only in a ruleset with a count that captures or
            crownings do not restart (``draughts.endgame.within.known``).
    """

    result: str
    plies: int | None
    within_rules: str | None

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict."""
        return {"result": self.result, "plies": self.plies, "within_rules": self.within_rules}


def material_of(ruleset: Ruleset, white: int, black: int, kings: int) -> Material:
    """The material of a position given as bit masks."""
    white_kings, black_kings = (white & kings).bit_count(), (black & kings).bit_count()
    return Material.of_counts(
        ruleset, (white.bit_count() - white_kings, white_kings), (black.bit_count() - black_kings, black_kings)
    )


def masks_of(position: Position) -> tuple[int, int, int, int]:
    """``(white, black, kings, turn)`` of a position, as bit masks of the generator's layout."""
    tables = compile_rules(position.ruleset)
    white = black = kings = 0
    for square, piece in position.pieces().items():
        bit = 1 << tables.bit_of_square[square]
        if piece.color is Color.WHITE:
            white |= bit
        else:
            black |= bit
        if piece.king:
            kings |= bit
    return white, black, kings, int(position.turn)


def _position_of(game: Position | Board) -> Position:
    """A board's current position (the tables answer for a position, whatever led to it)."""
    return game.position if isinstance(game, Board) else game


class Tablebase:
    """The endgame tables of one ruleset, in one directory.

    >>> import tempfile, draughts
    >>> tb = Tablebase("american", tempfile.mkdtemp())
    >>> tb.build("KvK")
    [Material('KvK')]
    >>> tb.stats("KvK")["black"]["win"], tb.stats("KvK")["black"]["longest_win"]
    (230, 11)
    >>> tb.probe(draughts.Position.from_fen("american", "B:WK1:BK32"))
    Verdict(result='draw', plies=None, within_rules='draw')

    Args:
        ruleset: The rules (a ruleset, a variant name, or a ruleset file's path as the command
            line takes them).
        directory: Where the table files are (default: :func:`default_directory`). Files carry
            the ruleset's key, so tables of many rulesets can share a directory.
        max_positions: The largest material a build accepts (entries of both sides to move).
    """

    def __init__(
        self,
        ruleset: Ruleset | str,
        directory: str | os.PathLike[str] | None = None,
        *,
        max_positions: int = DEFAULT_MAX_POSITIONS,
    ) -> None:
        self.rules = get_variant(ruleset)
        self.key = storage.ruleset_key(self.rules)
        self.directory = Path(directory) if directory is not None else default_directory()
        self.max_positions = max_positions
        self._tables: dict[Material, Table] = {}

    def __repr__(self) -> str:
        return f"Tablebase({self.rules.name!r}, {str(self.directory)!r})"

    # --- files ---

    def path(self, material: Material | str) -> Path:
        """The file of ``material``'s table."""
        return self.directory / storage.file_name(Material.parse(material), self.key)

    def has(self, material: Material | str) -> bool:
        """Whether ``material``'s table is built and passes its checks."""
        try:
            self.table(material)
        except TablebaseError:
            return False
        return True

    def table(self, material: Material | str) -> Table:
        """``material``'s table, read and checked once.

        Raises:
            TablebaseError: not built; :class:`TablebaseFileError` if the file is damaged or foreign.
        """
        material = Material.parse(material)
        table = self._tables.get(material)
        if table is None:
            path = self.path(material)
            if not path.exists():
                raise TablebaseError(
                    f"no table of {material.name} for {self.rules.name} in {str(self.directory)!r}: build it with "
                    f"draughts endgame build {self.rules.name} {material.name} --tablebases {self.directory}"
                )
            most = storage.largest_file(Indexer(self.rules, material).size)
            header, body = storage.read(path, self.key, material, most)
            table = Table(self.rules, material, header, body)
            self._tables[material] = table
        return table

    # --- building ---

    def plan(
        self, material: Material | str | Iterable[Material | str] | None = None, *, pieces: int | None = None
    ) -> list[list[Material]]:
        """The materials a build of ``material`` (or of every material up to ``pieces`` pieces)
        needs, in waves: each wave depends only on the ones before it.

        Raises:
            TablebaseError: nothing asked, a material the ruleset cannot tabulate (rule state,
                kings where crowning wins), or one larger than ``max_positions``: all before any
                table is built or any memory taken.
        """
        roots = self._roots(material, pieces)
        for root in roots:  # before the graph: a request far too large is answered at once
            self._check(root)
        graph = dependencies(self.rules, roots)
        for item in graph:
            self._check(item)
        return build_order(graph)

    def _roots(self, material: Any, pieces: int | None) -> list[Material]:
        if material is None and pieces is None:
            raise TablebaseError("build needs a material ('KKKvK') or pieces=N")
        roots: list[Material] = []
        if pieces is not None:
            if isinstance(pieces, bool) or not isinstance(pieces, int) or pieces < 2:
                raise TablebaseError(f"pieces {excerpt(pieces)} must be a number from 2 up")
            self._check_pieces(pieces)
            roots.extend(materials_up_to(self.rules, pieces))
        if material is not None:
            items = [material] if isinstance(material, str | Material) else list(material)
            roots.extend(Material.parse(item) for item in items)
        return roots

    def _check_pieces(self, pieces: int) -> None:
        """Refuse ``pieces`` before listing its materials (hundreds of thousands at 40 pieces).

        Every material of ``pieces`` pieces is a root of the build, so one of them too large
        (the kings split evenly; men where crowning wins) makes the whole build impossible.
        """
        most = 2 * self.rules.men_per_side
        if pieces > most:
            raise TablebaseError(f"pieces={pieces}: {self.rules.name} has {most} pieces on the board at most")
        first, second = pieces - pieces // 2, pieces // 2
        kind = (lambda n: (n, 0)) if self.rules.crowning_wins else (lambda n: (0, n))
        try:
            self._check(Material(kind(first), kind(second)))
        except TablebaseError as error:
            raise TablebaseError(f"pieces={pieces}: {error}") from None

    def _check(self, material: Material) -> None:
        rules = self.rules
        if material.has_empty_side:
            raise TablebaseError(f"material {material.name} has a side without pieces: the game is over")
        if rules.crowning_wins and (material.first[1] or material.second[1]):
            raise TablebaseError(
                f"material {material.name} has kings, but in {rules.name} (crowning_wins) the first king ends the game"
            )
        if rules.king_move_limit and any(men and kings for men, kings in (material.first, material.second)):
            raise TablebaseError(
                f"material {material.name} under {rules.name}: a side with men and kings carries the "
                f"king_move_limit count ({rules.king_move_limit} king moves in a row), which the tables do not index"
            )
        if rules.men_per_side < max(sum(material.first), sum(material.second)):
            raise TablebaseError(
                f"material {material.name}: {rules.name} starts with {rules.men_per_side} pieces a side"
            )
        size = Indexer(rules, material).size
        if size > self.max_positions:
            sliced = (material.first[0] or material.second[0]) and men_advance(rules) is not None
            need = size * (SLICED_BYTES if sliced else WHOLE_BYTES) // 2**20
            raise TablebaseError(
                f"material {material.name} of {rules.name} has {size:,} entries, more than max_positions="
                f"{self.max_positions:,} (about {need:,} MiB to build): ask for fewer pieces, or raise max_positions"
            )

    def build(
        self,
        material: Material | str | Iterable[Material | str] | None = None,
        *,
        pieces: int | None = None,
        executor: Executor | None = None,
        progress: bool | None = None,
        symmetry: bool = True,
    ) -> list[Material]:
        """Build ``material``'s table and every smaller one it can turn into (or every material
        up to ``pieces`` pieces); tables already built are kept. Returns the materials built now.

        Scheduling: the materials form a DAG (a capture or crowning leads only to smaller
        materials). A material is submitted as soon as every table it depends on is on disk, so
        independent materials run at the same time on ``executor`` (any
        :class:`concurrent.futures.Executor`: threads, processes, a Dask client's
        ``get_executor()``); each task reads its dependencies from the directory and writes its
        own file, so the workers share nothing but the directory. Without an executor the
        materials are built one after another in this process. Temporary files that killed
        builds left in the directory are removed first (``draughts.endgame.storage.remove_stale``).

        Args:
            material: A material name, a :class:`Material`, or several.
            pieces: Build every material with at most this many pieces.
            executor: Where to run the builds.
            progress: Print a line per material to standard error (default: when it is a terminal).
            symmetry: Where the ruleset treats both colours alike
                (``draughts.endgame.symmetry.colour_symmetric``), solve one material of each
                colour-swapped pair and make the other's table from it (the same values, byte
                for byte, in a fraction of the time; its header says ``mirrored_from``).
        """
        waves = self.plan(material, pieces=pieces)
        storage.remove_stale(self.directory)  # what killed builds left; running builds' files are locked
        todo = [item for wave in waves for item in wave if not self.has(item)]
        graph = dependencies(self.rules, todo)
        mirrored = mirrored_pairs(self.rules, todo, self.has) if symmetry else {}
        for item, twin in mirrored.items():
            graph[item] = [twin]  # made from its twin alone
        show = sys.stderr.isatty() if progress is None else progress
        reporter = _Progress(len(todo), show)
        if executor is None:
            order = sorted(todo, key=lambda m: (_wave_of(waves, m), m in mirrored))
            self._in_turn(order, graph, mirrored, reporter)
        else:
            self._schedule(todo, graph, executor, reporter, mirrored)
        self._tables.clear()
        return todo

    def _in_turn(
        self,
        order: list[Material],
        graph: dict[Material, list[Material]],
        mirrored: dict[Material, Material],
        reporter: _Progress,
    ) -> None:
        """Build ``order`` one material after another in this process, each table written on a
        thread of its own while the next material is solved, unless that one needs it: the
        writing (the counts, the packing, the checksum, the disk) runs beside the solve. One
        table waits to be written at most (the memory of one more material's values). While
        phases are recorded (``draughts.endgame.phases``), each table is written before the next
        solve starts, so that each phase's CPU time is its own."""
        overlap = not phases.recording()
        with ThreadPoolExecutor(1, thread_name_prefix="tablebase-writer") as writer:
            clock = _without(writer)
            pending: tuple[Material, Future[None]] | None = None
            for item in order:
                if pending is not None and pending[0] in graph[item]:
                    _written(pending, reporter)
                    pending = None
                reporter.start(item)
                make = _mirror_made if item in mirrored else _solved
                made = make(self.rules, item, self.directory, clock)
                if pending is not None:
                    _written(pending, reporter)
                # Beside a solve, on the writer's thread alone (see _without); else on the build's threads.
                pending = (item, writer.submit(_write, made, 1 if overlap else None))
                del made
                if not overlap:
                    _written(pending, reporter)
                    pending = None
            if pending is not None:
                _written(pending, reporter)

    def _schedule(
        self,
        todo: list[Material],
        graph: dict[Material, list[Material]],
        executor: Executor,
        reporter: _Progress,
        mirrored: dict[Material, Material],
    ) -> None:
        waiting = {item: {dep for dep in graph[item] if dep in todo} for item in todo}
        running: dict[Future[Any], Material] = {}
        while waiting or running:
            for item in [m for m, deps in waiting.items() if not deps]:
                del waiting[item]
                reporter.start(item)
                running[executor.submit(_task_of(mirrored, item), self.rules, item, self.directory)] = item
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                item = running.pop(future)
                future.result()
                reporter.done(item)
                for deps in waiting.values():
                    deps.discard(item)

    # --- probing ---

    def value(self, white: int, black: int, kings: int, turn: int) -> Value:
        """``(code, plies)`` of a position given as bit masks (see ``masks_of``)."""
        own, opp = (white, black) if turn == 0 else (black, white)
        over = terminal_value(self.rules, own, kings)
        if over is not None:
            return over
        if not opp:
            return self._one_ply(white, black, kings, turn)
        code, plies = self.table(material_of(self.rules, white, black, kings)).value(white, black, kings, turn)
        code_name(code)  # a code no position has (a hand-made file) raises TablebaseFileError here
        return code, plies

    def _one_ply(self, white: int, black: int, kings: int, turn: int) -> Value:
        """The value where the opponent has no piece left (never reached by a move, but a position)."""
        best: Value | None = None
        for child in _children(self.rules, white, black, kings, turn):
            best = _better(best, self.value(*child))
        return best if best is not None else ((WIN, 0) if self.rules.no_move_wins else (LOSS, 0))

    def probe(self, position: Position | Board) -> Verdict:
        """The verdict of ``position`` for the side to move (a :class:`~draughts.Board`'s current
        position, as python-chess's probes take a board; the verdict within the rules is the one
        with the draw counts just reset, not the board's own counts).

        A material whose table is not built, but whose mirror's is (``KvKKK`` and ``KKKvK``), is
        read from the mirror: the position with colours swapped and the board turned round
        (:meth:`~draughts.Position.mirror`) is the same game for the side to move.

        Raises:
            TablebaseError: the position is of other rules, or its material's table is not built.
        """
        position = self._oriented(_position_of(position))
        white, black, kings, turn = self._masks(position)
        code, plies = self.value(white, black, kings, turn)
        within = self.within(white, black, kings, turn)
        return Verdict(code_name(code), None if code == DRAW else plies, None if within is None else code_name(within))

    def _oriented(self, position: Position) -> Position:
        """``position``, or its mirror where only the mirror's table is built."""
        white, black, kings, _ = self._masks(position)
        if not white or not black:
            return position
        material = material_of(self.rules, white, black, kings)
        if material != material.mirrored() and not self.has(material) and self.has(material.mirrored()):
            return position.mirror()
        return position

    def within(self, white: int, black: int, kings: int, turn: int) -> int | None:
        """The code of a position under the draw rules, counters just reset (None: not known)."""
        own, opp = (white, black) if turn == 0 else (black, white)
        if terminal_value(self.rules, own, kings) is not None or not opp or not has_draw_rules(self.rules):
            return self.value(white, black, kings, turn)[0]
        return self.table(material_of(self.rules, white, black, kings)).within(white, black, kings, turn)

    def best_moves(self, position: Position | Board) -> list[Move]:
        """The moves that keep the value: the fastest wins from a won position, every drawing move
        from a drawn one, the longest defences from a lost one (empty where the game is over).

        ``str(move)`` writes a move by square numbers whatever the variant (a move does not know
        its variant): :meth:`best_move_texts` writes them as the variant does."""
        position = _position_of(position)
        verdict = self.probe(position)
        chosen = []
        for move in position.legal_moves():
            child = self.probe(position.play(move))
            if _keeps(verdict, child):
                chosen.append(move)
        return chosen

    def best_move_texts(self, position: Position | Board) -> list[str]:
        """:meth:`best_moves` as the variant writes them (``b2-a3``, ``c3:e5`` in Russian; ``28-24`` in
        American), the texts :meth:`draughts.Board.push_text` reads back.

        >>> import tempfile, draughts
        >>> tb = Tablebase("russian", tempfile.mkdtemp())
        >>> _ = tb.build("KvK")
        >>> tb.best_move_texts(draughts.Board("russian", "W:WKa1:BKh2"))
        ['a1-h8', 'a1-g7', 'a1-f6', 'a1-d4', 'a1-c3', 'a1-b2']
        """
        position = _position_of(position)
        return [move_text(position, move) for move in self.best_moves(position)]

    def stats(self, material: Material | str) -> dict[str, Any]:
        """Per side to move (``"white"``, ``"black"``): positions, wins, losses, draws, the
        longest win in plies and a FEN of a position that needs it."""
        return self.table(material).stats

    def node_probe(self, ruleset: Ruleset) -> NodeProbe | None:
        """The engine search's probe of these tables for positions of ``ruleset`` (None: other
        rules or nothing built); see :class:`NodeProbe`. Made once per search, so
        tables built since the last search are used."""
        return node_probe(self, ruleset)

    def _masks(self, position: Position) -> tuple[int, int, int, int]:
        if not isinstance(position, Position):
            raise TablebaseError(f"{excerpt(position)} is not a Position or a Board")
        rules = position.ruleset
        if rules is not self.rules and rules != self.rules and storage.ruleset_key(rules) != self.key:
            raise TablebaseError(f"position of {position.ruleset.name}, but these tables are of {self.rules.name}")
        if position.king_moves(Color.WHITE) or position.king_moves(Color.BLACK):
            raise TablebaseError(f"position {position.fen()} carries a king_move_limit count the tables do not index")
        return masks_of(position)


def _keeps(verdict: Verdict, child: Verdict) -> bool:
    """Whether a move to ``child`` keeps ``verdict`` (the fastest win, the longest loss, a draw)."""
    if verdict.result == "draw":
        return child.result == "draw"
    return child.result != verdict.result and child.result != "draw" and child.plies == (verdict.plies or 0) - 1


def _better(best: Value | None, child: Value) -> Value:
    """The better of ``best`` and the value reached by moving to ``child`` (seen by the mover)."""
    code, plies = child
    mine: Value = (WIN, plies + 1) if code == LOSS else (LOSS, plies + 1) if code == WIN else (DRAW, 0)
    if best is None:
        return mine

    def rank(value: Value) -> tuple[int, int]:
        return {WIN: (2, -value[1]), DRAW: (1, 0), LOSS: (0, value[1])}[value[0]]

    return max(best, mine, key=rank)


def _children(rules: Ruleset, white: int, black: int, kings: int, turn: int) -> list[tuple[int, int, int, int]]:
    own, opp = (white, black) if turn == 0 else (black, white)
    out = []
    for moved, captured, crowned in native_rules(rules).moves(own, opp, kings, turn, 0):
        child_own, child_opp = opp ^ captured, own ^ moved
        pair = (child_opp, child_own) if turn == 0 else (child_own, child_opp)
        out.append((pair[0], pair[1], kings ^ crowned, 1 - turn))
    return out


def _task_of(mirrored: dict[Material, Material], material: Material) -> Callable[[Ruleset, Material, Path], str]:
    """How ``material``'s table is made: from its twin's (``mirrored``), or solved."""
    return mirror_material if material in mirrored else build_material


def _without(writer: ThreadPoolExecutor) -> Clock:
    """The process's CPU time less that of ``writer``'s one thread (which writes on that thread
    alone): a solve's CPU time while a table is written beside it. The process's CPU time where
    a thread's clock cannot be read."""
    ident = writer.submit(threading.get_ident).result()
    try:
        thread = time.pthread_getcpuclockid(ident)
    except (AttributeError, OSError):  # pragma: no cover - no thread CPU clocks (Windows, some Unixes)
        return time.process_time
    return lambda: time.process_time() - time.clock_gettime(thread)


def _written(pending: tuple[Material, Future[None]], reporter: _Progress) -> None:
    """Wait for a table's writing (raising what it raised) and report the material done."""
    material, future = pending
    future.result()
    reporter.done(material)


def _wave_of(waves: list[list[Material]], material: Material) -> int:
    return next(number for number, wave in enumerate(waves) if material in wave)


class _Progress:
    """One line per material on standard error, with the time each took."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.show, self.count = total, show, 0
        self.started: dict[Material, float] = {}

    def start(self, material: Material) -> None:
        self.started[material] = time.monotonic()

    def done(self, material: Material) -> None:
        self.count += 1
        if self.show:
            seconds = time.monotonic() - self.started.pop(material, time.monotonic())
            print(f"[{self.count}/{self.total}] {material.name} built in {seconds:.1f} s", file=sys.stderr)


def build_material(ruleset: Ruleset, material: Material, directory: Path) -> str:
    """Solve one material and write its table (its dependencies' tables must be in ``directory``).

    A top-level function, so that process pools and Dask can run it; returns the material's name.
    """
    _write(_solved(ruleset, material, directory))
    return material.name


def mirror_material(ruleset: Ruleset, material: Material, directory: Path) -> str:
    """Make ``material``'s table from its twin's in ``directory`` and write it there (a top-level
    function, for executors, as :func:`build_material`); returns the material's name.

    Raises:
        TablebaseError: the ruleset is not colour-symmetric, or the twin's table is not built.
    """
    _write(_mirror_made(ruleset, material, directory))
    return material.name


Clock = Callable[[], float]
"""A CPU clock in seconds."""

_Made = tuple[Path, Ruleset, str, Solved, dict[str, Any]]
"""A table made but not written: its file, the ruleset and its key, the values, the header's extra fields."""


def _solved(ruleset: Ruleset, material: Material, directory: Path, clock: Clock = time.process_time) -> _Made:
    """``material`` solved (:func:`build_material` but the writing); ``clock``: the CPU time the
    header's ``build_cpu_seconds`` counts."""
    base = Tablebase(ruleset, directory)
    lookup = _lookup(base)
    started = clock()
    within = keeps_within(ruleset)
    with phase(material.name, "solve"):  # the smaller tables' reading included ("read")
        solved = solve(ruleset, material, lookup, within)
    extra = build_extra(ruleset, material, within, clock() - started)
    return base.path(material), ruleset, base.key, solved, extra


def _mirror_made(ruleset: Ruleset, material: Material, directory: Path, clock: Clock = time.process_time) -> _Made:
    """``material`` made from its twin (:func:`mirror_material` but the writing; ``clock`` as for
    :func:`_solved`)."""
    if not colour_symmetric(ruleset):
        raise TablebaseError(f"{ruleset.name} treats the colours differently: {material.name} must be solved")
    base = Tablebase(ruleset, directory)
    twin = material.mirrored()
    started = clock()
    # The twin's table read by a Tablebase of its own: freed, with its cache, once mirrored.
    with phase(material.name, "read twin"):
        source = Tablebase(ruleset, directory).table(twin)
    with phase(material.name, "mirror"):
        made = mirrored(ruleset, material, source)
        del source
        solved = Solved.of_native(Indexer(ruleset, material), made)
        del made
    extra = build_extra(ruleset, material, keeps_within(ruleset), clock() - started)
    extra["mirrored_from"] = twin.name
    return base.path(material), ruleset, base.key, solved, extra


def _write(made: _Made, workers: int | None = None) -> None:
    """Write a table made by :func:`_solved` or :func:`_mirror_made` (its counts and packing on
    ``workers`` threads, default the build's)."""
    path, ruleset, key, solved, extra = made
    write_table(path, ruleset, key, solved, solved.within, extra, workers=workers)


def build_extra(ruleset: Ruleset, material: Material, within: bool, seconds: float) -> dict[str, Any]:
    """The header fields a build adds to a table: its CPU time, the ruleset, the draw rules' plan."""
    extra: dict[str, Any] = {"build_cpu_seconds": round(seconds, 3), "ruleset": ruleset.name}
    if within:
        plan = plan_of(ruleset, material)
        extra["within_rules"] = {
            "counts": plan.counts,
            "plies_since_a_man_moved": None if plan.count_limit == INF else plan.count_limit,
            "plies_in_the_material": None if plan.material_limit == INF else plan.material_limit,
            "rules_by_placement": [rule.article or rule.describe() for _, rule in plan.placement],
        }
    return extra


def _lookup(base: Tablebase) -> _TableLookup:
    """The values of smaller materials, read from their tables (the solver's ``lookup``)."""
    return _TableLookup(base)


class _TableLookup:
    """The values of smaller materials, read from their tables: handed to the native solver
    whole (:meth:`packed`), or asked position by position (a call).

    Called, the tables are kept by their pieces' counts (no :class:`Material` made per exit) and
    each position is ranked once for both its value and its code under the draw rules.
    Positions where the game is over, or where the side not to move has nothing left, take
    :meth:`Tablebase.value`'s general way.
    """

    def __init__(self, base: Tablebase) -> None:
        self.base = base
        self.draw_rules = has_draw_rules(base.rules)
        self.tables: dict[tuple[int, int, int, int], Table] = {}

    def packed(self, materials: list[Material]) -> tuple[list[PackedTable], bool]:
        """The tables of ``materials`` as the native solver reads them, and whether one is not
        built (its exits then come back here, where a missing table raises as it always did)."""
        found: list[PackedTable] = []
        missing = False
        for material in materials:
            try:
                with phase(material.name, "read"):
                    table = self.base.table(material)
            except TablebaseFileError:
                raise
            except TablebaseError:
                missing = True
                continue
            codes, plies, within = table.sections()
            counts = material.counts(self.base.rules)
            found.append((counts, codes, plies, table.header["plies_bits"], within if self.draw_rules else None))
        return found, missing

    def __call__(self, own: int, opp: int, kings: int, turn: int) -> tuple[int, int, int]:
        base, rules = self.base, self.base.rules
        white, black = (own, opp) if turn == 0 else (opp, own)
        try:
            if not opp or terminal_value(rules, own, kings) is not None:
                code, plies = base.value(white, black, kings, turn)
                within = base.within(white, black, kings, turn)
                return code, plies, code if within is None else within
            counts = ((white & kings).bit_count(), white.bit_count(), (black & kings).bit_count(), black.bit_count())
            table = self.tables.get(counts)
            if table is None:
                table = self.tables[counts] = base.table(material_of(rules, white, black, kings))
            index = table.indexer.index(white, black, kings, turn)
            code, plies = table.at(index)
            within = table.within_at(index) if self.draw_rules else None
            return code, plies, code if within is None else within
        except TablebaseFileError:
            raise
        except TablebaseError as error:
            raise TablebaseError(f"building a table of {rules.name} needs another first: {error}") from None
