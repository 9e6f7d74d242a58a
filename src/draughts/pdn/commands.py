"""Commands in comments: ``[%eval ...]``, ``[%clk ...]``, ``[%cal ...]`` and ``[%csl ...]`` as typed values.

lidraughts studies (like lichess's) keep an engine evaluation, a clock and the shapes drawn on the
board inside a move's comment. :func:`split_commands` takes them out of the comment text, so the
text a person wrote is kept exactly, and :func:`command_text` writes them back in one normal form.
Any other ``[%...]`` command is left in the comment text untouched.
"""

from __future__ import annotations

import math
import re

import attrs

from draughts._text import excerpt
from draughts.errors import PDNError

__all__ = ["Arrow", "Commands", "Eval", "SquareMark", "command_text", "parse_clock", "parse_eval", "split_commands"]

_COMMAND = re.compile(r"\[%(eval|clk|cal|csl)\s+([^\]]*)\]")
_EVAL = re.compile(r"(?:#(-?[0-9]{1,9})|([-+]?[0-9]{1,9}(?:\.[0-9]{1,9})?))(?:,([0-9]{1,9}))?")
_CLOCK = re.compile(r"(?:([0-9]{1,9}):)?([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,9})?)")
"""Numbers of at most nine digits (and nine decimals): exact as floats, and never an overflow or ``inf``."""
_SQUARE = r"(?:[0-9]{1,3}|[a-zA-Z][0-9]{1,2})"
_ARROW = re.compile(rf"([A-Z])({_SQUARE})[-x]?({_SQUARE})")
_PAIR = re.compile(r"([A-Z])([0-9]{2})([0-9]{2})")  # lidraughts' two-digit pairs, G3228
_MARK = re.compile(rf"([A-Z])({_SQUARE})")


@attrs.frozen
class Eval:
    """An engine evaluation: ``score`` in men (``0.35``) or ``plies`` to a win (``#7``, ``#-4`` a loss).

    Exactly one of ``score`` and ``plies`` is set; ``depth`` is the search depth when written.
    """

    score: float | None = None
    plies: int | None = None
    depth: int | None = None


@attrs.frozen
class Arrow:
    """An arrow drawn on the board: a colour letter (``G`` green, ``R``, ``Y``, ``B``) and two squares."""

    color: str
    tail: str
    head: str


@attrs.frozen
class SquareMark:
    """A highlighted square: a colour letter and the square's name (``"32"`` or ``"c3"``)."""

    color: str
    square: str


@attrs.define
class Commands:
    """The typed commands of one comment.

    Attributes:
        eval: ``[%eval 0.35]`` or ``[%eval #7,20]``.
        clock: ``[%clk 0:01:05.5]``, the seconds left on the mover's clock.
        arrows: ``[%cal G32-28,R19-23]`` (``G3228`` is read too).
        squares: ``[%csl G32,R28]``.
    """

    eval: Eval | None = None
    clock: float | None = None
    arrows: list[Arrow] = attrs.field(factory=list)
    squares: list[SquareMark] = attrs.field(factory=list)

    def __bool__(self) -> bool:
        return self.eval is not None or self.clock is not None or bool(self.arrows) or bool(self.squares)


def _square(text: str) -> str:
    return str(int(text)) if text.isdigit() else text.lower()


def parse_eval(text: str) -> Eval:
    """The value of ``[%eval TEXT]``.

    Raises:
        PDNError: ``text`` is not a score (``0.35``, ``-1``) or a win in plies (``#7``), with an
            optional ``,depth``, each of at most nine digits (and nine decimals).
    """
    match = _EVAL.fullmatch(text.strip())
    if match is None:
        raise PDNError(
            f"[%eval {excerpt(text)}]: not an evaluation (0.35, #7 or #-4, optionally ,depth; at most nine digits)"
        )
    depth = None if match.group(3) is None else int(match.group(3))
    if match.group(1) is not None:
        return Eval(plies=int(match.group(1)), depth=depth)
    return Eval(score=float(match.group(2)), depth=depth)


def parse_clock(text: str) -> float:
    """Seconds of ``[%clk H:MM:SS(.s)]``.

    Raises:
        PDNError: ``text`` is not a clock time (hours of at most nine digits).
    """
    match = _CLOCK.fullmatch(text.strip())
    if match is None:
        raise PDNError(f"[%clk {excerpt(text)}]: not a clock time (H:MM:SS, at most nine digits of hours)")
    hours = int(match.group(1) or 0)
    return hours * 3600 + int(match.group(2)) * 60 + float(match.group(3))


def _arrows(text: str) -> list[Arrow]:
    out = []
    for part in filter(None, (item.strip() for item in text.split(","))):
        match = _PAIR.fullmatch(part) or _ARROW.fullmatch(part)
        if match is None:
            raise PDNError(f"[%cal {excerpt(text)}]: {excerpt(part)} is not an arrow (G32-28)")
        out.append(Arrow(match.group(1), _square(match.group(2)), _square(match.group(3))))
    return out


def _marks(text: str) -> list[SquareMark]:
    out = []
    for part in filter(None, (item.strip() for item in text.split(","))):
        match = _MARK.fullmatch(part)
        if match is None:
            raise PDNError(f"[%csl {excerpt(text)}]: {excerpt(part)} is not a square mark (G32)")
        out.append(SquareMark(match.group(1), _square(match.group(2))))
    return out


def split_commands(comment: str) -> tuple[str, Commands]:
    """``comment`` without its known commands, and those commands as typed values.

    The text around the commands is kept as it is, except that the space a command stood in
    is closed up (``"good [%eval 0.3] move"`` gives ``"good move"``). A command whose value does
    not parse is left in the text, so nothing written is lost.

    >>> text, commands = split_commands("sharp [%eval -0.35] [%clk 0:01:05] [%cal G32-28]")
    >>> text, commands.eval, commands.clock, commands.arrows
    ('sharp', Eval(score=-0.35, plies=None, depth=None), 65.0, [Arrow(color='G', tail='32', head='28')])
    """
    commands = Commands()
    kept: list[str] = []
    position = 0
    for match in _COMMAND.finditer(comment):
        name, value = match.group(1), match.group(2)
        try:
            if name == "eval":
                commands.eval = parse_eval(value)
            elif name == "clk":
                commands.clock = parse_clock(value)
            elif name == "cal":
                commands.arrows += _arrows(value)
            else:
                commands.squares += _marks(value)
        except PDNError:
            continue
        kept.append(comment[position : match.start()])
        position = match.end()
    if position == 0:
        return comment, commands
    kept.append(comment[position:])
    return " ".join(" ".join(kept).split()), commands


def _number(value: float) -> str:
    return repr(float(value))  # the shortest text that reads back as the same float (-0.048 stays -0.048)


def command_text(commands: Commands) -> str:
    """The commands in their normal written form, space-separated (``""`` when there are none).

    Raises:
        PDNError: an evaluation or clock that is not a finite number (``inf`` would not read back).

    >>> command_text(Commands(Eval(plies=-4), 3725.5, [Arrow("R", "19", "23")], [SquareMark("G", "28")]))
    '[%eval #-4] [%clk 1:02:05.5] [%cal R19-23] [%csl G28]'
    """
    parts = []
    for number in (commands.clock, None if commands.eval is None else commands.eval.score):
        if number is not None and not math.isfinite(number):
            raise PDNError(f"cannot write a %eval or %clk of {number!r}: not a finite number")
    if commands.eval is not None:
        value = commands.eval
        text = f"#{value.plies}" if value.plies is not None else _number(value.score or 0.0)
        parts.append(f"[%eval {text}{'' if value.depth is None else f',{value.depth}'}]")
    if commands.clock is not None:
        hours, rest = divmod(commands.clock, 3600)
        minutes, seconds = divmod(rest, 60)
        shown = f"{seconds:05.2f}".rstrip("0").rstrip(".") if seconds != int(seconds) else f"{int(seconds):02d}"
        parts.append(f"[%clk {int(hours)}:{int(minutes):02d}:{shown}]")
    if commands.arrows:
        parts.append("[%cal " + ",".join(f"{a.color}{a.tail}-{a.head}" for a in commands.arrows) + "]")
    if commands.squares:
        parts.append("[%csl " + ",".join(f"{m.color}{m.square}" for m in commands.squares) + "]")
    return " ".join(parts)
