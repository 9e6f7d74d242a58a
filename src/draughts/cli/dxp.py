"""``draughts dxp``: our engine as a DXP follower (``--listen``) or initiator (``--connect``).

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import Any, TextIO

from draughts.board import Board
from draughts.dxp.board_text import check_board
from draughts.dxp.roles import DEFAULT_PORT, connect, listen
from draughts.dxp.session import DXPRecord
from draughts.errors import DXPError
from draughts.players import Player, parse_player
from draughts.players.factory import make_player
from draughts.rules import Ruleset

DXP_KINDS = ("random", "level", "depth", "nodes", "time", "hub")
"""The players that can play our side of a DXP game (:mod:`draughts.players`): not a person, nor
another DXP follower."""
__all__ = ["add_parser"]


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return host, int(port)


def add_parser(commands: Any, ruleset: Callable[[str], Ruleset], variant_help: str) -> None:
    """Add ``dxp`` to the ``draughts`` command's subparsers; ``ruleset`` reads ``--variant``."""
    sub = commands.add_parser(
        "dxp", help="play the polydraughts engine over DXP (DamExchange), as follower or initiator"
    )
    role = sub.add_mutually_exclusive_group(required=True)
    role.add_argument("--listen", action="store_true", help="be the follower: answer game requests")
    role.add_argument("--connect", type=_address, metavar="HOST:PORT", help="be the initiator: request games")
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sub.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT}; 0: any)"
    )
    sub.add_argument("--games", type=int, default=1, help="games to play, then exit (default 1)")
    sub.add_argument("--time", type=int, default=0, metavar="MIN", help="initiator: minutes per side (0: no clock)")
    sub.add_argument("--moves", type=int, default=0, metavar="M", help="initiator: moves in that time")
    players = sub.add_mutually_exclusive_group()
    players.add_argument(
        "--player",
        metavar="PLAYER",
        help="who plays our side: level:NAME, depth:N, nodes:N, time:S, random or hub:CMD (default level:intermediate)",
    )
    players.add_argument("--level", help="the engine's level (beginner, intermediate, strong): --player level:NAME")
    sub.add_argument("--variant", default="international", help=variant_help + " (50 squares)")
    sub.add_argument("--name", default="polydraughts", help="our name in the handshake")
    sub.add_argument("--pdn", metavar="FILE", help="append each finished game to FILE")
    sub.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="most seconds to wait for a peer's move or game request, whatever its clock (default 600)",
    )
    sub.set_defaults(run=lambda args, out: _run(args, out, ruleset))


def _run(args: argparse.Namespace, out: TextIO, ruleset: Callable[[str], Ruleset]) -> int:
    if args.games < 1 or args.time < 0 or args.moves < 0:
        raise DXPError(
            f"--games must be at least 1 and --time/--moves not negative (got {args.games}, {args.time}, {args.moves})"
        )
    if not 0 < args.timeout < float("inf"):
        raise DXPError(f"--timeout must be a positive number of seconds (got {args.timeout!r})")
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    rules = ruleset(args.variant)
    check_board(rules)  # before an engine is started for a board DXP cannot describe
    text = args.player or f"level:{args.level or 'intermediate'}"
    player = make_player(parse_player(text, accepted=DXP_KINDS, command="draughts dxp"), rules, seed=0)
    try:
        records = _play(args, out, rules, player)
    finally:
        player.close(Board(rules))
    for number, record in enumerate(records, start=1):
        print(f"game {number}: {record.result} ({record.termination})", file=out)
    if args.connect and len(records) < args.games:
        print(f"{len(records)} of {args.games} games played (the log above says why)", file=out)
    return 0


def _play(args: argparse.Namespace, out: TextIO, rules: Ruleset, player: Player) -> list[DXPRecord]:
    # What both roles take alike; the role adds its own (the follower its address, the initiator its game).
    common: dict[str, Any] = {
        "games": args.games,
        "ruleset": rules,
        "name": args.name,
        "pdn": args.pdn,
        "timeout": args.timeout,
    }
    if args.listen:

        def ready(address: tuple[str, int]) -> None:
            print(f"listening on {address[0]}:{address[1]}", file=out, flush=True)

        return listen(player, host=args.host, port=args.port, ready=ready, **common)
    return connect(player, args.connect, minutes=args.time, moves=args.moves, **common)
