"""A match's results file: a header naming the match, then one JSON line per finished game.

A match started again with the same results file plays only the games still missing, so the
file must be of *this* match: its first line records the settings that decide the games (the
engines, the ruleset, the openings, the limits, the clock, the ply cap, the adjudication), and a
file of another match, or a file without that header, is refused with a message saying what
differs, never credited to the engines of this one. Every game line is checked (its number
below ``games``, not twice, its White and Black the engines that number gives them). A last line
cut short by an interruption is removed, with a warning, and its game played again; every line
written ends with a newline, so nothing is ever glued to a cut line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from draughts._text import excerpt
from draughts.errors import MatchResultsError

__all__ = ["MatchResultsError", "ResultsFile", "settings_of"]

LOG = logging.getLogger("draughts.match")

HEADER = "polydraughts_match"
"""The key of the header line (its value: the format's number)."""

_FORMAT = 1
_WINNERS = ("white", "black", None)


def _plain(value: object) -> object:
    """``value`` as JSON data (attrs classes as dicts, anything else JSON cannot hold as its repr)."""

    def fallback(item: object) -> object:
        return attrs.asdict(item) if attrs.has(type(item)) else repr(item)  # type: ignore[arg-type]

    return json.loads(json.dumps(value, default=fallback, sort_keys=True))


def settings_of(**settings: object) -> dict[str, Any]:
    """The match settings as the header stores them (compared as read back from JSON)."""
    plain = _plain(settings)
    assert isinstance(plain, dict)
    return plain


@attrs.define
class ResultsFile:
    """The results file of one match.

    Args:
        path: The file (created with its header when missing or empty).
        settings: What decides the games (:func:`settings_of`).
        games: Games the match has; a file holding a game numbered past them is refused.
        labels: The engines' labels, A first: A is White in even-numbered games.
    """

    path: Path
    settings: Mapping[str, Any]
    games: int
    labels: tuple[str, str]

    def read(self) -> list[dict[str, Any]]:
        """The games already in the file, after every check (a new file gets its header).

        Raises:
            MatchResultsError: the file has no header, is of another match, or holds a line that is
                not a game of this match.
        """
        data = self.path.read_bytes() if self.path.exists() else b""
        if data and not data.endswith(b"\n"):  # the last line was cut, or written by another tool
            data = self._mend(data, data.split(b"\n"))
        if not data.strip():
            self.path.write_text(json.dumps({HEADER: _FORMAT, "settings": self.settings}) + "\n", encoding="utf-8")
            return []
        rows = data.split(b"\n")[:-1]
        self._check_header(rows[0])
        found: dict[int, dict[str, Any]] = {}
        for number, row in enumerate(rows[1:], start=2):
            if row.strip():
                game = self._game(row, number)
                if game["index"] in found:
                    raise self._error(number, f"repeats game {game['index'] + 1}")
                found[game["index"]] = game
        return [found[index] for index in sorted(found)]

    def append(self, game: Mapping[str, Any]) -> None:
        """Add a finished game (one line, its newline included)."""
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(game) + "\n")

    # --- checks ---

    def _mend(self, data: bytes, lines: list[bytes]) -> bytes:
        """Finish a file whose last line has no newline: a whole game line gets its newline, a cut
        one is removed (its game is played again)."""
        try:
            json.loads(lines[-1])
        except ValueError:
            kept = data[: len(data) - len(lines[-1])]
            LOG.warning(
                "the last line of %s was cut short (%d bytes, a match stopped while writing it): "
                "it is removed and its game played again",
                self.path,
                len(lines[-1]),
            )
            with self.path.open("r+b") as handle:
                handle.truncate(len(kept))
            return kept
        with self.path.open("ab") as handle:
            handle.write(b"\n")
        return data + b"\n"

    def _check_header(self, row: bytes) -> None:
        try:
            header = json.loads(row)
        except (ValueError, RecursionError):
            header = None
        if not isinstance(header, dict) or header.get(HEADER) != _FORMAT:
            raise MatchResultsError(
                f"results file {str(self.path)!r} does not start with a match header (written by another "
                "tool, or by a version before headers): give a new file"
            )
        theirs = header.get("settings")
        if theirs != self.settings:
            theirs = theirs if isinstance(theirs, dict) else {}
            differ = [
                f"{key} {excerpt(theirs.get(key), 60)} there, {excerpt(self.settings.get(key), 60)} here"
                for key in sorted(set(theirs) | set(self.settings))
                if theirs.get(key) != self.settings.get(key)
            ]
            raise MatchResultsError(
                f"results file {str(self.path)!r} holds games of another match ({'; '.join(differ[:4])}): "
                "give a new file, or the same settings to go on with it"
            )

    def _game(self, row: bytes, number: int) -> dict[str, Any]:
        try:
            game = json.loads(row)
        except (ValueError, RecursionError):
            raise self._error(number, f"is not JSON: {excerpt(row[:80])}") from None
        index = game.get("index") if isinstance(game, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise self._error(number, f"is not a game record: {excerpt(row[:80])}")
        assert isinstance(game, dict)
        if index >= self.games:
            raise self._error(
                number,
                f"holds game {index + 1}, past the {self.games} games asked for: ask for at least {index + 1}, "
                "or give another file",
            )
        white, black = self.labels if index % 2 == 0 else self.labels[::-1]
        if game.get("white") != white or game.get("black") != black or game.get("winner") not in _WINNERS:
            raise self._error(
                number, f"is game {index + 1} of {excerpt(game.get('white'))} against {excerpt(game.get('black'))}"
            )
        return game

    def _error(self, number: int, what: str) -> MatchResultsError:
        return MatchResultsError(f"results file {str(self.path)!r}, line {number}, {what}")
