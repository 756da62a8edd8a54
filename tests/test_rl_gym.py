"""The Gymnasium single-agent environment: the checker, registration, vector envs, seeding,
rewards against bots."""

from __future__ import annotations

import random

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import unoarena.rl  # noqa: E402
from unoarena.rl import ENV_ID, UnoEnv  # noqa: E402

PRESETS = ("classic", "buzz", "frozen2", "house", "attack")


def masked_choice(obs: dict, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", PRESETS)
def test_check_env(name: str, players: int) -> None:
    env = gym.make(ENV_ID, rules=name, players=players)
    check_env(env.unwrapped)
    env.close()


def test_registered_and_configurable() -> None:
    assert unoarena.rl.register()
    assert ENV_ID in gym.registry
    env = gym.make(ENV_ID, rules="house", players=3, opponents=["random", "basic"],
                   reward="points", seed=4)
    obs, info = env.reset()
    assert obs["observation"].shape == env.observation_space["observation"].shape
    assert info["seat"] == 0
    with pytest.raises(ValueError, match="opponent"):
        UnoEnv("classic", players=3, opponents=["basic"])
    with pytest.raises(ValueError, match="unknown bot"):
        UnoEnv("classic", players=2, opponents="nobody")
    with pytest.raises(ValueError, match="seat"):
        UnoEnv("classic", players=2, seat=2)


def play(env: UnoEnv, seed: int | None, rng: random.Random) -> tuple[float, list[bytes]]:
    obs, _ = env.reset(seed=seed)
    total, trace = 0.0, [obs["observation"].tobytes()]
    while True:
        assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
        obs, r, term, trunc, _ = env.step(masked_choice(obs, rng))
        total += r
        trace.append(obs["observation"].tobytes())
        if term or trunc:
            return total, trace


def test_seeding_and_rewards() -> None:
    env = UnoEnv("classic", players=3, opponents="basic")
    a = play(env, 5, random.Random(0))
    b = play(UnoEnv("classic", players=3, opponents="basic"), 5, random.Random(0))
    assert a == b
    assert play(env, 6, random.Random(0)) != a
    for seed in range(10):
        total, _ = play(env, seed, random.Random(seed))
        out = env.table.game.outcome
        assert total == (1.0 if out.winner == env.table.seat_of[0] else -1.0)


def test_points_and_match_episodes() -> None:
    env = UnoEnv("house", players=2, reward="points", episode="match",
                 overrides={"target_score": 80}, seat=None, seed=3)
    total, _ = play(env, None, random.Random(1))
    m = env.table.match
    assert m.is_over
    me = env._player
    assert total == pytest.approx(-m.scores[me] / 100)


def test_elimination_plays_round_episodes_and_refuses_matches() -> None:
    """HR-ELIM changes the table size between rounds: a round episode plays as any other, a
    match episode is refused with the reason."""
    env = UnoEnv("classic", players=3, overrides={"elimination": "points"}, seed=2)
    total, _ = play(env, None, random.Random(2))
    assert total in (-1.0, 1.0)
    with pytest.raises(ValueError, match="elimination"):
        UnoEnv("classic", players=3, episode="match", overrides={"elimination": "cards"})


def test_illegal_actions() -> None:
    env = UnoEnv("classic", players=2)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, _r, _t, _tr, info = env.step(bad)
    assert info.get("illegal") is True
    strict = UnoEnv("classic", players=2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)


def test_window_turns_reach_the_agent() -> None:
    """The learning seat answers its windows (catch, late UNO) with `decline` available."""
    env = UnoEnv("classic", players=4, opponents="random:decline=1")
    rng = random.Random(2)
    windows = 0
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = obs["action_mask"]
            if mask[env.decline]:
                windows += 1
                assert env.table.encoder.field(obs["observation"], "window")[0] == 1
            obs, _r, term, trunc, _ = env.step(masked_choice(obs, rng))
            done = term or trunc
    assert windows > 0


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_vector_env(mode: str) -> None:
    autoreset = {"next_step": gym.vector.AutoresetMode.NEXT_STEP,
                 "same_step": gym.vector.AutoresetMode.SAME_STEP}[mode]
    envs = gym.vector.SyncVectorEnv(
        [lambda: gym.make(ENV_ID, rules="classic", players=2) for _ in range(3)],
        autoreset_mode=autoreset)
    obs, _ = envs.reset(seed=11)
    assert obs["observation"].shape == (3, envs.single_observation_space["observation"].shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = []
        for mask in obs["action_mask"]:
            legal = np.flatnonzero(mask)
            actions.append(int(rng.choice(legal)) if legal.size else 0)  # 0: ignored on reset
        obs, rewards, term, _trunc, _ = envs.step(np.array(actions))
        finished += int(term.sum())
        assert rewards.shape == (3,)
    assert finished > 0
    envs.close()


def test_reset_always_hands_the_agent_a_decision() -> None:
    """With one-card hands the bot often goes out before the agent acts: reset deals again."""
    env = UnoEnv("classic", players=2, overrides={"hand_size": 1}, seat=0)
    redealt = 0
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        assert not env.table.done and obs["action_mask"].any()
        redealt += info.get("episodes_without_agent", 0)
    assert redealt > 0
