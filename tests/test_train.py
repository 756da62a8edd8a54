"""Training: advantages over the learning seat's decisions when past versions play between
them (numpy only), and a short self-play run on the vector tables (needs PyTorch and the
kernel; skipped without them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from unoarena.train.gae import advantages


def test_a_round_ended_by_another_seat_rewards_the_learners_last_decision() -> None:
    # one table: the learner decides at steps 0 and 2, a past version at 1 and 3; the round
    # ends on step 3 (the past version's move) and the learner lost
    learn = np.array([[True], [False], [True], [False]])
    value = np.array([[0.1], [0.9], [0.2], [0.9]], np.float32)
    reward = np.array([[0.0], [0.0], [0.0], [-1.0]])
    done = np.array([[False], [False], [False], [True]])
    adv, ret = advantages(learn, value, reward, done, np.array([0.5]), np.array([True]),
                          gamma=1.0, lam=1.0)
    # the other seat's steps carry nothing; both decisions return the round's -1
    assert adv[1, 0] == adv[3, 0] == 0.0
    assert ret[0, 0] == pytest.approx(-1.0) and ret[2, 0] == pytest.approx(-1.0)
    assert adv[2, 0] == pytest.approx(-1.2)


def test_an_unfinished_table_bootstraps_from_the_next_decision() -> None:
    learn = np.array([[True, True], [True, False]])
    value = np.array([[0.0, 0.3], [0.4, 0.8]], np.float32)
    zeros = np.zeros((2, 2))
    adv, ret = advantages(learn, value, zeros, zeros.astype(bool), np.array([0.6, 0.7]),
                          np.array([True, False]), gamma=1.0, lam=1.0)
    # table 0: the learner acts next, worth 0.6; table 1: a past version acts next, so the
    # last decision bootstraps from its own value (no advantage from an unseen future)
    assert ret[0, 0] == pytest.approx(0.6) and ret[1, 0] == pytest.approx(0.6)
    assert adv[0, 1] == pytest.approx(0.0) and ret[0, 1] == pytest.approx(0.3)


def test_self_play_training_runs_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("numba")
    from dataclasses import asdict

    from unoarena.bots.learned import Network
    from unoarena.train.ppo import SELF, Config, TableSpec, Trainer, export

    mix = [TableSpec("classic", 2, SELF), TableSpec("classic", 3, (SELF, "basic"))]
    cfg = Config(seed=3, envs=8, rollout=12, eval_every=2, eval_rounds=8, minibatch=64,
                 epochs=1, mix=[{**asdict(s), "opponents": s.opponents} for s in mix])
    t = Trainer(cfg, tmp_path)
    t.run(iterations=2, minutes=None, progress=None)
    # every table gave at least `rollout` decisions of its learning seat
    assert t.samples >= 2 * cfg.envs * cfg.rollout
    assert len(t.pool) == 2  # the start and the evaluation at iteration 2
    again = Trainer.resume(tmp_path)
    assert again.iteration == 2 and len(again.pool) == 2
    again.run(iterations=3, minutes=None, progress=None)
    assert again.iteration == 3
    net = Network.load(export(again.policy, tmp_path / "w.npz", {}))
    assert net.values(np.zeros((1, net.p["w1"].shape[0]), np.float32)).shape == (1,)
