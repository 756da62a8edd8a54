"""Ray: a small simulation and a small tournament on a local Ray instance give exactly what a
local run gives for the same seed. Slow but included (Ray takes seconds to start); skipped when
Ray is not installed (``pip install 'unoarena[cluster]'``)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from unoarena.engine import preset
from unoarena.lab import simulate, tournament

ray: Any = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")
    yield
    if started:
        ray.shutdown()


def test_ray_simulation_equals_local(local_ray: None) -> None:
    rules = preset("house", players=3, jump_in=True)
    local = simulate(rules, "basic,random,basic", 40, seed=6)
    remote = simulate(rules, "basic,random,basic", 40, seed=6, cluster="local")
    assert ray.is_initialized()  # the lab used the running instance and left it open
    assert remote.tally.summary() == local.tally.summary()
    if importlib.util.find_spec("unoarena.kernel._kernel"):  # the kernel on Ray workers: the
        # Python numbers
        python = simulate(rules, "basic,random,basic", 40, seed=6, engine="python")
        kernel = simulate(rules, "basic,random,basic", 40, seed=6, cluster="local",
                          engine="kernel")
        assert kernel.tally.summary() == python.tally.summary()
    matches_local = simulate(rules, "basic", 3, seed=6, matches=True)
    matches_remote = simulate(rules, "basic", 3, seed=6, matches=True, cluster="local")
    assert matches_remote.tally.summary() == matches_local.tally.summary()


def test_ray_tournament_equals_local(local_ray: None) -> None:
    rules = preset("classic", players=2)
    local = tournament(rules, "basic,random,basic", 3, seed=8).to_dict()
    remote = tournament(rules, "basic,random,basic", 3, seed=8, cluster="local").to_dict()
    local.pop("elapsed_s")
    remote.pop("elapsed_s")
    assert remote == local
