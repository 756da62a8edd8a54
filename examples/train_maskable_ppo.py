"""Train a MaskablePPO agent (sb3-contrib) on unoarena's Gymnasium env, then evaluate it.

    pip install 'unoarena[train]'          # sb3-contrib, stable-baselines3, torch
    python examples/train_maskable_ppo.py --steps 300000 --eval-games 2000
    python examples/train_maskable_ppo.py --vector --envs 256 --steps 3000000

The agent takes one seat of a classic two-player round against the ``basic`` bot (a random
legal play with a beginner's sense: it declares UNO, catches, never bluffs); the reward is +1
for winning the round and -1 for losing it. Illegal actions are masked out: the policy sees
the observation vector, the mask comes from ``env.action_masks()``.

``--vector`` trains on the compiled vector environment (``unoarena/UnoVector-v0``, the extra
``fast``): ``--envs`` tables stepped in one call, the same games, observations and rewards as
``Uno-v0``, so the policy it trains is evaluated on the Python environment unchanged.
:class:`KernelVecEnv` adapts it to Stable-Baselines3's ``VecEnv`` interface (its auto-reset
convention is Gymnasium's ``same_step``).

Evaluation plays fresh seeds (never seen in training) against ``basic`` and against
``random``, with a uniformly random legal agent in the same seat as the baseline, and prints
the win rates with 95% Wilson intervals as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

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


#: An episode is cut off after this many agent moves: a policy that only draws can empty the
#: draw pile and leave a round where nobody can play (a truncation, never a win).
MAX_STEPS = 1000


class KernelVecEnv(VecEnv):
    """``unoarena/UnoVector-v0`` as a Stable-Baselines3 ``VecEnv``: the observation vector
    alone, the masks through ``env_method("action_masks")`` (what MaskablePPO calls)."""

    def __init__(self, args: argparse.Namespace, seed: int) -> None:
        from unoarena.rl.vector_env import UnoVectorEnv

        self.env = UnoVectorEnv(args.envs, args.preset, players=args.players,
                                opponents="basic", seat=None, autoreset_mode="same_step",
                                max_steps=MAX_STEPS)
        super().__init__(args.envs, self.env.single_observation_space["observation"],
                         self.env.single_action_space)
        self._seed: int | None = seed
        self._actions = np.zeros(args.envs, np.int64)

    def reset(self) -> np.ndarray:
        obs, _ = self.env.reset(seed=self._seed)  # later resets draw their seeds
        self._seed = None
        return obs["observation"]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, reward, term, trunc, info = self.env.step(self._actions)
        done = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = info["final_obs"][i]["observation"]
            infos[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
        return obs["observation"], reward.astype(np.float32), done, infos

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"the vector env has no per-table method {method_name!r}")
        return list(self.env.action_masks())

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.env.action_masks] * self.num_envs
        return [getattr(self.env, attr_name)] * self.num_envs

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the vector env's tables have no settable {attr_name!r}")

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def close(self) -> None:
        pass


def make_env(args: argparse.Namespace, opponents: str, seed: int) -> FlatObs:
    return FlatObs(UnoEnv(args.preset, players=args.players, opponents=opponents, seat=None,
                          max_steps=MAX_STEPS, seed=seed))


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
    ap.add_argument("--envs", type=int, default=None,
                    help="environments stepped together (default 8, or 256 with --vector)")
    ap.add_argument("--vector", action="store_true",
                    help="train on the compiled vector env (unoarena/UnoVector-v0)")
    ap.add_argument("--n-steps", type=int, default=None,
                    help="steps per environment per update (default 512, or 64 with --vector)")
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="write the trained model here (a .zip)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: small networks gain nothing from more)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    if args.envs is None:
        args.envs = 256 if args.vector else 8
    n_steps = args.n_steps or (64 if args.vector else 512)
    venv: VecEnv
    if args.vector:
        venv = KernelVecEnv(args, args.seed * 1000)
    else:
        venv = DummyVecEnv([lambda i=i: make_env(args, "basic", args.seed * 1000 + i)
                            for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, seed=args.seed, n_steps=n_steps, batch_size=512,
                        n_epochs=4, learning_rate=3e-4, gamma=0.995, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    train_s = time.perf_counter() - started
    print(f"trained {args.steps} steps in {train_s:.1f} s; evaluating...", file=sys.stderr,
          flush=True)
    if args.save:
        model.save(args.save)
    eval_seed = 10**9 + args.seed * 10**6  # far from every training seed
    report = {
        "preset": args.preset, "players": args.players, "train_steps": args.steps,
        "env": "UnoVector-v0" if args.vector else "Uno-v0", "envs": args.envs,
        "train_seconds": round(train_s, 1),
        "trained_vs_basic": evaluate(model, args, "basic", args.eval_games, eval_seed),
        "random_vs_basic": evaluate(None, args, "basic", args.eval_games, eval_seed),
        "trained_vs_random": evaluate(model, args, "random", args.eval_games, eval_seed),
        "random_vs_random": evaluate(None, args, "random", args.eval_games, eval_seed),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
