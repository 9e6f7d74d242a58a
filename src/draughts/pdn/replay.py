"""Replay: a raw game's tags and movetext into a :class:`~draughts.pdn.Game` of legal moves."""

from __future__ import annotations

import re
from typing import NamedTuple, NoReturn

import attrs

from draughts._text import excerpt
from draughts.errors import DraughtsError, InvalidMoveError, PDNError, UnknownVariantError
from draughts.move import Move
from draughts.notation import matching_moves, move_text
from draughts.pdn import split
from draughts.pdn.errors import PDNAmbiguousMoveError, PDNIllegalMoveError, PDNTextError, PDNUnknownVariantError
from draughts.pdn.game import Game
from draughts.pdn.split import RawGame
from draughts.pdn.tags import INTERNATIONAL, ITALIAN_TAGS, OWN, named_ruleset
from draughts.pdn.text import lone_surrogate, unwritable
from draughts.pdn.words import (
    ANY_SEPARATOR,
    CAPTURE_SEPARATOR,
    MARKS,
    MOVE_NUMBER,
    MOVE_SHAPE,
    NAG,
    TRAILING_MARKS,
    first_player_frame,
    rotated,
)
from draughts.position import Position
from draughts.results import normalise_result
from draughts.rules import Ruleset
from draughts.rules.names import from_gametype, gametype_alias

_MAX_BRANCHES = 64
_MAX_MERGE = 12


class _Ply(NamedTuple):
    text: str  # as written, marks removed
    match: str  # what is matched against the legal moves
    line: int
    unknown: bool = False


@attrs.frozen(eq=False)
class _Node:
    """One move of a replay line; the line is the chain of parents."""

    move: Move
    parent: _Node | None
    first: int  # index of the first ply token the move consumed
    count: int  # ply tokens consumed (more than one for a merged split jump)
    depth: int  # moves up to and including this one


class Builder:
    """Turns one raw game into a :class:`Game`, raising :class:`PDNError` with the game named."""

    def __init__(self, raw: RawGame, index: int, variant: Ruleset | None, strict: bool = False) -> None:
        self.raw = raw
        self.strict = strict
        self.index = index
        self.variant = variant
        self.headers: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        names = {name for name, _, _ in raw.tags}
        for name, value, line in raw.tags:
            standard = ITALIAN_TAGS.get(name)
            if standard is not None and standard not in names:
                name = standard
            self.headers[name] = value
            self.tag_lines.setdefault(name, line)
        self.warnings: list[str] = []
        if raw.error is not None:
            self.fail(f"syntax error: {raw.error.text}", raw.error.line)
        self.check_text()
        self.rules = self.ruleset()
        self.start_position = self.start(self.rules)

    def check_text(self) -> None:
        """Refuse a tag, comment or variation that no PDN file could hold (a lone surrogate from a text stream)."""
        for name, value, line in self.raw.tags:
            problem = unwritable([("the tag name", name), (f"the tag {excerpt(name)}", value)])
            if problem is not None:
                self.headers = {key: text for key, text in self.headers.items() if lone_surrogate(key + text) is None}
                self.fail(problem, line, PDNTextError)
        for token in self.raw.body:
            problem = lone_surrogate(token.text)
            if problem is not None:
                self.fail(f"the {token.kind} {problem}", token.line, PDNTextError)
        problem = unwritable(("the comment", text) for text in self.raw.preamble)
        if problem is not None:
            self.fail(problem, self.raw.line, PDNTextError)

    def describe(self) -> str:
        named = ", ".join(
            f"{tag} {excerpt(self.headers[tag])}" for tag in ("White", "Black", "Event") if tag in self.headers
        )
        return f"game {self.index}" + (f" ({named})" if named else "")

    def fail(
        self,
        message: str,
        line: int,
        kind: type[PDNError] = PDNError,
        ply: int | None = None,
        move: str | None = None,
    ) -> NoReturn:
        raise kind(
            f"{self.describe()}, line {line}: {message}",
            game=self.index,
            line=line,
            ply=ply,
            move=move,
            headers=self.headers,
        )

    # --- tags ---

    def ruleset(self) -> Ruleset:
        """The rules: the GameType tag, checked against ``variant=``; else ``variant=``; else the Variant tag."""
        gametype = self.headers.get("GameType", "").strip()
        explicit = self.variant
        if gametype:
            try:
                return from_gametype(gametype, explicit)
            except UnknownVariantError as error:
                aliased = gametype_alias(gametype)
                if aliased is not None and (explicit is None or explicit == aliased):
                    return aliased
                reason = str(error)
                if aliased is not None and explicit is not None:
                    reason = (
                        f"GameType {excerpt(gametype)} is lidraughts' number of {aliased.name}, not {explicit.name}"
                    )
                if explicit is None:
                    message = f"unknown GameType: {reason}; a game of a ruleset of your own reads with variant={OWN}"
                else:
                    message = f"the GameType tag contradicts variant={explicit.name!r}: {reason}"
                self.fail(message, self.tag_lines["GameType"], PDNUnknownVariantError)
        if explicit is not None:
            return explicit
        variant = self.headers.get("Variant", "").strip()
        if not variant:
            return INTERNATIONAL
        rules = named_ruleset(variant)
        if rules is None:
            self.fail(
                f"the Variant tag {excerpt(variant)} names no known ruleset (and there is no GameType tag); "
                f"a game of a ruleset of your own reads with variant={OWN}",
                self.tag_lines["Variant"],
                PDNUnknownVariantError,
            )
        return rules

    def start(self, ruleset: Ruleset) -> Position:
        fen = self.headers.get("FEN")
        if fen is None or not fen.strip() or self.headers.get("SetUp", "").strip() == "0":
            return Position.initial(ruleset)
        try:
            return Position.from_fen(ruleset, fen)
        except DraughtsError as error:
            self.fail(f"bad FEN tag: {error}", self.tag_lines["FEN"])

    # --- movetext ---

    def plies(
        self, ruleset: Ruleset
    ) -> tuple[list[_Ply], dict[int, list[str]], dict[int, list[str]], dict[int, list[str]]]:
        plies: list[_Ply] = []
        comments: dict[int, list[str]] = {}
        variations: dict[int, list[str]] = {}
        annotations: dict[int, list[str]] = {}
        rotate = first_player_frame(ruleset)
        for token in self.raw.body:
            count = len(plies)
            if token.kind == "comment":
                comments.setdefault(count, []).append(token.text)
                continue
            if token.kind == "variation":
                variations.setdefault(count, []).append(token.text)
                continue
            word = token.text
            number = MOVE_NUMBER.match(word)
            if number is not None:
                word = word[number.end() :]
                if not word:
                    continue
            if re.fullmatch(r"\.+|…", word):
                continue
            if NAG.fullmatch(word) or MARKS.fullmatch(word):
                if count:
                    annotations.setdefault(count, []).append(word)
                continue
            if re.fullmatch(r"-{1,2}|—", word):
                plies.append(_Ply(word, word, token.line, unknown=True))
                continue
            mark = TRAILING_MARKS.search(word)
            core = word[: mark.start()] if mark else word
            if not MOVE_SHAPE.fullmatch(core):
                self.fail(f"unexpected text {excerpt(token.text)} in the movetext", token.line)
            plies.append(_Ply(core, rotated(ruleset, core) if rotate else core, token.line))
            if mark:
                annotations.setdefault(len(plies), []).append(mark.group())
        return plies, comments, variations, annotations

    def result(self, plies: list[_Ply]) -> str:
        terminator = self.raw.terminator
        written = None if terminator is None else normalise_result(terminator.text)
        tag_text = self.headers.get("Result")
        tag = None if tag_text is None else normalise_result(tag_text)
        if terminator is None and plies and tag not in (None, "*") and normalise_result(plies[-1].text) == tag:
            plies.pop()  # a match score in the place of the result (4-6)
            written = tag
        if tag is not None and tag != "*":
            if written not in (None, "*", tag):
                self.warnings.append(f"the Result tag says {tag} and the movetext {written}; the tag is taken")
            return tag
        return written or tag or "*"

    def label(self, position: Position, ply: int, text: str) -> str:
        first = position.ruleset.first_to_move
        offset = 0 if self.start_position.turn is first else 1
        number = (ply - 1 + offset) // 2 + 1
        shown = text if len(text) <= 40 else excerpt(text, 40)
        return f"ply {ply} ({number}{'.' if position.turn is first else '...'} {shown})"

    def options(self, plies: list[_Ply], index: int, position: Position, node: _Node | None) -> list[tuple[Move, int]]:
        ply = plies[index]
        depth = 1 + (node.depth if node else 0)
        if ply.unknown:
            self.fail(
                f"{self.label(position, depth, ply.text)}: the move is unknown ('{ply.text}'), so the game cannot be"
                " replayed",
                ply.line,
                PDNIllegalMoveError,
                depth,
                ply.text,
            )
        try:
            found = matching_moves(position, ply.match)
        except InvalidMoveError as error:
            self.fail(f"{self.label(position, depth, ply.text)}: {error}", ply.line, PDNError, depth, ply.text)
        if found:
            return [(move, 1) for move in found]
        return self.merged(plies, index, position)

    def merged(self, plies: list[_Ply], index: int, position: Position) -> list[tuple[Move, int]]:
        """A capture split into one ply per jump, joined again (only when it matches as written)."""
        if not CAPTURE_SEPARATOR.search(plies[index].match):
            return []
        rules = position.ruleset
        try:
            squares = [rules.parse_square(part) for part in ANY_SEPARATOR.split(plies[index].match.lower())]
            for later in range(index + 1, min(len(plies), index + _MAX_MERGE)):
                ply = plies[later]
                if ply.unknown or not CAPTURE_SEPARATOR.search(ply.match):
                    return []
                parts = [rules.parse_square(part) for part in ANY_SEPARATOR.split(ply.match.lower())]
                if parts[0] != squares[-1]:
                    return []
                squares += parts[1:]
                found = matching_moves(position, "x".join(str(square) for square in squares))
                if found:
                    return [(move, later - index + 1) for move in found]
        except DraughtsError:
            return []
        return []

    def replay(self, start: Position, plies: list[_Ply]) -> list[_Node]:
        """Every ply in turn, keeping each candidate of an ambiguous ply until later plies decide."""
        # buckets[i]: the lines that have consumed i ply tokens, by position (kept in the order found).
        buckets: dict[int, dict[tuple[int, int, int, int, int], tuple[Position, _Node | None]]] = {
            0: {_key(start): (start, None)}
        }
        failure: tuple[int, Position, _Node | None] | None = None
        for index in range(len(plies)):
            branches = buckets.pop(index, None)
            if not branches:
                continue
            for position, node in branches.values():
                options = self.options(plies, index, position, node)
                if not options and (failure is None or failure[0] < index):
                    failure = (index, position, node)
                for move, count in options:
                    after = position.play(move)
                    bucket = buckets.setdefault(index + count, {})
                    key = _key(after)
                    if key in bucket:
                        continue  # another candidate already reached this position: keep the first
                    depth = 1 + (node.depth if node else 0)
                    bucket[key] = (after, _Node(move, node, index, count, depth))
                    if len(bucket) > _MAX_BRANCHES:
                        self.ambiguous(plies, [line for _, line in bucket.values()])
        finals = [line for _, line in buckets.get(len(plies), {}).values()]
        if not finals:
            assert failure is not None
            self.illegal(plies, *failure)
        if len(finals) > 1:
            chains = [_chain_of(node) for node in finals]
            settled = all([n.move for n in chain[:-1]] == [n.move for n in chains[0][:-1]] for chain in chains)
            if self.strict or not settled:
                self.ambiguous(plies, finals)
            ply = plies[chains[0][-1].first]
            self.warnings.append(
                f"ply {chains[0][-1].depth}: the last move {excerpt(ply.text, 40)} fits {len(chains)} legal moves "
                "and no later move can settle it; the first is taken"
            )
        return _chain_of(finals[0])

    def illegal(self, plies: list[_Ply], index: int, position: Position, node: _Node | None) -> NoReturn:
        ply = plies[index]
        depth = 1 + (node.depth if node else 0)
        legal = ", ".join(move_text(position, move) for move in position.legal_moves()) or "none"
        self.fail(
            f"{self.label(position, depth, ply.text)}: move {excerpt(ply.text, 40)} is not legal in {position.fen()} "
            f"({position.ruleset.name}); legal moves: {legal}",
            ply.line,
            PDNIllegalMoveError,
            depth,
            ply.text,
        )

    def ambiguous(self, plies: list[_Ply], lines: list[_Node | None]) -> NoReturn:
        chains = [_chain_of(node) for node in lines]
        position = self.start_position
        for depth, nodes in enumerate(zip(*chains, strict=False), 1):
            if any(node.move != nodes[0].move for node in nodes):
                ply = plies[nodes[0].first]
                candidates = ", ".join(dict.fromkeys(move_text(position, node.move, long=True) for node in nodes))
                self.fail(
                    f"{self.label(position, depth, ply.text)}: move {excerpt(ply.text, 40)} is ambiguous in "
                    f"{position.fen()}: it may be {candidates}, and no later move settles it",
                    ply.line,
                    PDNAmbiguousMoveError,
                    depth,
                    ply.text,
                )
            position = position.play(nodes[0].move)
        self.fail("the moves are ambiguous", self.raw.line, PDNAmbiguousMoveError)  # pragma: no cover

    def too_long(self, start: Position, plies: list[_Ply]) -> NoReturn:
        """A game past :data:`split.MAX_BODY_TOKENS`: the first bad move of the part kept, else that it is too long."""
        self.replay(start, plies)
        kept = len(self.raw.body)
        self.fail(
            f"the movetext has {kept + self.raw.dropped:,} tokens (moves, move numbers, comments), more than the"
            f" {split.MAX_BODY_TOKENS:,} a game may have; its first {len(plies):,} plies are legal, the game is"
            " not read",
            self.raw.line,
            ply=len(plies) + 1,  # the first ply not read
        )

    def build(self) -> Game:
        ruleset, start = self.rules, self.start_position
        plies, comments, variations, annotations = self.plies(ruleset)
        if self.raw.dropped:
            self.too_long(start, plies)
        result = self.result(plies)
        if not self.raw.body and self.raw.terminator is None:
            self.warnings.append("the game has tags only: no movetext and no result")
        chain = self.replay(start, plies)
        # Map ply-token counts to move counts (they differ only after a merged split jump).
        moves_at = [0] * (len(plies) + 2)
        for node in chain:
            for index in range(node.first + 1, node.first + node.count + 1):
                moves_at[index] = node.depth
            if node.count > 1:
                texts = " ".join(ply.text for ply in plies[node.first : node.first + node.count])
                self.warnings.append(f"ply {node.depth}: the split multi-jump {excerpt(texts)} is read as one move")
        last = len(moves_at) - 1
        moves_at[last] = moves_at[last - 1]

        def rekey(items: dict[int, list[str]]) -> dict[int, list[str]]:
            out: dict[int, list[str]] = {}
            for count, texts in items.items():
                out.setdefault(moves_at[min(count, last)], []).extend(texts)
            return out

        return Game(
            ruleset,
            self.headers,
            start,
            [node.move for node in chain],
            result,
            rekey(comments),
            rekey(annotations),
            rekey(variations),
            list(self.raw.preamble),
            self.index,
            self.raw.line,
            self.warnings,
        )


def _key(position: Position) -> tuple[int, int, int, int, int]:
    """A cheap hash key for positions under one ruleset."""
    return position.node


def _chain_of(node: _Node | None) -> list[_Node]:
    chain = []
    while node is not None:
        chain.append(node)
        node = node.parent
    chain.reverse()
    return chain
