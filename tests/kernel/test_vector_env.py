"""The vector environment plays, table for table, what a Python table with the same seeds
plays: the same deals, bot decisions, observations (the versioned encoding, built in the
kernel), masks, rewards and auto-resets; and it behaves as a Gymnasium vector env should."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from unoarena.bots import Bot, make_bot  # noqa: E402
from unoarena.driver import LazyView  # noqa: E402
from unoarena.engine import RuleSet  # noqa: E402
from unoarena.kernel.vector import table_seeds  # noqa: E402
from unoarena.lab.common import parse_rule_spec  # noqa: E402
from unoarena.rl import VECTOR_ENV_ID, UnoVectorEnv  # noqa: E402
from unoarena.rl.table import Table  # noqa: E402


class ReferenceTable:
    """One table of the vector env, played by the Python engine, bots and encoder: the
    specification the kernel is held to (see :mod:`unoarena.kernel.vector`)."""

    def __init__(self, rules: RuleSet, opponents: list[str], seed: int, seat: int | None,
                 reward: str, seer: bool, max_steps: int | None) -> None:
        n = rules.players
        ep, drv, *own = table_seeds(seed, n)
        self.ep = random.Random(ep)
        self.drv = random.Random(drv)
        self.rules = rules
        self.opponents = opponents
        self.own = own
        self.seat = seat
        self.max_steps = max_steps
        self.table = Table(rules, reward=reward, seer=seer, record_events=True)
        self.bots: list[Bot | None] = []
        self.callers: set[int] = set()  # seats the test decides, as the learning seat
        self.me = -1
        self.steps = 0

    def start(self) -> None:
        n = self.rules.players
        self.me = self.ep.randrange(n) if self.seat is None else self.seat
        if not self.bots:  # one bot per seat, its generator running on across episodes
            self.bots = [None] * n
        others = iter(self.opponents)
        self.callers = set()
        for s in range(n):
            if s == self.me:
                continue
            spec = next(others)
            if spec == "caller":
                self.callers.add(s)
                continue
            bot = self.bots[s]
            if bot is None or bot.name != spec.split(":")[0]:
                bot = make_bot(spec, self.own[s])
                if self.bots[s] is not None:  # keep the seat's generator running on
                    bot.rng = self.bots[s].rng  # type: ignore[union-attr]
                self.bots[s] = bot
        self.steps = 0
        while True:
            self.table.start(self.ep.getrandbits(63))
            g = self.table.game
            assert g is not None
            for s, bot in enumerate(self.bots):
                if bot is not None and s != self.me and s not in self.callers:
                    bot.begin_round(g.rules, s)
            self.run_bots()
            if not self.table.done:
                return

    def run_bots(self) -> float:
        t = self.table
        acts, index = t.space.actions, t.space.index
        got: list[float] | None = None
        while not t.done and t.actor != self.me and t.actor not in self.callers:
            bot = self.bots[t.actor]
            assert bot is not None
            g = t.game
            assert g is not None
            view = LazyView(g, t.actor, bool(getattr(bot, "wants_history", False)))
            if t.window:
                choice = bot.window(view, [acts[i] for i in t.legal[:-1]])
                aid = t.decline if choice is None else index[choice]
            else:
                aid = index[bot.act(view, [acts[i] for i in t.legal], self.drv)]
            view.close()
            got = t.step(aid)
        return 0.0 if got is None else got[self.me]

    @property
    def actor(self) -> int:
        """Who decides next: the learning seat or a caller seat (the learning seat once the
        round is over)."""
        t = self.table
        return self.me if t.done else t.actor

    def observe(self) -> dict[str, Any]:
        return self.table.observe(self.actor)

    def step(self, aid: int) -> tuple[float, bool, bool]:
        if self.actor == self.me:
            self.steps += 1
        got = self.table.step(aid)
        r = got[self.me] if got is not None else self.run_bots()
        done = self.table.done
        trunc = not done and self.max_steps is not None and self.steps >= self.max_steps
        return r, done, trunc


CASES = [
    ("classic:players=2", "basic", 0, False),
    ("classic", "random:decline=0.3", None, False),
    ("house:jump_in=on,seven_zero=on,wild_powers=on", "basic", 1, False),
    ("house:sum_jump_in=any_color,players=5", "random", None, True),
    ("buzz", "basic", 2, False),
    ("frozen2:teams=2", "basic", None, False),
    ("attack:players=3", "basic", 0, False),
    ("classic:stacking=draw2,draw4_on_draw2=on,double_play=on,players=6", "random", 3, False),
    ("classic:players=2", "heuristic", 0, False),
    ("classic", "heuristic:wild_keep=2,challenge=1.5", None, False),
    ("house:jump_in=on,seven_zero=on,wild_powers=on,players=3", "heuristic", 1, False),
    ("attack", "heuristic", 2, False),
    ("buzz", "heuristic;basic;random:decline=0.2", 0, False),
    ("classic:open_hands=3,players=3", "basic", 1, False),
    # self-play: seats the caller decides, beside bots
    ("classic:players=2", "caller", None, False),
    ("house:jump_in=on,seven_zero=on,players=4", "caller;heuristic;caller", 1, False),
    ("attack:players=3", "basic;caller", None, False),
    ("frozen2:teams=2", "caller", 0, False),
]


def _compare(spec: str, opponents: str, seat: int | None, seer: bool, mode: str,
             reward: str = "win", steps: int = 400, num: int = 6,
             max_steps: int | None = None) -> int:
    rules = parse_rule_spec(spec)
    # "a;b;c": one spec per other seat, in seat order
    opp = opponents.split(";") if ";" in opponents else [opponents] * (rules.players - 1)
    env = UnoVectorEnv(num, rules, opponents=opp, seat=seat, seer=seer,
                       autoreset_mode=mode, reward=reward, max_steps=max_steps)
    refs = [ReferenceTable(rules, opp, 100 + b, seat, reward, seer, max_steps)
            for b in range(num)]
    obs, info = env.reset(seed=100)
    for r in refs:
        r.start()
    pending = [False] * num  # next_step: the table starts over on this step
    plays = {i for i, a in enumerate(env.space.actions) if a.verb == "play"}
    rng = random.Random(7)
    episodes = 0
    for step in range(steps):
        for b, r in enumerate(refs):
            want = r.observe()
            np.testing.assert_array_equal(obs["observation"][b], want["observation"],
                                          err_msg=f"{spec} table {b} step {step}")
            np.testing.assert_array_equal(obs["action_mask"][b], want["action_mask"],
                                          err_msg=f"{spec} table {b} step {step} mask")
            assert env.seats()[b] == r.me
            assert env.actors()[b] == r.actor, f"{spec} table {b} step {step}"
        actions = np.array([_choose(rng, np.flatnonzero(m).tolist(), plays, "caller" in opp)
                            for m in obs["action_mask"]], np.int64)
        obs, rew, term, trunc, info = env.step(actions)
        for b, r in enumerate(refs):
            if pending[b]:
                r.start()
                pending[b] = False
                assert (rew[b], term[b], trunc[b]) == (0.0, False, False)
                continue
            got = r.step(int(actions[b]))
            assert (rew[b], bool(term[b]), bool(trunc[b])) == pytest.approx(got), \
                f"{spec} table {b} step {step}"
            if got[1] or got[2]:
                episodes += 1
                if mode == "same_step":
                    final = info["final_obs"][b]
                    assert info["_final_obs"][b]
                    want = r.observe()
                    np.testing.assert_array_equal(final["observation"], want["observation"])
                    np.testing.assert_array_equal(final["action_mask"], want["action_mask"])
                    r.start()
                else:
                    if got[2]:  # truncated: the reference's last observation is still live
                        pass
                    pending[b] = True
    return episodes


def _choose(rng: random.Random, legal: list[int], plays: set[int], eager: bool) -> int:
    """A random legal id (0 once the round is over); ``eager`` plays a card four times in
    five when it can, so that rounds where every seat is the test's own end sooner."""
    if not legal:
        return 0
    if eager and rng.random() < 0.8:
        mine = [i for i in legal if i in plays]
        if mine:
            return rng.choice(mine)
    return rng.choice(legal)


@pytest.mark.parametrize(("spec", "opponents", "seat", "seer"), CASES)
def test_vector_tables_are_the_python_tables(spec: str, opponents: str, seat: int | None,
                                             seer: bool) -> None:
    # with caller seats every seat's decisions are steps: rounds take more of them
    steps = 800 if "caller" in opponents else 400
    assert _compare(spec, opponents, seat, seer, "next_step", steps=steps) > 3


def test_same_step_autoreset_and_points_rewards() -> None:
    assert _compare("classic", "basic", None, False, "same_step", reward="points") > 3
    assert _compare("house:players=3", "random", 1, False, "same_step") > 3
    assert _compare("classic:players=3", "caller", None, False, "same_step", steps=600) > 3


def test_truncation_after_max_steps() -> None:
    assert _compare("classic:players=3", "basic", 0, False, "next_step", max_steps=3,
                    steps=60) > 10
    # only the learning seat's actions count towards max_steps
    assert _compare("classic:players=3", "caller", 0, False, "next_step", max_steps=3,
                    steps=120) > 10


def test_made_through_gymnasium_and_reproducible() -> None:
    def run(seed: int) -> list[float]:
        envs = gymnasium.make_vec(VECTOR_ENV_ID, num_envs=8, rules="classic", players=3)
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(80):
            m = obs["action_mask"]
            # a finished table's mask is empty (next_step auto-reset ignores its action)
            a = np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in m])
            obs, rew, _term, _trunc, _ = envs.step(a)
            trace.append(float(obs["observation"].sum()) + float(rew.sum()))
        return trace

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_a_list_of_seeds_gives_each_table_its_own() -> None:
    a = UnoVectorEnv(3, "classic", players=2)
    b = UnoVectorEnv(1, "classic", players=2)
    obs_a, _ = a.reset(seed=[9, 40, 2])
    obs_b, _ = b.reset(seed=40)
    np.testing.assert_array_equal(obs_a["observation"][1], obs_b["observation"][0])
    with pytest.raises(ValueError, match="2 seeds for 3 tables"):
        a.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seeds must be in"):
        a.reset(seed=[-1, 0, 1])


def test_an_illegal_action_moves_no_table() -> None:
    env = UnoVectorEnv(4, "classic", players=2, copy=True)
    obs, _ = env.reset(seed=1)
    before = obs["observation"].copy()
    bad = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    illegal = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    bad[2] = illegal
    with pytest.raises(ValueError, match=f"action {illegal} is not legal at table 2"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="integer action ids"):
        env.step(np.zeros(4, np.float64))
    np.testing.assert_array_equal(env._obs, before)
    bad[2] = int(np.flatnonzero(obs["action_mask"][2])[0])
    env.step(bad)  # still usable


def test_what_the_kernel_cannot_build_is_refused_clearly() -> None:
    from unoarena.kernel.observe import ObservationUnsupported
    from unoarena.kernel.runner import KernelRefused

    with pytest.raises(ObservationUnsupported, match="history"):
        UnoVectorEnv(2, "classic", history=4)
    with pytest.raises(KernelRefused, match="ismcts"):  # search stays in Python
        UnoVectorEnv(2, "classic", opponents="ismcts")
    with pytest.raises(ValueError, match="round episodes"):
        UnoVectorEnv(2, "classic", episode="match")
    with pytest.raises(ValueError, match="num_envs"):
        UnoVectorEnv(0, "classic")
    with pytest.raises(RuntimeError, match="reset"):
        UnoVectorEnv(2, "classic").step(np.zeros(2, np.int64))


def test_spaces_and_masks_for_maskable_ppo() -> None:
    env = UnoVectorEnv(5, "buzz", players=4, autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = env.reset(seed=0)
    assert obs["observation"].shape == (5, env.encoder.size)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == env.num_actions
    masks = env.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == (5, env.num_actions)
    assert (masks.sum(axis=1) > 0).all()
    assert list(info["seat"]) == [0] * 5


def test_threads_step_the_same_trajectories() -> None:
    """Tables cut among threads play exactly what one thread plays."""
    runs = []
    for threads in (1, 3):
        env = UnoVectorEnv(200, "house", players=3, opponents="basic", threads=threads,
                           seed=11)
        assert env.threads == threads
        obs, _info = env.reset()
        trace = [obs["observation"].copy()]
        rng = np.random.default_rng(0)
        for _ in range(40):
            mask = env.action_masks()
            # a table that just ended has no legal action: it starts over, whatever it gets
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask],
                            np.int64)
            obs, rew, term, trunc, _info = env.step(acts)
            trace += [obs["observation"].copy(), rew.copy(), term.copy(), trunc.copy()]
        env.close()
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_threads_must_be_a_positive_number() -> None:
    with pytest.raises(ValueError, match="threads must be a whole number of at least 1, not 0"):
        UnoVectorEnv(4, "classic", threads=0)
