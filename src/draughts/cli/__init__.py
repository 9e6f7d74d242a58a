"""The ``draughts`` command: variants, rules, comparisons, moves, diagrams, perft, PDN checks and annotation.

Every subcommand has ``--help``. Errors print one line on standard error and exit with status 2;
there is never a traceback for bad input. ``draughts pdn`` exits with 1 when games fail.

Wherever a command takes a variant it takes every form :func:`~draughts.resolve_ruleset` accepts:
a name, alias, transform suffix or PDN GameType, a ruleset file (an argument ending in ``.toml`` or
``.json``: no variant name has such a suffix) or a Python object ``module:attribute``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from draughts._text import plural as _plural
from draughts._text import printable
from draughts.cli.executor import WORKERS_HELP
from draughts.errors import DraughtsError
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.names import ALIASES, get_variant
from draughts.rules.variants import VARIANTS

if TYPE_CHECKING:
    from draughts.compare import MovesComparison, Table

__all__ = ["main"]


class _Failure(Exception):
    """An error already phrased for the user."""


class _Parser(argparse.ArgumentParser):
    """argparse with the project's error style: one line, bounded, naming the command's help."""

    def error(self, message: str) -> NoReturn:
        if len(message) > 200:
            message = message[:200] + "..."
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Progress:
    """A progress line on standard error, only in a terminal, cleared before other output and at the end."""

    def __init__(self) -> None:
        self.shown = sys.stderr.isatty()

    def update(self, text: str) -> None:
        if self.shown:
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)

    def clear(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def _ruleset(spec: str) -> Ruleset:
    """The ruleset a variant argument names, in every form :func:`~draughts.resolve_ruleset` takes."""
    from draughts.rules.files import resolve_ruleset

    return resolve_ruleset(spec)


def _depth(text: str) -> int:
    """A perft depth argument: a whole number no deeper than :data:`draughts.perft.DEEPEST`."""
    from draughts.perft import DEEPEST

    try:
        depth = int(text) if len(text) <= 20 else DEEPEST + 1  # int() refuses over 4,300 digits
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None  # argparse's own words
    if depth > DEEPEST:
        if len(text) > 20:
            raise argparse.ArgumentTypeError(f"depth {text[:20]}... is deeper than {DEEPEST}, the deepest perft counts")
        raise argparse.ArgumentTypeError(f"depth {depth} is deeper than {DEEPEST}, the deepest perft counts")
    return depth


_VARIANT_HELP = (
    "variant name or alias (e.g. russian, dama, english-nfc), a ruleset file (.toml or .json) "
    "or a Python object module:attribute"
)


def _position(rules: Ruleset, fen: str | None) -> Position:
    return Position.initial(rules) if fen is None else Position.from_fen(rules, fen)


def _cmd_overview(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.compare import Row, Table
    from draughts.perft import perft

    if args.depth < 0:
        raise _Failure(f"depth {args.depth} must be 0 or more")
    if args.tablebases is not None and not os.path.isdir(args.tablebases):
        raise _Failure(f"the tablebases directory {args.tablebases!r} is not a directory")

    rulesets = [*VARIANTS.values(), get_variant("no-forced-capture")]
    facts: list[tuple[str, str, tuple[str, ...]]] = []
    if args.tablebases is not None:
        from draughts.endgame.facts import fact_rows  # the tables are optional here

        facts = fact_rows(rulesets, args.tablebases)
    rows = []
    progress = _Progress()
    try:
        for index, rules in enumerate(rulesets, 1):
            progress.update(f"[{index}/{len(rulesets)}] perft({args.depth}) of {rules.name}")
            started = time.perf_counter()
            count = perft(Position.initial(rules), args.depth)
            seconds = time.perf_counter() - started
            precedence = ", ".join(c.value for c in rules.precedence) or "free choice"
            if not rules.capture_mandatory:
                precedence += " (capture optional)"
            cells = (
                rules.shape,
                rules.king_range.value,
                "yes" if rules.men_capture_backward else "no",
                precedence,
                f"{count:,}",
                f"{seconds:.2f} s",
                *(fact[2][index - 1] for fact in facts),
            )
            rows.append(Row(rules.name, cells, key=rules.name))
    finally:
        progress.clear()
    columns = ["board", "kings", "men take back", "precedence", f"perft({args.depth})", "time"]
    notes: tuple[str, ...] = ()
    if facts:
        from draughts.endgame.facts import COLUMNS_NOTE, column_label

        columns += [column_label(key) for key, _, _ in facts]
        notes = (f"{COLUMNS_NOTE} Tables: {args.tablebases}",)
    table = Table(columns, rows, corner="variant", notes=notes)
    print(printable(table.to_text(line_width=_line_width())), file=out)


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.compare import Row, Table

    aliases: dict[str, list[str]] = {}
    for alias, canonical in ALIASES.items():
        aliases.setdefault(canonical, []).append(alias)
    rows = [
        Row(name, (rules.title, rules.pdn_gametype_tag or "-", ", ".join(aliases.get(name, []))), key=name)
        for name, rules in VARIANTS.items()
    ]
    house = get_variant("no-forced-capture")
    rows += [
        Row("<name>-nfc", ("any variant with optional capture", "-", f"no-forced-capture = {house.name}")),
        Row("<name>-losing", ("any variant played to lose: no move wins", "-", "e.g. russian-losing")),
        Row("<name>-breakthrough", ("any variant won by the first king", "-", "e.g. russian-breakthrough")),
    ]
    table = Table(("variant", "GameType", "aliases"), rows, corner="name")
    print(printable(table.to_text(line_width=_line_width())), file=out)


def _cmd_rules(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.compare import rules_table
    from draughts.rules.files import ruleset_to_text, save_ruleset

    rules = _ruleset(args.variant)
    if args.save is not None:
        try:
            save_ruleset(rules, args.save)
        except OSError as error:
            raise _Failure(f"cannot write {args.save!r}: {error.strerror or error}") from None
        print(f"{rules.name} written to {args.save}", file=out)
        return
    if args.format in ("toml", "json"):
        print(ruleset_to_text(rules, args.format), end="", file=out)
        return
    print(_render(rules_table([rules]), args.format), file=out)
    notes = rules.draw_rules.notes
    if notes and args.format == "text":
        import textwrap

        print("\n" + printable(textwrap.fill(f"Draw rules: {notes}", _line_width(), break_on_hyphens=False)), file=out)


def _render(table: Table | MovesComparison, fmt: str) -> str:
    if fmt == "text":
        return printable(table.to_text(line_width=_line_width()))
    return printable(table.to_markdown() if fmt == "markdown" else table.to_html())


def _line_width() -> int:
    """The width tables fit: ``$COLUMNS``, else the terminal's, else 120 (output to a file or pipe)."""
    import shutil

    return shutil.get_terminal_size((120, 24)).columns


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.compare import moves_table, rules_table

    if len(args.variants) < 2:
        raise _Failure(f"compare needs two or more variants, got {len(args.variants)}")
    rulesets = [_ruleset(name) for name in args.variants]
    if args.fen is not None:
        fen_variant = None if args.fen_variant is None else _ruleset(args.fen_variant)
        print(_render(moves_table(args.fen, rulesets, fen_variant=fen_variant), args.format), file=out)
        return
    table = rules_table(rulesets, differences_only=args.diff, tablebases=_compared_tables(args.tablebases, rulesets))
    print(_render(table, args.format), file=out)


def _compared_tables(given: str | None, rulesets: list[Ruleset]) -> str | None:
    """The tables directory of ``compare --tablebases [DIR]`` (alone: the cache ``endgame build``
    fills), or None, said once on standard error, where it holds nothing of these rulesets."""
    if given is None:
        return None
    from draughts.endgame.facts import no_tables
    from draughts.endgame.tablebase import default_directory

    directory = given or str(default_directory())
    why = no_tables(rulesets, given or None)
    if why is not None:  # once, rather than "not built" in every cell
        print(f"draughts compare: {why}; comparing the rules only", file=sys.stderr)
        return None
    return directory


def _cmd_moves(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.notation import move_text

    rules = _ruleset(args.variant)
    position = _position(rules, args.fen)
    moves = position.legal_moves()
    if not moves:
        print(f"{position.turn} has no legal move in {position.fen()}", file=out)
        return
    for move in moves:
        print(move_text(position, move, long=args.long or None), file=out)


def _cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.diagram import text_diagram

    rules = _ruleset(args.variant)
    position = _position(rules, args.fen)
    print(text_diagram(position, numbers=args.numbers, flipped=args.flipped), file=out)
    print(f"{position.turn} to move; FEN {position.fen()}", file=out)
    if args.svg:
        from draughts import svg

        text = svg.board(position, flipped=args.flipped, square_numbers=args.numbers)
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise _Failure(f"cannot write {args.svg!r}: {error.strerror}") from None
        print(f"SVG written to {args.svg}", file=out)


def _cmd_perft(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.notation import move_text
    from draughts.perft import divide, perft

    rules = _ruleset(args.variant)
    position = _position(rules, args.fen)
    if args.depth < 0:
        raise _Failure(f"depth {args.depth} must be 0 or more")
    started = time.perf_counter()
    if args.depth == 0 or (not args.divide and args.depth <= 6):  # depth 0: the one leaf, as perft() counts
        total = perft(position, args.depth, paths=args.paths)
    else:
        total = 0
        root_moves = divide(position, 1, paths=args.paths)
        progress = _Progress()
        try:
            for index, (move, _) in enumerate(root_moves, 1):
                progress.update(f"[{index}/{len(root_moves)}] {time.perf_counter() - started:.1f} s")
                count = perft(position.play(move), args.depth - 1, paths=args.paths) if args.depth > 1 else 1
                total += count
                if args.divide:
                    progress.clear()
                    print(f"{move_text(position, move, long=True)}: {count}", file=out, flush=True)
        finally:
            progress.clear()
    seconds = time.perf_counter() - started
    convention = "keep (every capture path)" if args.paths else "dedup (distinct moves)"
    print(f"perft({args.depth}) = {total}   [{rules.name}, {convention}, {seconds:.2f} s]", file=out)


_PDN_STATUS = """several files or a directory (every *.pdn under it) are read one job per file:
  in --workers local processes (default: one per CPU), or on the workers of the
  Dask scheduler at --scheduler ADDRESS (pip install "polydraughts[distributed]";
  every worker must see the same paths). One line per file, then the totals.

exit status:
  0  every game was read and every move is legal
  1  a game could not be read (skipped, or the first bad one with --errors raise),
     or the input holds no game; of several files: one of them holds no game or
     cannot be read to its end
  2  the check could not run: bad arguments, an unknown --variant or --encoding,
     a path that does not exist, the one file given (or, with --errors raise, any
     file) that cannot be opened, a Dask scheduler that cannot be reached"""


def _cmd_pdn(args: argparse.Namespace, out: TextIO) -> int:
    import os

    if len(args.file) > 1 or (args.file[0] != "-" and os.path.isdir(args.file[0])):
        return _pdn_collection(args, out)
    if args.workers is not None and args.workers < 1:
        raise _Failure(f"--workers {args.workers} must be at least 1")
    return _pdn_file(args.file[0], args, out)


def _pdn_file(file: str, args: argparse.Namespace, out: TextIO) -> int:
    """One file or standard input, read here (the options --workers and --scheduler do not apply)."""
    import warnings

    from draughts import pdn
    from draughts._text import excerpt
    from draughts.errors import PDNError

    stdin = file == "-"
    source = getattr(sys.stdin, "buffer", sys.stdin) if stdin else file
    name = "standard input" if stdin else file
    variant = None if args.variant is None else _ruleset(args.variant)
    games = moves = guessed = 0
    by_variant: dict[str, int] = {}
    failure: PDNError | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            for game in pdn.read_games(source, ruleset=variant, errors=args.errors, encoding=args.encoding):
                games += 1
                moves += len(game.mainline_moves())
                guessed += game.guessed
                by_variant[game.ruleset.name] = by_variant.get(game.ruleset.name, 0) + 1
        except OSError as error:
            raise _Failure(f"cannot read {excerpt(file)}: {error.strerror or error}") from None
        except PDNError as error:  # --errors raise, or bytes the forced encoding cannot decode
            failure = error
    skipped = [str(warning.message) for warning in caught if issubclass(warning.category, pdn.PDNWarning)]
    variants = ", ".join(f"{rules}: {count}" for rules, count in sorted(by_variant.items())) or "none"
    if games:
        read = f"{_plural(games, 'game')} read, every move legal ({_plural(moves, 'move')}; {variants})"
        print(f"{name}: {read}", file=out)
    else:
        print(f"{name}: no game read" if skipped or failure else f"{name}: no game found", file=out)
    if guessed:
        print(_guessed(guessed), file=out)
    if skipped:
        print(f"{_plural(len(skipped), 'game')} skipped:", file=out)
        for message in skipped:
            print(f"  {message}", file=out)
    if failure is not None:
        out.flush()
        print(f"draughts pdn: error: {failure}", file=sys.stderr)
    if failure is not None or skipped or not games:
        return 1  # games failed: not the 2 of a check that could not run
    return 0


def _guessed(count: int) -> str:
    """The note for games whose rules no tag named and the reader chose from their moves."""
    return (
        f"{_plural(count, 'game')} without a GameType tag did not read as international: their rules were"
        " guessed from the moves (pass --variant to say which)"
    )


def _pdn_collection(args: argparse.Namespace, out: TextIO) -> int:
    """Several files or directories: one job per file, on local processes or a Dask cluster."""
    from draughts._text import excerpt
    from draughts.cli.executor import executor as jobs_executor
    from draughts.errors import PDNError
    from draughts.pdn.collection import expand_paths, replay_files

    if "-" in args.file:
        raise _Failure("standard input (-) can only be read alone")
    rules = None if args.variant is None else _ruleset(args.variant)
    try:
        files = expand_paths(args.file)
    except OSError as error:
        raise _Failure(f"cannot read {excerpt(error.filename)}: {error.strerror or error}") from None
    if not files:
        print(f"{', '.join(args.file)}: no PDN file found", file=out)
        return 1
    with jobs_executor(args.workers, args.scheduler, jobs=len(files)) as executor:
        try:
            report = replay_files(files, rules, errors=args.errors, encoding=args.encoding, executor=executor)
        except OSError as error:  # --errors raise: a file that cannot be opened
            raise _Failure(f"cannot read {excerpt(error.filename)}: {error.strerror or error}") from None
        except PDNError as error:  # --errors raise: the first bad game
            print(f"draughts pdn: error: {error}", file=sys.stderr)
            return 1

    for file in report.files:
        variants = ", ".join(f"{name}: {count}" for name, count in file.variants.items())
        if file.games:
            read = _plural(file.games, "game")
            line = f"{file.path}: {read} read, every move legal ({_plural(file.moves, 'move')}; {variants})"
            if file.guessed:
                line += f" ({file.guessed:,} guessed)"
        else:
            line = f"{file.path}: {'no game read' if file.skipped or file.error else 'no game found'}"
        if file.skipped:
            line += f", {_plural(len(file.skipped), 'game')} skipped"
        if file.error is not None:
            line += ", stopped early"
        print(line, file=out)
    variants = ", ".join(f"{name}: {count:,}" for name, count in report.variants.items()) or "none"
    print(
        f"total: {_plural(len(report.files), 'file')}, {_plural(report.games, 'game')} read, every move legal "
        f"({_plural(report.moves, 'move')}; {variants})",
        file=out,
    )
    if report.guessed:
        print(_guessed(report.guessed), file=out)
    for name, counts in report.results.items():
        print(f"results {name}: " + ", ".join(f"{outcome} {count:,}" for outcome, count in counts.items()), file=out)
    failures = report.failures
    if failures:
        print(f"{_plural(len(failures), 'problem')}:", file=out)
        for path, message in failures:
            print(f"  {path}: {message}", file=out)
    return 0 if report.ok else 1


def _cmd_play(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.cli.play import play

    try:
        play(
            _ruleset(args.variant),
            white=args.white,
            black=args.black,
            fen=args.fen,
            numbers=args.numbers,
            save=args.save,
            seed=args.seed,
            stdout=out,
        )
    except OSError as error:
        raise _Failure(f"cannot write {args.save!r}: {error.strerror}") from None


def _cmd_hub(args: argparse.Namespace, out: TextIO) -> None:
    from draughts.hub import serve

    if args.book is not None:
        from draughts.cli.db import open_book

        open_book(args.book)  # a missing file is an error line, not a traceback
    serve(ruleset=_ruleset(args.variant), stdout=out, tablebases=args.tablebases, book=args.book)


_WEB_EXTRA = ("starlette", "uvicorn", "anyio", "h11", "click")


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> None:
    try:
        from draughts.web.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in _WEB_EXTRA:
            raise
        raise _Failure(f'the web board needs the web extra: pip install "polydraughts[web]" ({error})') from None
    if args.database is not None and not os.path.isfile(args.database):
        raise _Failure(f"no game database {args.database!r} (make one with: draughts db import DB FILE...)")
    serve(
        args.variant,
        host=args.host,
        port=args.port,
        open_browser=args.open,
        stdout=out,
        tablebases=args.tablebases,
        database=args.database,
    )


def _add_overview(commands: Any) -> None:
    """``draughts overview``: every named variant's key rules."""
    sub = commands.add_parser(
        "overview",
        help="every named variant's key rules (and the no-forced-capture house rule), perft from each start",
    )
    sub.add_argument("--depth", type=_depth, default=6, help="perft depth (default 6)")
    sub.add_argument(
        "--tablebases",
        metavar="DIR",
        help="add columns from the endgame tables built in DIR (kings that beat a lone king, won shares)",
    )
    sub.set_defaults(run=_cmd_overview)


def _add_variants(commands: Any) -> None:
    """``draughts variants``: the variants with their aliases."""
    sub = commands.add_parser("variants", help="list the variants with their aliases and PDN GameType")
    sub.set_defaults(run=_cmd_variants)


def _on_a_ruleset(
    commands: Any, name: str, run: Callable[..., None], help: str, *, fen: bool = False, default: str | None = None
) -> argparse.ArgumentParser:
    """The subcommand ``name`` (``run`` runs it) whose first argument is the ruleset (``VARIANT``;
    optional given a ``default``), then, with ``fen``, an optional position; the caller adds the rest."""
    sub: argparse.ArgumentParser = commands.add_parser(name, help=help)
    if default is None:
        sub.add_argument("variant", help=_VARIANT_HELP)
    else:
        sub.add_argument("variant", nargs="?", default=default, help=f"{_VARIANT_HELP} (default {default})")
    if fen:
        sub.add_argument("fen", nargs="?", help="PDN FEN (default: the start position)")
    sub.set_defaults(run=run)
    return sub


def _add_rules(commands: Any) -> None:
    """``draughts rules``: one variant's rules as a table or a ruleset file."""
    sub = _on_a_ruleset(commands, "rules", _cmd_rules, "the rules of one variant, as a table")
    sub.add_argument(
        "--format",
        choices=("text", "markdown", "html", "toml", "json"),
        default="text",
        help="a table (text, markdown, html), or the ruleset file's text (toml, json)",
    )
    sub.add_argument(
        "--save", metavar="FILE", help="write the ruleset to FILE (.toml or .json) to start a variant of your own"
    )


def _add_compare(commands: Any) -> None:
    """``draughts compare``: two or more variants side by side."""
    sub = commands.add_parser("compare", help="compare the rules of two or more variants")
    sub.add_argument("variants", nargs="+", metavar="VARIANT", help="two or more variant names or ruleset files")
    sub.add_argument("--diff", action="store_true", help="only the rules that differ")
    sub.add_argument("--fen", help="compare the legal moves of this position instead (same board size)")
    sub.add_argument("--fen-variant", help="the variant whose numbering the FEN uses (default: the first one)")
    sub.add_argument(
        "--tablebases",
        nargs="?",
        const="",
        metavar="DIR",
        help="add rows from the endgame tables built in DIR (alone: the cache draughts endgame build uses)",
    )
    sub.add_argument("--format", choices=("text", "markdown", "html"), default="text")
    sub.set_defaults(run=_cmd_compare)


def _add_moves(commands: Any) -> None:
    """``draughts moves``: the legal moves of a position."""
    sub = _on_a_ruleset(commands, "moves", _cmd_moves, "the legal moves of a position", fen=True)
    sub.add_argument("--long", action="store_true", help="write every move in long form")


def _add_show(commands: Any) -> None:
    """``draughts show``: a position drawn as text or SVG."""
    sub = _on_a_ruleset(commands, "show", _cmd_show, "draw a position as text (and SVG)", fen=True)
    sub.add_argument("--svg", metavar="FILE", help="also write an SVG picture to FILE")
    sub.add_argument("--numbers", action="store_true", help="show square numbers")
    sub.add_argument("--flipped", action="store_true", help="Black at the bottom")


def _add_perft(commands: Any) -> None:
    """``draughts perft``: the leaf nodes of the move tree."""
    sub = _on_a_ruleset(commands, "perft", _cmd_perft, "count the leaf nodes of the move tree (draw rules ignored)")
    sub.add_argument("depth", type=_depth)
    sub.add_argument("--fen", help="start from this position (default: the start position)")
    sub.add_argument("--divide", action="store_true", help="print the count below each root move")
    sub.add_argument("--paths", action="store_true", help='count every capture path ("keep" convention)')


def _add_pdn(commands: Any) -> None:
    """``draughts pdn``: every game of PDN files checked."""
    sub = commands.add_parser(
        "pdn",
        help="check every game of PDN files and summarise",
        description="Replay every game of a PDN file (or of several, or of a directory) and check each\n"
        "move. By default a game that cannot be read is skipped and reported, and the check goes\n"
        "on with the next game (--errors skip).",
        epilog=_PDN_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument(
        "file",
        nargs="+",
        help="a PDN file (- reads standard input, a pipe works too), several, or a directory",
    )
    sub.add_argument(
        "--variant",
        help="the rules of the games (a name or a ruleset file): used for games without a GameType tag, and a game "
        "whose GameType is another variant's fails (default: each game's GameType, else its Variant tag, "
        "else international, else the variant its moves fit, said as guessed)",
    )
    sub.add_argument(
        "--errors",
        choices=("raise", "skip"),
        default="skip",
        help="skip (the default): report each bad game and go on; raise: stop at the first bad game",
    )
    sub.add_argument("--encoding", help="decode the file with this encoding (default: detected)")
    sub.add_argument("--workers", type=int, metavar="N", help="several files: " + WORKERS_HELP)
    sub.add_argument(
        "--scheduler", metavar="ADDRESS", help="several files: read them on a Dask cluster (tcp://host:8786)"
    )
    sub.set_defaults(run=_cmd_pdn)


def _add_play(commands: Any) -> None:
    """``draughts play``: a game in the terminal."""
    sub = _on_a_ruleset(
        commands, "play", _cmd_play, "play a game in the terminal, against the computer or another person"
    )
    sub.add_argument(
        "--white",
        metavar="PLAYER",
        help="human, level:NAME (beginner, intermediate, strong), depth:N, nodes:N, time:S, random or hub:CMD",
    )
    sub.add_argument("--black", metavar="PLAYER", help="the same for Black (default: the second player is a computer)")
    sub.add_argument("--fen", help="start from this position (default: the start position)")
    sub.add_argument("--numbers", action="store_true", help="show square numbers on the board")
    sub.add_argument("--save", metavar="FILE", help="write the game as PDN to FILE at the end")
    sub.add_argument("--seed", type=int, help="seed of the computer players (default: a different game each time)")


def _add_hub(commands: Any) -> None:
    """``draughts hub``: the engine as a Hub protocol engine."""
    sub = commands.add_parser("hub", help="run the polydraughts engine as a Hub protocol engine on stdin/stdout")
    sub.add_argument(
        "--variant",
        default="international",
        help="variant or ruleset file until a GUI sets one (default international)",
    )
    sub.add_argument(
        "--tablebases", metavar="DIR", help="probe the endgame tables built in DIR (draughts endgame build)"
    )
    sub.add_argument("--book", metavar="BOOK", help="play from this opening book while in it (draughts book build)")
    sub.set_defaults(run=_cmd_hub)


def _add_serve(commands: Any) -> None:
    """``draughts serve``: the web board."""
    summary = "start the web board: play, analyse and compare in a browser"
    sub = _on_a_ruleset(commands, "serve", _cmd_serve, summary, default="international")
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    sub.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 = any free port)")
    sub.add_argument("--open", action="store_true", help="open the board in the default browser")
    sub.add_argument(
        "--tablebases",
        metavar="DIR",
        help="show the verdict and best moves of positions inside the endgame tables built in DIR",
    )
    sub.add_argument("--database", metavar="DB", help="show the moves played from each position in DB's games")


_GROUPS = (
    ("rules", ("overview", "variants", "rules", "compare")),
    ("positions", ("moves", "show", "perft")),
    ("games", ("play", "serve", "pdn", "annotate", "openings", "db", "book")),
    ("engines", ("hub", "dxp", "match")),
    ("research", ("lab", "endgame")),
)
"""Every command by task, for the epilog of ``draughts --help`` (a test keeps it complete)."""


def _epilog() -> str:
    lines = ["commands by task:"]
    lines += [f"  {group + ':':<11}{', '.join(names)}" for group, names in _GROUPS]
    return "\n".join([*lines, "", "Run 'draughts COMMAND --help' for what a command does and its options."])


def _describe(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand without a description its one-line help as description, so that
    ``draughts COMMAND --help`` says what the command does (subcommands of subcommands too)."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help for choice in action._choices_actions}
        for name, sub in action.choices.items():
            text = (helps.get(name) or "").replace("%%", "%")
            if sub.description is None and text:
                sub.description = text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
            _describe(sub)


def _parser() -> argparse.ArgumentParser:
    """The ``draughts`` command's parser: one builder per command (``_add_NAME``), then the commands
    that live with their packages (lab, endgame, annotate, dxp, match)."""
    from draughts import __version__

    parser = _Parser(
        prog="draughts",
        description="The rules of every draughts variant and the tools built on them: compare rules, list moves,\n"
        "draw positions, run perft, check and annotate PDN, play in the terminal or the browser, run the\n"
        "engine over Hub or DXP, play matches, build endgame tables, read opening ballots, measure rules in the lab.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"draughts (polydraughts {__version__})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (_add_overview, _add_variants, _add_rules, _add_compare, _add_moves, _add_show, _add_perft):
        add(commands)
    for add in (_add_pdn, _add_play, _add_hub, _add_serve):
        add(commands)
    _add_command_modules(commands)
    _describe(parser)
    return parser


def _add_command_modules(commands: Any) -> None:
    """The commands that have a module of their own, in help order (imported here: they import this one)."""
    from draughts.cli import annotate, db, dxp, endgame, lab, match, openings

    lab.add_parser(commands)
    for module in (endgame, annotate, dxp, match, openings):
        module.add_parser(commands, _ruleset, _VARIANT_HELP)
    db.add_parsers(commands, _ruleset, _VARIANT_HELP)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    stream = sys.stdout if out is None else out
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(stream)
        return 0
    try:
        status = args.run(args, stream)
    except (DraughtsError, _Failure) as error:
        print(f"draughts {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"draughts {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
