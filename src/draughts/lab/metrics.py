"""What one ruleset's games measure: the lab's stable result type and every metric's formula.

A :class:`GameRecord` is what one game leaves (per-ply counts, the engine's evaluations, how it
ended); :func:`measure` turns one ruleset's records into a :class:`RulesetMetrics`, each estimate
with its 95% interval (:mod:`draughts.lab.stats`). Notation: games ``g = 1..n``; ``P_g`` plies
played in game ``g``; ``L_{g,i}`` legal moves in its position before ply ``i`` (positions where the
side to move has a move); ``T_{g,i}`` pieces taken by ply ``i`` (0 for a quiet move); ``s_g`` the
first player's score (win 1, draw ½, loss 0), the first player being the colour the ruleset lets
move first; ``e_{g,i}`` the evaluation of the position before ply ``i`` from the first player's
side, in hundredths of a man, from the engine's own search (clamped to ±:data:`EVAL_CLAMP`).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from draughts.errors import DraughtsError
from draughts.lab.stats import POSITIVE, SHARE, Estimate, mean_interval, ratio_interval, wilson

if TYPE_CHECKING:
    from draughts.rules import Ruleset
__all__ = [
    "CAP",
    "DECISIVE_THRESHOLD",
    "EVAL_CLAMP",
    "GameRecord",
    "RulesetMetrics",
    "complexity_metrics",
    "decided_at",
    "duration_metrics",
    "evaluation_metrics",
    "lead_changes",
    "measure",
    "outcome_metrics",
    "tablebase_facts",
]

CAP = "ply cap"
"""The ending of a game stopped at the ply cap (no result by the rules)."""
EVAL_CLAMP = 3000
"""Evaluations beyond ±30 men (won or lost by force) count as ±30 men, so one mate score does not
swamp a mean."""
DECISIVE_THRESHOLD = 200
"""Decisiveness: the eventual winner's evaluation (hundredths of a man) that counts as decided."""


@attrs.frozen
class GameRecord:
    """What one game left to measure (a JSON line of a results file, see :meth:`to_dict`).

    Attributes:
        ruleset: The ruleset's name as given to the lab.
        index: The game's index in its ruleset's run.
        players: The labels of the first player and the second (who moved first, who second).
        opening: The index of the opening it started from, or None for the start position.
        plies: Plies played by the players (the opening's moves not counted; a capped game
            counts at the cap).
        winner: 0 when the first player won, 1 when the second did, None for a draw or the cap.
        ending: The outcome's rule in words, or :data:`~draughts.lab.metrics.CAP`.
        legal: Legal moves of every position where the side to move has a move, in order
            (``L_{g,i}``; one more than ``plies`` when a capped game still had moves).
        taken: Pieces taken by each ply (``T_{g,i}``; 0 for a quiet move).
        crowning: The first ply (1-based) that crowned a man, or None.
        evals: The mover's engine evaluation of each position before its ply, from the first
            player's side (``e_{g,i}``); None where the mover does not evaluate (a random player).
        coverage: Squares that a piece stood on in at least one position of the game.
        squares: The board's playable squares.
        moves: Each ply's move as its index among the legal moves in move order (the game itself:
            what tells two games apart; empty in records written before it was kept).
    """

    ruleset: str
    index: int
    players: tuple[str, str]
    opening: int | None
    plies: int
    winner: int | None
    ending: str
    legal: tuple[int, ...]
    taken: tuple[int, ...]
    crowning: int | None
    evals: tuple[int | None, ...]
    coverage: int
    squares: int
    moves: tuple[int, ...] = ()

    @property
    def score(self) -> float:
        """The first player's score: win 1, draw ½, loss 0."""
        return 0.5 if self.winner is None else float(self.winner == 0)

    @property
    def captures(self) -> int:
        """Plies that were captures."""
        return sum(1 for t in self.taken if t)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-able values."""
        return {
            **attrs.asdict(self, recurse=False),
            "players": list(self.players),
            "legal": list(self.legal),
            "taken": list(self.taken),
            "evals": list(self.evals),
            "moves": list(self.moves),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """A record back from :meth:`to_dict` (a results file's line)."""
        try:
            return cls(
                ruleset=str(data["ruleset"]),
                index=int(data["index"]),
                players=(str(data["players"][0]), str(data["players"][1])),
                opening=None if data["opening"] is None else int(data["opening"]),
                plies=int(data["plies"]),
                winner=None if data["winner"] is None else int(data["winner"]),
                ending=str(data["ending"]),
                legal=tuple(int(v) for v in data["legal"]),
                taken=tuple(int(v) for v in data["taken"]),
                crowning=None if data["crowning"] is None else int(data["crowning"]),
                evals=tuple(None if v is None else int(v) for v in data["evals"]),
                coverage=int(data["coverage"]),
                squares=int(data["squares"]),
                moves=tuple(int(v) for v in data.get("moves", ())),
            )
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise DraughtsError(f"not a lab game record: {str(dict(data))[:120]!r} ({error})") from None


@attrs.frozen
class RulesetMetrics:
    """Every metric of one ruleset's games (the lab's stable result; :meth:`to_dict` for JSON).

    Estimates carry 95% intervals: Wilson for shares of games, normal for means over games, the
    delta method for ratios pooled over positions or plies (games are the independent units).
    Metrics that need evaluations are None when no player evaluated (random players), and the
    tablebase facts read ``not built`` where a table is missing.
    """

    ruleset: str
    games: int
    players: tuple[str, ...]
    first_player_score: Estimate
    first_win_rate: Estimate
    second_win_rate: Estimate
    draw_rate: Estimate
    drawishness: Estimate
    balance: Estimate
    completion: Estimate
    endings: Mapping[str, int]
    player_scores: Mapping[str, Estimate]
    plies_mean: Estimate
    plies_median: float
    plies: tuple[int, ...]
    branching_factor: Estimate
    branching_curve: tuple[float, ...]
    decision_curve: tuple[float, ...]
    curve_games: tuple[int, ...]
    decision_share: Estimate
    capture_share: Estimate
    pieces_per_capture: Estimate
    crowning_share: Estimate
    first_crowning_ply: Estimate
    board_coverage: Estimate
    lead_change_rate: Estimate | None
    lead_changes: Estimate | None
    drama: Estimate | None
    drama_share: Estimate | None
    decisiveness: Estimate | None
    decisiveness_ply: Estimate | None
    tablebase: Mapping[str, str]

    CONTRACT = (
        "first_player_score",
        "draw_rate",
        "plies_mean",
        "branching_factor",
        "capture_share",
        "decision_share",
    )
    """The keys scripts depend on: plain numbers at the top of :meth:`to_dict`."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able values: every estimate as its value, with ``intervals[name] = [low, high]``."""
        out: dict[str, Any] = {}
        intervals: dict[str, list[float | None]] = {}
        for field in attrs.fields(type(self)):
            value = getattr(self, field.name)
            if isinstance(value, Estimate):
                out[field.name] = _number(value.value)
                intervals[field.name] = [_number(value.low), _number(value.high)]
            elif field.name == "player_scores":
                out[field.name] = {k: _number(v.value) for k, v in value.items()}
                for k, v in value.items():
                    intervals[f"player_scores/{k}"] = [_number(v.low), _number(v.high)]
            elif isinstance(value, Mapping):
                out[field.name] = dict(value)
            elif isinstance(value, tuple):
                out[field.name] = list(value)
            else:
                out[field.name] = value
        out["intervals"] = intervals
        return out


def _number(value: float) -> float | None:
    """A float for JSON: None for NaN (no data), rounded to 12 significant digits (stable text)."""
    return None if math.isnan(value) else float(f"{value:.12g}")


# --- the metrics --------------------------------------------------------------------------------


def outcome_metrics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Outcome metrics of ``n`` games.

    * ``first_player_score = Σ s_g / n`` (Ludii's *Advantage*, draws counting ½), normal interval;
    * ``first_win_rate``, ``second_win_rate``, ``draw_rate``: shares of games won by each side and
      drawn (a capped game counts as a draw), Wilson intervals;
    * ``drawishness``: share of games drawn *by a rule* (the cap excluded), as Ludii's
      *Drawishness* ("not including timeouts");
    * ``balance = 1 - |W₁ - W₂|`` with ``W`` the win rates (Ludii's *Balance* for two players:
      one minus the largest gap between the players' win rates), normal interval from the
      per-game values ``[winner = first] - [winner = second]``;
    * ``completion``: share of games ended by the rules, not the cap (Ludii's *Completion*);
    * ``endings``: games per ending (the rule's words, or ``ply cap``);
    * ``player_scores``: each player's mean score over its games, whichever colour it had.
    """
    n = len(records)
    firsts = sum(r.winner == 0 for r in records)
    seconds = sum(r.winner == 1 for r in records)
    draws = n - firsts - seconds
    capped = sum(r.ending == CAP for r in records)
    gap = mean_interval([float(r.winner == 0) - float(r.winner == 1) for r in records], bounds=(-1.0, 1.0))
    ends = sorted((1 - abs(gap.low), 1 - abs(gap.high)))
    balance = Estimate(1 - abs(gap.value), ends[0], 1.0 if gap.low < 0 < gap.high else ends[1], n)
    scores: dict[str, list[float]] = {}
    for r in records:
        scores.setdefault(r.players[0], []).append(r.score)
        scores.setdefault(r.players[1], []).append(1 - r.score)
    return {
        "first_player_score": mean_interval([r.score for r in records], bounds=(0.0, 1.0)),
        "first_win_rate": wilson(firsts, n),
        "second_win_rate": wilson(seconds, n),
        "draw_rate": wilson(draws, n),
        "drawishness": wilson(draws - capped, n),
        "balance": balance,
        "completion": wilson(n - capped, n),
        "endings": dict(sorted(Counter(r.ending for r in records).items())),
        "player_scores": {k: mean_interval(v, bounds=(0.0, 1.0)) for k, v in sorted(scores.items())},
    }


def duration_metrics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Duration: ``plies_mean = Σ P_g / n`` (Ludii's *Duration* in plies; capped games at the cap),
    normal interval; ``plies_median``; ``plies``, every game's length in order (the distribution)."""
    plies = [r.plies for r in records]
    return {
        "plies_mean": mean_interval([float(p) for p in plies], bounds=POSITIVE),
        "plies_median": float(statistics.median(plies)),
        "plies": tuple(sorted(plies)),
    }


def complexity_metrics(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Complexity, pooled over every position or ply of every game (delta-method intervals):

    * ``branching_factor = Σ_g Σ_i L_{g,i} / Σ_g |L_g|``: legal moves per position where the side
      to move has one (Ludii's *Branching Factor*, moves counted once per FMJD identity);
    * ``decision_share = Σ_g #{i : L_{g,i} > 1} / Σ_g |L_g|`` (Ludii's *Decision Moves*);
    * ``branching_curve[i] = mean_g L_{g,i}`` and ``decision_curve[i]`` the share of
      ``L_{g,i} > 1``, over the ``curve_games[i]`` games that reached position ``i``;
    * ``capture_share = Σ_g #{i : T_{g,i} > 0} / Σ_g P_g``: captures among plies played;
    * ``pieces_per_capture = Σ_g Σ_i T_{g,i} / Σ_g #{i : T_{g,i} > 0}``;
    * ``crowning_share``: games where a man crowned (Wilson); ``first_crowning_ply``: the mean
      ply of the first crowning over those games (normal);
    * ``board_coverage = mean_g coverage_g / squares``: the share of playable squares a piece
      stood on at least once (Ludii's *Board Coverage*), normal interval.
    """
    curve_games, branching, decision = _curves(records)
    crowned = [float(r.crowning) for r in records if r.crowning is not None]
    return {
        "branching_factor": ratio_interval(
            [sum(r.legal) for r in records], [len(r.legal) for r in records], bounds=POSITIVE
        ),
        "decision_share": ratio_interval(
            [sum(v > 1 for v in r.legal) for r in records], [len(r.legal) for r in records], bounds=SHARE
        ),
        "branching_curve": branching,
        "decision_curve": decision,
        "curve_games": curve_games,
        "capture_share": ratio_interval([r.captures for r in records], [r.plies for r in records], bounds=SHARE),
        "pieces_per_capture": ratio_interval(
            [sum(r.taken) for r in records], [r.captures for r in records], bounds=POSITIVE
        ),
        "crowning_share": wilson(len(crowned), len(records)),
        "first_crowning_ply": mean_interval(crowned, bounds=POSITIVE),
        "board_coverage": mean_interval([r.coverage / r.squares for r in records], bounds=(0.0, 1.0)),
    }


def _curves(records: Sequence[GameRecord]) -> tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]:
    """Per position index: the games that reached it, their mean legal moves and their share of
    positions with a choice, in one pass over the records (whole-number sums, so the figures do
    not depend on the order they are added in)."""
    longest = max((len(r.legal) for r in records), default=0)
    games, moves, choices = [0] * longest, [0] * longest, [0] * longest
    for r in records:
        for i, count in enumerate(r.legal):
            games[i] += 1
            moves[i] += count
            choices[i] += count > 1
    return (
        tuple(games),
        tuple(m / k for m, k in zip(moves, games, strict=True)),
        tuple(c / k for c, k in zip(choices, games, strict=True)),
    )


def _clamped(evals: Sequence[int | None]) -> list[int]:
    return [max(-EVAL_CLAMP, min(EVAL_CLAMP, e)) for e in evals if e is not None]


def lead_changes(evals: Sequence[int]) -> int:
    """How often the side ahead changes: the leader of ``e`` is its sign, evaluations of 0 (level)
    are skipped, and each switch between +1 and -1 in order counts once."""
    leaders = [1 if e > 0 else -1 for e in evals if e != 0]
    return sum(a != b for a, b in itertools.pairwise(leaders))


def decided_at(winner_evals: Sequence[int], threshold: int = DECISIVE_THRESHOLD) -> int:
    """The index of the first evaluation from which the winner's evaluation stays at or above
    ``threshold`` to the end (``len`` if the last one is below it)."""
    at = len(winner_evals)
    for i in range(len(winner_evals) - 1, -1, -1):
        if winner_evals[i] < threshold:
            break
        at = i
    return at


def evaluation_metrics(records: Sequence[GameRecord], threshold: int = DECISIVE_THRESHOLD) -> dict[str, Any]:
    """Metrics from the engine's evaluations ``e_g`` (the evaluated plies of game ``g``, in order);
    all None when no game has two evaluations.

    * ``lead_change_rate = Σ_g changes(e_g) / Σ_g (|e_g| - 1)``: switches of the side ahead per
      evaluated ply (Ludii's *Lead Change*, with the engine's evaluation as the heuristic);
      ``lead_changes``: mean switches per game (normal);
    * over decisive games, with ``w_{g,i}`` the evaluation from the eventual winner's side:
      ``drama = mean_g max(0, -min_i w_{g,i})``: how far (hundredths of a man) the winner trailed
      at worst (Ludii's *Drama* averages the trail over the plies where the winner was behind;
      the deepest trail reads more directly); ``drama_share = Σ_g #{i : w_{g,i} < 0} / Σ_g |e_g|``;
    * ``decisiveness = Σ_g (|e_g| - d_g) / Σ_g |e_g|``, ``d_g`` the first evaluated ply from which
      ``w_{g,i} ≥ threshold`` for the rest of the game (:func:`decided_at`): the share of a decisive
      game played after it was decided (Ludii's *Decisiveness Moves*, with a fixed threshold of
      two men instead of Ludii's maximum observed evaluation); ``decisiveness_ply``: mean ``d_g``.
    """
    evaluated = [(r, _clamped(r.evals)) for r in records]
    evaluated = [(r, e) for r, e in evaluated if len(e) > 1]
    if not evaluated:
        return dict.fromkeys(
            ("lead_change_rate", "lead_changes", "drama", "drama_share", "decisiveness", "decisiveness_ply")
        )
    changes = [float(lead_changes(e)) for _, e in evaluated]
    decisive = [(e if r.winner == 0 else [-v for v in e]) for r, e in evaluated if r.winner is not None]
    decided = [decided_at(w, threshold) for w in decisive]
    return {
        "lead_change_rate": ratio_interval(changes, [len(e) - 1 for _, e in evaluated], bounds=SHARE),
        "lead_changes": mean_interval(changes, bounds=POSITIVE),
        "drama": mean_interval([float(max(0, -min(w))) for w in decisive], bounds=POSITIVE) if decisive else None,
        "drama_share": ratio_interval(
            [sum(v < 0 for v in w) for w in decisive], [len(w) for w in decisive], bounds=SHARE
        )
        if decisive
        else None,
        "decisiveness": ratio_interval(
            [len(w) - d for w, d in zip(decisive, decided, strict=True)], [len(w) for w in decisive], bounds=SHARE
        )
        if decisive
        else None,
        "decisiveness_ply": mean_interval([float(d) for d in decided], bounds=POSITIVE) if decisive else None,
    }


def tablebase_facts(ruleset: str | Ruleset, directory: str | None) -> dict[str, str]:
    """Facts from the endgame tablebases of ``ruleset`` in ``directory`` (``draughts.endgame.facts``):
    ``kings_needed`` (the fewest kings that beat a lone king from 90% of positions, kings to move)
    and the first player's won share of each reference material; ``not built`` without tables."""
    from draughts.endgame.facts import NOT_BUILT, REFERENCE_MATERIALS

    keys = ["kings_needed", *(f"won_{m}" for m in REFERENCE_MATERIALS)]
    if directory is None:
        return dict.fromkeys(keys, NOT_BUILT)
    from draughts.endgame.facts import kings_needed, won_share
    from draughts.endgame.tablebase import Tablebase
    from draughts.rules.names import get_variant

    tb = Tablebase(get_variant(ruleset), directory)
    return {"kings_needed": kings_needed(tb), **{f"won_{m}": won_share(tb, m) for m in REFERENCE_MATERIALS}}


def measure(
    records: Sequence[GameRecord],
    *,
    tablebases: str | None = None,
    threshold: int = DECISIVE_THRESHOLD,
    ruleset: Ruleset | None = None,
) -> RulesetMetrics:
    """Every metric of one ruleset's ``records`` (in index order, so the figures never depend on
    which worker finished first); ``ruleset`` is the records' ruleset where their label does not
    name it (a rule file's), for the tablebase facts."""
    if not records:
        raise DraughtsError("no games to measure: play at least one game")
    names = {r.ruleset for r in records}
    if len(names) != 1:
        raise DraughtsError(f"records of several rulesets {sorted(names)!r}: measure one ruleset at a time")
    ordered = sorted(records, key=lambda r: r.index)
    players = tuple(sorted({p for r in ordered for p in r.players}))
    return RulesetMetrics(
        ruleset=ordered[0].ruleset,
        games=len(ordered),
        players=players,
        **outcome_metrics(ordered),
        **duration_metrics(ordered),
        **complexity_metrics(ordered),
        **evaluation_metrics(ordered, threshold),
        tablebase=tablebase_facts(ordered[0].ruleset if ruleset is None else ruleset, tablebases),
    )
