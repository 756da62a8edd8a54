"""Train a MaskablePPO agent (sb3-contrib) on unoarena's Gymnasium env, then evaluate it.

    pip install 'unoarena[train]'          # sb3-contrib, stable-baselines3, torch
    python examples/train_maskable_ppo.py --steps 300000 --eval-games 2000

The agent takes one seat of a classic two-player round against the ``basic`` bot (a random
legal play with a beginner's sense: it declares UNO, catches, never bluffs); the reward is +1
for winning the round and -1 for losing it. Illegal actions are masked out: the policy sees
the observation vector, the mask comes from ``env.action_masks()``.

Evaluation plays fresh seeds (never seen in training) against ``basic`` and against
``random``, with a uniformly random legal agent in the same seat as the baseline, and prints
the win rates with 95% Wilson intervals as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from unoarena.lab import wilson
from unoarena.rl import UnoEnv


class FlatObs(gym.ObservationWrapper[Any, Any, Any]):
    """The observation vector alone (the mask goes to the algorithm through action_masks)."""

    def __init__(self, env: UnoEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(args: argparse.Namespace, opponents: str, seed: int) -> FlatObs:
    return FlatObs(UnoEnv(args.preset, players=args.players, opponents=opponents, seat=None,
                          seed=seed))


def evaluate(model: MaskablePPO | None, args: argparse.Namespace, opponents: str,
             games: int, seed: int) -> dict[str, Any]:
    """Win rate of the model (None: a uniformly random legal agent) over ``games`` rounds."""
    env = make_env(args, opponents, seed)
    rng = random.Random(seed)
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = env.action_masks()
            if model is None:
                action = rng.choice(np.flatnonzero(mask).tolist())
            else:
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            obs, reward, term, trunc, _ = env.step(int(action))
            done = term or trunc
        wins += reward > 0
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": round(wins / games, 4),
            "ci95": [round(lo, 4), round(hi, 4)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=300_000, help="training steps (agent moves)")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="write the trained model here (a .zip)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: small networks gain nothing from more)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    venv = DummyVecEnv([lambda i=i: make_env(args, "basic", args.seed * 1000 + i)
                        for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, n_steps=512, batch_size=512,
                        n_epochs=4, learning_rate=3e-4, gamma=0.995, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    train_s = time.perf_counter() - started
    if args.save:
        model.save(args.save)
    eval_seed = 10**9 + args.seed * 10**6  # far from every training seed
    report = {
        "preset": args.preset, "players": args.players, "train_steps": args.steps,
        "train_seconds": round(train_s, 1),
        "trained_vs_basic": evaluate(model, args, "basic", args.eval_games, eval_seed),
        "random_vs_basic": evaluate(None, args, "basic", args.eval_games, eval_seed),
        "trained_vs_random": evaluate(model, args, "random", args.eval_games, eval_seed),
        "random_vs_random": evaluate(None, args, "random", args.eval_games, eval_seed),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
