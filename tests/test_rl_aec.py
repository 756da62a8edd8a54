"""The PettingZoo AEC environment: the ecosystem's own checkers, DIG-3 turn order against the
bot driver, rewards, seeding."""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from unoarena.driver import play_round  # noqa: E402
from unoarena.engine import Action, Match, RuleSet, preset  # noqa: E402
from unoarena.rl import UnoAECEnv, aec_env  # noqa: E402

PRESETS = ("classic", "buzz", "frozen2", "house", "attack")


def random_episode(env: UnoAECEnv, rng: random.Random) -> dict[str, float]:
    """Play one episode with uniformly random legal actions; returns each agent's return."""
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return returns


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", PRESETS)
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # the checker warns about every Dict observation (it expects the names of
        # PettingZoo's own card games); the observation inside is a flat Box
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(aec_env(name, players=players), num_cycles=2000)
        seed_test(lambda: aec_env(name, players=players), num_cycles=2000)


@pytest.mark.parametrize("options", [
    {"history": 4}, {"seer": True}, {"episode": "match", "reward": "points",
                                     "overrides": {"target_score": 50}},
    {"overrides": {"jump_in": True, "teams": 2}},
], ids=["history", "seer", "match", "jump-teams"])
def test_pettingzoo_checks_with_options(options: dict) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(aec_env("classic", players=4, **options), num_cycles=2000)
        seed_test(lambda: aec_env("classic", players=4, **options), num_cycles=500)


class Scripted:
    """A bot whose decisions come from a shared generator, so that the driver and the AEC
    loop, asked the same questions in the same order, make the same choices."""

    name = "scripted"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        pass

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        return legal[int(self.rng.random() * len(legal))]

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        if self.rng.random() < 0.5:
            return None
        return legal[int(self.rng.random() * len(legal))]


@pytest.mark.parametrize(("name", "players", "over"), [
    ("classic", 4, {}),
    ("house", 3, {"jump_in": True}),
    ("classic", 5, {"sum_jump_in": "any_color", "false_uno_penalty": 2}),
    ("buzz", 2, {}),
])
def test_turn_order_matches_the_driver(name: str, players: int, over: dict) -> None:
    """DIG-3: the AEC env offers windows in the order unoarena.driver does; the same choices
    give the same game, action for action."""
    rules = preset(name, players=players, **over)
    windows = 0
    for seed in range(6):
        env = UnoAECEnv(rules)
        env.reset(seed=seed)
        t = env.table
        match_seed = t.match.seed
        acts = t.space.actions
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = env.legal_actions()
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            if t.window:
                windows += 1
                assert legal[-1] == env.decline and t.actor != t.game.turn
                assert env.table.encoder.field(obs["observation"], "window")[0] == 1
                ids = legal[:-1]
                if rng.random() < 0.5:
                    env.step(env.decline)
                else:
                    env.step(ids[int(rng.random() * len(ids))])
            else:
                assert env.decline not in legal
                env.step(legal[int(rng.random() * len(legal))])
        ours = list(t.game.history)
        m = Match(rules, match_seed, record_events=False)
        bot = Scripted(random.Random(seed))
        play_round(m.game, [bot] * players, random.Random(0))
        assert [(s, a) for s, a in m.game.history] == ours, (name, seed)
        del acts
    assert windows > 0


@pytest.mark.parametrize(("name", "players", "over"), [
    ("classic", 3, {}),
    ("house", 4, {}),
    ("house", 4, {"teams": 2}),
    ("attack", 2, {}),
    ("classic", 2, {"deck_exhausted": "void"}),
    ("buzz", 10, {}),
])
@pytest.mark.parametrize("reward", ["win", "points"])
def test_round_rewards(name: str, players: int, over: dict, reward: str) -> None:
    rules = preset(name, players=players, **over)
    env = UnoAECEnv(rules, reward=reward)
    rng = random.Random(3)
    for seed in range(4):
        env.reset(seed=seed)
        returns = random_episode(env, rng)
        out = env.table.game.outcome
        assert out is not None
        if reward == "win":
            if out.winner is None:
                assert set(returns.values()) == {0.0}
                continue
            for p in range(players):
                same = (rules.team_of(p) == rules.team_of(out.winner) if rules.teams
                        else p == out.winner)
                assert returns[f"player_{p}"] == (1.0 if same else -1.0)
        else:
            sign = -1.0 if rules.scoring == "penalty" else 1.0
            for p in range(players):
                idx = rules.team_of(p) if rules.teams else p
                assert returns[f"player_{p}"] == pytest.approx(sign * out.scores[idx] / 100)


@pytest.mark.parametrize("reward", ["win", "points"])
def test_match_episode(reward: str) -> None:
    rules = preset("classic", players=3, target_score=60)
    env = UnoAECEnv(rules, episode="match", reward=reward, points_scale=10)
    env.reset(seed=5)
    returns = random_episode(env, random.Random(1))
    m = env.table.match
    assert m.is_over and m.rounds_played >= 1
    if reward == "win":
        assert [returns[f"player_{p}"] for p in range(3)] == [
            1.0 if p in m.winners else -1.0 for p in range(3)]
    else:
        assert [returns[f"player_{p}"] for p in range(3)] == pytest.approx(
            [s / 10 for s in m.scores])


def test_seeding_reproduces_and_differs() -> None:
    def trace(seed: int | None, env: UnoAECEnv) -> list[Any]:
        env.reset(seed=seed)
        out: list[Any] = []
        rng = random.Random(0)
        for agent in env.agent_iter(300):
            obs, r, term, trunc, _ = env.last()
            out.append((agent, obs["observation"].tobytes(), r))
            env.step(None if term or trunc else rng.choice(env.legal_actions()))
        return out

    a, b = UnoAECEnv("house", players=3), UnoAECEnv("house", players=3)
    assert trace(9, a) == trace(9, b)
    assert trace(None, a) == trace(None, b)  # the seeded stream continues identically
    assert trace(9, a) != trace(10, a)


def test_illegal_actions() -> None:
    env = UnoAECEnv("classic", players=2)
    env.reset(seed=1)
    bad = next(i for i in range(env.decline + 1) if i not in env.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    env = UnoAECEnv("classic", players=2, illegal="random")
    env.reset(seed=1)
    before = env.table.steps
    env.step(bad)
    assert env.table.steps == before + 1


def test_truncation_and_render() -> None:
    env = UnoAECEnv("classic", players=2, max_steps=5, render_mode="ansi")
    env.reset(seed=2)
    steps = 0
    for _agent in env.agent_iter():
        _obs, _r, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(env.legal_actions()[0])
        steps += 1
    assert steps == 5 and env.agents == []
    assert "classic 2p" in env.render()


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="episode"):
        UnoAECEnv("classic", episode="game")
    with pytest.raises(ValueError, match="reward"):
        UnoAECEnv("classic", reward="money")
    with pytest.raises(ValueError, match="rules or preset"):
        UnoAECEnv("classic", preset="house")
    assert UnoAECEnv(preset="house", players=6).rules.players == 6
    assert UnoAECEnv(preset("buzz", players=3), players=5).rules.players == 5


def test_seer_is_off_by_default() -> None:
    plain, seer = UnoAECEnv("classic", players=3), UnoAECEnv("classic", players=3, seer=True)
    assert not plain.table.encoder.seer
    size = plain.observation_space("player_0")["observation"].shape[0]
    assert seer.observation_space("player_0")["observation"].shape[0] == size + 3 * 80


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import unoarena.rl as rl

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "unoarena.rl.aec", raising=False)
    monkeypatch.delattr(rl, "UnoAECEnv", raising=False)
    with pytest.raises(ModuleNotFoundError, match=r"unoarena\[rl\]"):
        rl.aec_env("classic")


def test_docstring_examples() -> None:
    import doctest

    import unoarena.rl.aec
    import unoarena.rl.gym_env

    for module in (unoarena.rl.aec, unoarena.rl.gym_env):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
