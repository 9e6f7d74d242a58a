"""The one player syntax (the table is on :mod:`draughts.players`), read by :func:`parse_player`.

Every player is named by its :attr:`PlayerSpec.text` in the one spelling (``level:strong``).
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Collection

import attrs

from draughts._text import excerpt
from draughts.engine import LEVELS, Engine, Limit, get_level
from draughts.engine.search import MAX_DEPTH
from draughts.errors import DraughtsError, PlayerSpecError

__all__ = [
    "ENGINE_KINDS",
    "FORMS",
    "KINDS",
    "MAX_MOVE_SECONDS",
    "MAX_NODES",
    "PlayerSpec",
    "parse_player",
]

FORMS = {
    "human": "human",
    "random": "random",
    "level": "level:NAME",
    "depth": "depth:N",
    "nodes": "nodes:N",
    "time": "time:S",
    "hub": "hub:CMD",
    "dxp": "dxp:HOST:PORT",
}
"""Each kind of player and how it is written."""
KINDS = tuple(FORMS)
"""Every kind of player, in the order the messages name them."""
ENGINE_KINDS = frozenset({"level", "depth", "nodes", "time"})
"""The kinds that are the built-in engine."""
MAX_NODES = 10**12
"""The most nodes a ``nodes:N`` player searches a move (hours of search)."""
MAX_MOVE_SECONDS = 3600.0
"""The most seconds a ``time:S`` player thinks a move: an hour (``time:inf`` would never end)."""

_ALIASES = ("computer", "engine", "cpu")
"""Earlier names of the built-in engine at a level (``computer:strong``; alone: intermediate)."""
_COUNT = re.compile(r"[0-9]{1,13}")


def _forms() -> str:
    levels = ", ".join(LEVELS)
    names = [f"{FORMS['level']} ({levels})" if kind == "level" else FORMS[kind] for kind in KINDS]
    return ", ".join(names[:-1]) + " or " + names[-1]


@attrs.frozen
class PlayerSpec:
    """A player as text names it (:func:`parse_player` reads and checks it): its ``kind`` (one of
    ``KINDS``) and the text after the kind's colon (empty for ``human`` and ``random``)."""

    kind: str
    arg: str = ""

    @property
    def text(self) -> str:
        """The player in the one spelling (``level:strong``, ``depth:3``, ``random``)."""
        return f"{self.kind}:{self.arg}" if self.arg else self.kind

    def __str__(self) -> str:
        return self.text

    @property
    def is_human(self) -> bool:
        """Whether a person plays (moves read from an input, not chosen here)."""
        return self.kind == "human"

    @property
    def pdn_name(self) -> str:
        """The name in a PDN White/Black tag: ``Human``, ``polydraughts strong``, ``polydraughts depth:3``,
        or the text of an engine from outside (``hub:scan hub``)."""
        if self.kind == "human":
            return "Human"
        if self.kind in ("hub", "dxp"):
            return self.text
        return f"polydraughts {self.arg if self.kind == 'level' else self.text}"

    @property
    def limit(self) -> Limit | None:
        """The search limit of a ``depth:N``, ``nodes:N`` or ``time:S`` player (None for the others)."""
        if self.kind == "depth":
            return Limit(depth=int(self.arg))
        if self.kind == "nodes":
            return Limit(nodes=int(self.arg))
        if self.kind == "time":
            return Limit(time=float(self.arg))
        return None

    def engine(self, seed: int | None = 0, limit: Limit | None = None) -> Engine:
        """The built-in engine this player is, its limit's parts replaced by those ``limit`` sets.

        Raises:
            ~draughts.errors.PlayerSpecError: the player is not the built-in engine.
        """
        if self.kind == "level":
            engine = get_level(self.arg).engine(seed)
        elif self.kind in ENGINE_KINDS:
            engine = Engine(seed=seed, limit=self.limit or Limit())
        else:
            raise PlayerSpecError(f"player {self.text!r} is not the built-in engine")
        if limit is not None:
            given = {name: value for name, value in attrs.asdict(limit).items() if value is not None}
            engine.limit = attrs.evolve(engine.limit, **given)
        return engine

    @property
    def command(self) -> list[str]:
        """A ``hub:CMD`` player's command line, split as a shell would."""
        return shlex.split(self.arg)

    @property
    def address(self) -> tuple[str, int]:
        """A ``dxp:HOST:PORT`` player's host and port."""
        host, _, port = self.arg.rpartition(":")
        return host, int(port)


def parse_player(text: str, *, accepted: Collection[str] = KINDS, command: str | None = None) -> PlayerSpec:
    """The player ``text`` names (see the module for the forms), checked.

    Args:
        text: The player as written.
        accepted: The kinds the caller can play (``draughts lab`` takes no ``human``).
        command: The caller's name, for the message when a kind is not accepted.

    Raises:
        ~draughts.errors.PlayerSpecError: text that is no player (the message names the forms), a
            value out of bounds (``depth:0``, ``time:inf``, an unknown level), or a kind not in
            ``accepted`` (the message names those that are).
    """
    if not isinstance(text, str):
        raise PlayerSpecError(f"player {excerpt(text)} must be text: {_forms()}")
    spec = _read(text)
    if spec.kind not in accepted:
        forms = [FORMS[kind] for kind in KINDS if kind in accepted]
        takes = " or ".join(forms) if len(forms) < 3 else ", ".join(forms[:-1]) + " or " + forms[-1]
        where = f"in {command}" if command else "here"
        raise PlayerSpecError(
            f"player {excerpt(text.strip())}: {FORMS[spec.kind]} cannot play {where}; it takes {takes}"
        )
    return spec


def _read(text: str) -> PlayerSpec:
    cleaned = text.strip()
    head, sep, arg = cleaned.partition(":")
    kind = head.lower()
    if not sep and kind in ("human", "random"):
        return PlayerSpec(kind)
    if kind in _ALIASES or kind == "level" or (not sep and kind in LEVELS):
        name = arg if sep else ("intermediate" if kind in _ALIASES else kind)
        if kind == "level" and not sep:
            raise _bad(text, "level:NAME needs the level's name")
        try:
            return PlayerSpec("level", get_level(name).name)
        except DraughtsError as error:
            raise _bad(text, str(error)) from None
    if kind in ("depth", "nodes") and sep:
        return PlayerSpec(kind, _count(text, kind, arg.strip()))
    if kind == "time" and sep:
        return PlayerSpec(kind, _move_seconds(text, arg.strip()))
    if kind == "hub" and sep:
        return PlayerSpec(kind, _command(text, arg.strip()))
    if kind == "dxp" and sep:
        return PlayerSpec(kind, _address(text, arg.strip()))
    raise _bad(text, "not a player")


def _bad(text: str, why: str) -> PlayerSpecError:
    return PlayerSpecError(f"player {excerpt(text.strip())}: {why}; a player is {_forms()}")


def _count(text: str, kind: str, arg: str) -> str:
    most = MAX_DEPTH if kind == "depth" else MAX_NODES
    if not _COUNT.fullmatch(arg) or not 1 <= int(arg) <= most:
        raise _bad(text, f"{kind}:N takes a whole number N from 1 to {most:,}")
    return str(int(arg))


def _move_seconds(text: str, arg: str) -> str:
    try:
        seconds = float(arg) if len(arg) <= 40 else math.nan
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_MOVE_SECONDS):
        raise _bad(text, f"time:S takes seconds a move above 0 and at most {MAX_MOVE_SECONDS:g}")
    return f"{seconds:g}"


def _command(text: str, arg: str) -> str:
    try:
        words = shlex.split(arg)
    except ValueError as error:
        raise _bad(text, f"hub:CMD takes a command line ({error})") from None
    if not words:
        raise _bad(text, "hub:CMD needs the engine's command line")
    return arg


def _address(text: str, arg: str) -> str:
    host, sep, port = arg.rpartition(":")
    if not sep or not host or not port.isdigit() or len(port) > 5 or not 0 < int(port) < 65536:
        raise _bad(text, "dxp:HOST:PORT takes a host and a port from 1 to 65535")
    return f"{host}:{int(port)}"
