"""Learn to play by self-play, then beat a random player: TD(lambda) on the observation planes, numpy only.

The agent is a linear value function on the piece planes of :func:`draughts.ai.observation`
(own men, own kings, opponent men, opponent kings: one weight per plane and square, plus a bias),
squashed by ``tanh``: ``V(position)`` is the expected result for the side to move, from -1 to 1.
It plays the move that leaves the opponent the worst position (highest ``-V``); where the opponent
must capture in reply, it looks at the position after the opponent's best capture instead, so that
it sees a piece it leaves hanging (captures are forced, so without this a value of material alone
would choose as blindly as a random player).

It learns from self-play games through the PettingZoo environment (10% random moves): after each
game, TD(lambda) moves ``V`` of every position towards its lambda-return, built backwards from the
result the environment reports (+1, -1, or 0 for a draw or a cut game). Moves are chosen as
:class:`~draughts.Move` values and sent to the environment as its actions (``env.encode``).

Then the trained agent plays ``--eval-games`` games against a random player (uniform among the
legal moves), half with each colour, and so does the untrained agent (all weights zero: it only
avoids losing at once) as the baseline. The default run is small enough for CI; the full
measurement is::

    python examples/learn_td.py --train-games 300 --eval-games 200
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

import draughts
import draughts.ai

Weights = npt.NDArray[np.float64]


def features(encoding: draughts.ai.Encoding, position: draughts.Position) -> npt.NDArray[np.float64]:
    """The four piece planes seen from the side to move, flattened, and a constant 1 (the bias)."""
    planes = encoding.observation(position)[:, :, :4]
    return np.append(planes.reshape(-1), 1.0).astype(np.float64)


def value(encoding: draughts.ai.Encoding, weights: Weights, position: draughts.Position) -> float:
    """``V``: the expected result for the side to move; the result itself where the rules end the game."""
    outcome = draughts.Board.from_position(position).outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else 1.0 if outcome.winner is position.turn else -1.0
    return float(np.tanh(weights @ features(encoding, position)))


def score(encoding: draughts.ai.Encoding, weights: Weights, position: draughts.Position, move: draughts.Move) -> float:
    """The value of ``move`` for the side playing it: ``-V`` of the position it leaves, or, when the
    opponent must capture there, the value after its best capture (so a piece left hanging is seen)."""
    after = position.play(move)
    if after.has_capture():
        return min(value(encoding, weights, after.play(reply)) for reply in after.legal_moves())
    return -value(encoding, weights, after)


def choose(
    encoding: draughts.ai.Encoding,
    weights: Weights,
    position: draughts.Position,
    rng: np.random.Generator,
    epsilon: float = 0.0,
) -> draughts.Move:
    """The best move by :func:`score` (ties broken at random; a random move with chance ``epsilon``)."""
    moves = list(position.legal_moves())
    if epsilon and rng.random() < epsilon:
        return moves[int(rng.integers(len(moves)))]
    scores = [score(encoding, weights, position, move) for move in moves]
    best = max(scores)
    ties = [move for move, value in zip(moves, scores, strict=True) if value >= best - 1e-9]
    return ties[int(rng.integers(len(ties)))]


def train(
    rules: draughts.Ruleset, games: int, max_plies: int, seed: int, alpha: float = 0.003, lam: float = 0.95
) -> Weights:
    """Weights learnt from ``games`` self-play games (epsilon-greedy moves, TD(lambda) after each game),
    averaged over the second half of the games."""
    encoding = draughts.ai.encoding(rules)
    rng = np.random.default_rng(seed)
    weights = np.zeros(encoding.size * encoding.size * 4 + 1)
    env = draughts.ai.env(rules, max_plies=max_plies)
    average = np.zeros_like(weights)  # of the weights after each game of the second half: less noise
    for game in range(games):
        env.reset()
        seen = []  # features of each position before a move, for the side to move there
        while not (any(env.terminations.values()) or any(env.truncations.values())):
            position = env.position
            seen.append(features(encoding, position))
            move = choose(encoding, weights, position, rng, epsilon=0.1)
            for action in env.encode(move):
                env.step(action)
        # The result for the side that made the last move; each earlier position belongs to the other side.
        mover = env.agent(env.position.turn.opponent)
        x = np.array(seen)
        values = np.tanh(x @ weights)
        targets = np.empty_like(values)
        target = env.rewards[mover]
        for t in range(len(seen) - 1, -1, -1):
            targets[t] = target
            # The lambda-return of the position before: mixes the value and the return of this one.
            target = -((1 - lam) * values[t] + lam * target)
        weights += alpha * ((targets - values) * (1 - values**2)) @ x
        if game >= games // 2:
            average += weights
    return average / (games - games // 2)


def match(rules: draughts.Ruleset, weights: Weights, games: int, max_plies: int, seed: int) -> tuple[int, int, int]:
    """(wins, draws, losses) of the greedy agent against a random player, colours alternating."""
    encoding = draughts.ai.encoding(rules)
    rng = np.random.default_rng(seed)
    env = draughts.ai.env(rules, max_plies=max_plies)
    wins = draws = losses = 0
    for game in range(games):
        env.reset()
        learner = draughts.ai.AGENTS[game % 2]
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if agent == learner:
                    wins += reward > 0
                    losses += reward < 0
                    draws += reward == 0
                env.step(None)
                continue
            position = env.position
            if agent == learner:
                move = choose(encoding, weights, position, rng)
            else:
                moves = position.legal_moves()
                move = moves[int(rng.integers(len(moves)))]
            for action in env.encode(move):
                env.step(action)
    return wins, draws, losses


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", help="rulesets to learn (default: american and russian)")
    parser.add_argument("--train-games", type=int, default=150, help="self-play games per ruleset (default 150)")
    parser.add_argument("--eval-games", type=int, default=40, help="games against the random player (default 40)")
    parser.add_argument("--max-plies", type=int, default=200, help="a game longer than this is a draw (200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'variant':<14}{'agent':<10}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}{'score':>7}{'seconds':>9}")
    for name in args.variant or ["american", "russian"]:
        rules = draughts.get_variant(name)
        began = time.perf_counter()
        weights = train(rules, args.train_games, args.max_plies, args.seed)
        trained_at = time.perf_counter()
        for label, used in (("untrained", np.zeros_like(weights)), ("trained", weights)):
            start = time.perf_counter()
            wins, draws, losses = match(rules, used, args.eval_games, args.max_plies, args.seed + 1)
            score = (wins + draws / 2) / args.eval_games
            spent = (trained_at - began if label == "trained" else 0) + time.perf_counter() - start
            print(
                f"{rules.name:<14}{label:<10}{args.eval_games:>6}{wins:>6}{draws:>6}{losses:>7}"
                f"{score:>7.0%}{spent:>9.1f}"
            )


if __name__ == "__main__":
    main()
