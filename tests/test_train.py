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
    pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
    from dataclasses import asdict

    from unoarena.bots.learned import Network
    from unoarena.train.policy import SELF, TableSpec, export
    from unoarena.train.ppo import Config, Trainer

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


def _small_distill(tmp_path: Path, decisions: int) -> object:
    from dataclasses import asdict

    from unoarena.train.distill import Config, LabelSpec, Run

    mix = [LabelSpec("classic", 2, ("heuristic", "basic")),
           LabelSpec("classic", 3, ("heuristic", "heuristic", "basic"))]
    cfg = Config(seed=5, decisions=decisions, rollouts=2, chunk_rounds=6, epochs=2,
                 hidden=32, embed=8, batch=64, eval_rounds=8,
                 mix=[asdict(s) for s in mix])
    return Run(cfg, tmp_path)


def test_distillation_labels_a_fixed_selection_fits_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
    from unoarena.bots.learned import Network
    from unoarena.train.distill import Run
    from unoarena.train.policy import export

    run = _small_distill(tmp_path / "a", 120)
    assert isinstance(run, Run)
    rows = run.label(1)
    assert rows >= 120
    chosen = run.selected()
    # the chunks read are 0, 1, ... (whatever finished first), and only they are kept
    assert [p.name for p in chosen] == [f"chunk-{i:06d}.npz" for i in range(len(chosen))]
    assert sorted(run.chunks()) == list(range(len(chosen)))
    # a second run with the same seed labels exactly the same decisions, with two workers
    other = _small_distill(tmp_path / "b", 120)
    assert isinstance(other, Run)
    other.label(2)
    for p, q in zip(chosen, other.selected(), strict=True):
        with np.load(p) as x, np.load(q) as y:
            assert all(np.array_equal(x[k], y[k]) for k in x.files)
    run.fit(1)
    run.save()
    again = Run.resume(tmp_path / "a")
    assert again.epoch == 1 and len(again.curve) == 2
    again.fit(5)  # only up to the configured two epochs
    assert again.epoch == 2
    assert "loss" in again.curve[-1] and "classic 2p vs basic" in again.curve[-1]
    net = Network.load(export(again.policy, tmp_path / "w.npz", {}))
    assert net.p["w1"].shape[1] == 32


def test_the_command_line_refuses_what_it_cannot_do(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
    from unoarena.train.__main__ import main

    with pytest.raises(SystemExit):
        main([])  # a sub-command is required
    assert "distill" in capsys.readouterr().err
    assert main(["distill", "--out", str(tmp_path), "--resume"]) == 2
    assert "no checkpoint.pt" in capsys.readouterr().err
    assert main(["ppo", "--out", str(tmp_path / "p"), "--init",
                 str(tmp_path / "none.npz")]) == 2
    assert "no weights file" in capsys.readouterr().err


def test_ppo_starts_from_distilled_weights(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
    import torch

    from unoarena.train.policy import Policy, export
    from unoarena.train.ppo import Config, Trainer

    src = Policy(Trainer(Config(hidden=16, embed=4), tmp_path / "x").policy.l1.in_features,
                 16, 4)
    path = export(src, tmp_path / "d.npz", {})
    t = Trainer(Config(hidden=16, embed=4, seed=2), tmp_path / "ppo")
    t.initialise(path, scale=10.0)  # scores ten times as sharp
    assert torch.equal(t.policy.l1.weight, src.l1.weight)
    assert torch.allclose(t.policy.q.weight, src.q.weight * 10.0)
    assert t.imitated and len(t.pool) == 1
    with pytest.raises(ValueError, match="same sizes"):
        Trainer(Config(hidden=8, embed=4), tmp_path / "y").initialise(path)


def test_fine_tuned_weights_keep_the_scale_of_the_scores_they_started_from(
        tmp_path: Path) -> None:
    """``ppo --init`` from a distilled policy exports weights whose scores a search still
    reads as advantages: the starting file and its score scale are in their metadata."""
    pytest.importorskip("torch")
    pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")
    from unoarena.bots.learned import Network
    from unoarena.train.__main__ import main
    from unoarena.train.policy import export
    from unoarena.train.ppo import Config, Trainer

    t = Trainer(Config(hidden=16, embed=4), tmp_path / "x")
    start = export(t.policy, tmp_path / "d.npz", {"method": "distill", "score_scale": 20.0})
    out = tmp_path / "ppo"
    assert main(["ppo", "--out", str(out), "--init", str(start), "--iterations", "1",
                 "--envs", "2", "--rollout", "4", "--eval-every", "1", "--eval-rounds", "2",
                 "--no-progress"]) == 0
    meta = Network.load(out / "learned.npz").meta
    assert meta["method"] == "ppo" and meta["iterations"] == 1
    assert meta["init"] == str(start) and meta["score_scale"] == 20.0


def test_the_belief_command_records_with_its_own_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``belief --data-seed`` seeds the recorded rounds apart from the fit, and says so in
    what it writes."""
    pytest.importorskip("torch")
    import json

    from unoarena.bots.belief import BeliefNet
    from unoarena.train.__main__ import main

    out = tmp_path / "b"
    assert main(["belief", "--out", str(out), "--rounds", "2", "--data-seed", "3",
                 "--epochs", "1", "--hidden", "8", "--no-progress"]) == 0
    fitted = json.loads((out / "fit.json").read_text())
    assert fitted["seed"] == 1 and fitted["data_seed"] == 3 and fitted["rounds"] == 2
    assert BeliefNet.load(out / "belief.npz") is not None
    # a second call fits the recorded rounds again, but not under another seed's name
    assert main(["belief", "--out", str(out), "--rounds", "2", "--data-seed", "4",
                 "--epochs", "1", "--hidden", "8", "--no-progress"]) == 2
    assert "'data_seed': 3" in capsys.readouterr().err
    assert json.loads((out / "fit.json").read_text()) == fitted  # nothing rewritten
    # rounds whose record of how they were made is lost are not fitted under any seed's name
    (out / "recorded.json").unlink()
    assert main(["belief", "--out", str(out), "--rounds", "2", "--data-seed", "3",
                 "--epochs", "1", "--hidden", "8", "--no-progress"]) == 2
    assert "no recorded.json" in capsys.readouterr().err
    assert json.loads((out / "fit.json").read_text()) == fitted
