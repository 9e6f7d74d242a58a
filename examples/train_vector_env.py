"""Train a policy by self-play through the batched environment, numpy only, then play it against a random player.

:class:`draughts.ai.VectorEnv` steps ``--envs`` games at once natively; one policy plays both sides
of every game (each game is played by its side to move, and ``info["player"]`` says which agent
that is). The policy is linear softmax over the legal actions: the logit of action ``a`` is
``W[a] @ features``, the features being the four piece planes of the observation (own men, own
kings, opponent men, opponent kings), flattened, and a constant 1. It learns by REINFORCE: after
each rollout of ``--steps`` batched steps, every action taken moves ``W`` towards what made it
likely, weighted by the result of its game for the side that took it (+1, -1, 0 for a draw or a
game the rollout cut), less the mean result (the baseline).

Then the trained policy and the untrained one (``W = 0``: uniform among the legal actions) each play
``player_0`` against a random ``player_1`` in a fresh batch, and the results are printed. No
download, no GPU: ``python examples/train_vector_env.py --quick`` runs in a second or two (CI,
too short to learn much); the default run (20 rollouts of 60 steps of 128 games, a few seconds of
CPU) took the trained policy from 48% to 86% against the random player in Russian draughts, 400
games.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

import draughts.ai

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def features(obs: npt.NDArray[np.float32]) -> Floats:
    """The four piece planes of each observation, flattened, and a constant 1."""
    n = obs.shape[0]
    return np.concatenate([obs[..., :4].reshape(n, -1), np.ones((n, 1), np.float32)], axis=1).astype(np.float64)


def legal(mask: npt.NDArray[np.bool_]) -> tuple[Ints, Ints, Ints]:
    """The legal (game, action) pairs of a batch of masks, game by game; and where each game's start."""
    flat = np.flatnonzero(mask)
    rows, actions = np.divmod(flat, mask.shape[1])
    return rows, actions, np.searchsorted(rows, np.arange(mask.shape[0]))


def policy(
    weights: Floats, feats: Floats, mask: npt.NDArray[np.bool_], rng: np.random.Generator
) -> tuple[Ints, tuple[Ints, Ints, Floats, Floats]]:
    """One action per game sampled from the softmax over its legal actions; and, for learning, the
    legal pairs with their probabilities and the chosen ones (0 for a game without a legal action)."""
    rows, actions, starts = legal(mask)
    logits = np.einsum("ij,ij->i", weights[actions], feats[rows])
    top = np.maximum.reduceat(logits, starts.clip(max=max(len(logits) - 1, 0))) if len(logits) else logits
    expo = np.exp(logits - top[rows])
    probs = expo / np.add.reduceat(expo, starts.clip(max=max(len(expo) - 1, 0)))[rows]
    # Sampling: each game's probabilities sum to 1, so the running sum reaches k + u inside the
    # segment of the k-th game that has legal actions (kept inside it against rounding).
    counts = np.diff(np.append(starts, len(rows)))
    has = counts > 0
    before = np.cumsum(has) - has
    picks = np.searchsorted(np.cumsum(probs), before + rng.random(mask.shape[0]))
    picks = np.clip(picks, starts, starts + np.maximum(counts, 1) - 1).clip(max=max(len(rows) - 1, 0))
    chosen = np.where(has, actions[picks] if len(rows) else 0, 0)
    taken = np.zeros(len(rows))
    taken[picks[has]] = 1.0
    return chosen, (rows, actions, probs, taken)


def rollout(
    envs: draughts.ai.VectorEnv, weights: Floats, state: dict[str, object], steps: int, rng: np.random.Generator
) -> Floats:
    """``steps`` batched steps of self-play, then one REINFORCE update; the gradient's step."""
    obs, info = state["obs"], state["info"]
    record = []
    for _ in range(steps):
        feats = features(obs)  # type: ignore[arg-type]
        actions, learn = policy(weights, feats, info["action_mask"], rng)  # type: ignore[index]
        player = info["player"].copy()  # type: ignore[index]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        record.append((feats, learn, player, rewards.copy(), terminated.copy(), truncated.copy()))
    state["obs"], state["info"] = obs, info
    # Backwards: the result of each step's game for player_0 (0 while unknown: cut by the rollout).
    outcome = np.zeros(envs.num_envs)
    returns = []
    for _feats, _learn, player, rewards, terminated, truncated in reversed(record):
        ended = terminated | truncated
        outcome = np.where(ended, np.where(player == 0, rewards, -rewards), outcome)
        returns.append(np.where(player == 0, outcome, -outcome))
        # A game that ended here starts again at the next step: what came after is another game.
    returns.reverse()
    baseline = float(np.mean(returns))
    gradient = np.zeros_like(weights)
    flat = gradient.reshape(-1)
    width = weights.shape[1]
    for (feats, (rows, actions, probs, taken), *_), ret in zip(record, returns, strict=True):
        coef = (ret[rows] - baseline) * (taken - probs)
        index = (actions[:, None] * width + np.arange(width)).reshape(-1)
        flat += np.bincount(index, weights=(coef[:, None] * feats[rows]).reshape(-1), minlength=flat.size)
    return gradient / (steps * envs.num_envs)


def evaluate(ruleset: str, weights: Floats, games: int, seed: int) -> tuple[int, int, int]:
    """The policy as player_0 against a uniformly random player_1: (wins, draws, losses)."""
    envs = draughts.ai.VectorEnv(ruleset, games, max_plies=300)
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    results = np.full(games, np.nan)
    while np.isnan(results).any():
        mine, _ = policy(weights, features(obs), info["action_mask"], rng)
        actions = np.where(info["player"] == 0, mine, envs.sample_legal_actions())
        player = info["player"].copy()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        ended = (terminated | truncated) & np.isnan(results)
        results[ended] = np.where(player[ended] == 0, rewards[ended], -rewards[ended])
    return int((results > 0).sum()), int((results == 0).sum()), int((results < 0).sum())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--envs", type=int, default=128, help="games stepped together")
    parser.add_argument("--rollouts", type=int, default=20, help="updates of the policy")
    parser.add_argument("--steps", type=int, default=60, help="batched steps per rollout")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--rate", type=float, default=50.0, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a short run for CI (seconds)")
    args = parser.parse_args(argv)
    if args.quick:
        args.envs, args.rollouts, args.steps, args.eval_games = 64, 8, 40, 64
    rng = np.random.default_rng(args.seed)
    envs = draughts.ai.VectorEnv(args.variant, args.envs, max_plies=300)
    obs, info = envs.reset(seed=args.seed)
    width = features(obs).shape[1]
    weights = np.zeros((envs.single_action_space.n, width))
    untrained = evaluate(args.variant, weights, args.eval_games, args.seed + 1)
    state: dict[str, object] = {"obs": obs, "info": info}
    began = time.perf_counter()
    for _ in range(args.rollouts):
        weights += args.rate * rollout(envs, weights, state, args.steps, rng)
    seconds = time.perf_counter() - began
    trained = evaluate(args.variant, weights, args.eval_games, args.seed + 1)
    plies = args.rollouts * args.steps * args.envs
    print(
        f"{args.variant}: {args.rollouts} rollouts of {args.steps} steps x {args.envs} games "
        f"({plies:,} steps) in {seconds:.1f} s"
    )
    for name, (wins, draws, losses) in (("untrained", untrained), ("trained", trained)):
        score = (wins + draws / 2) / max(1, wins + draws + losses)
        print(f"{name:>9} as player_0 against random: {wins} wins, {draws} draws, {losses} losses ({score:.0%})")


if __name__ == "__main__":
    main()
