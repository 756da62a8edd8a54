"""The compiled kernel plays the reference engine's games: same deal, same legal ids, same
state after every action, for every preset, random rule sets and the golden games."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")

from unoarena.engine import PRESETS, Action, Game, preset
from unoarena.engine.rules import RuleSet
from unoarena.kernel import mt
from unoarena.kernel.single import KernelGame, reference_snapshot, split_seed
from unoarena.kernel.tables import PARAMS, KernelUnsupported, compile_rules
from unoarena.testing import load_script, random_rules
from unoarena.testing.kernel import compare_round

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
#: Seconds the random rule-set sample may take in CI (the long run is a script).
SAMPLE_SECONDS = 40.0


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1,
                                  2**64 - 1, -12345])
def test_generator_is_cpythons(seed: int) -> None:
    import numpy as np

    ref = random.Random(seed)
    g = np.zeros(mt.MT_WORDS, np.uint32)
    mt.seed_words(g, *split_seed(seed))
    assert [mt.random(g) for _ in range(1300)] == [ref.random() for _ in range(1300)]
    assert [mt.getrandbits(g, 63) for _ in range(5)] == [ref.getrandbits(63) for _ in range(5)]
    assert [mt.randbelow(g, n) for n in range(1, 120)] == [ref._randbelow(n)  # type: ignore[attr-defined]
                                                         for n in range(1, 120)]


def test_seed_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        split_seed(2**64)


def test_kernel_plays_every_preset() -> None:
    for name in PRESETS:
        compile_rules(preset(name))


def test_an_extension_built_for_other_keys_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension built before a key was added reads every later parameter at the wrong
    index: it is refused, naming the parameter, with how to rebuild it."""
    import unoarena.kernel.tables as tables

    built = tuple(n for n in PARAMS if n != "R_JUMP_IN")
    monkeypatch.setattr(tables, "_built_params", lambda: built)
    with pytest.raises(KernelUnsupported, match=r"R_JUMP_IN.*reinstall"):
        tables.compile_rules(preset("classic"))


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_every_preset_plays_the_same_rounds(name: str, players: int) -> None:
    rules = preset(name, players=players)
    rng = random.Random(players)
    for seed in range(6):
        _n, diff = compare_round(rules, seed * 1_000_003 + players, seed % players, rng)
        assert diff is None, str(diff)


def test_random_rule_sets_play_the_same_rounds() -> None:
    """A time-bounded sample over random combinations of every key (the long run is
    ``scripts/kernel_differential.py``)."""
    rng = random.Random(20261124)
    deadline = time.monotonic() + SAMPLE_SECONDS
    rule_sets = actions = 0
    while time.monotonic() < deadline or rule_sets < 20:
        rules = random_rules(rng)
        rule_sets += 1
        for j in range(2):
            n, diff = compare_round(rules, rng.getrandbits(63), j % rules.players, rng)
            actions += n
            assert diff is None, str(diff)
    assert actions > 1000


def _golden() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", _golden(), ids=lambda p: p.stem)
def test_golden_games_replay_on_the_kernel(path: Path) -> None:
    data = json.loads(path.read_text())
    rec = data["record"]
    if rec.get("format") != "unoarena.game" or rec.get("setup"):
        pytest.skip("a match or a set-up table")
    rules = RuleSet.from_dict(rec["rules"])
    ref = Game(rules, rec["seed"], rec["dealer"], record_events=False)
    ker = KernelGame(rules, rec["seed"], rec["dealer"])
    for seat, text in rec["actions"]:
        aid = ref.space.id(Action.parse(text))
        assert aid in ker.legal_ids(seat)
        ref.step(aid, seat)
        ker.step(aid, seat)
        assert ker.snapshot() == reference_snapshot(ref)
    assert ker.is_over
    assert list(ker.snapshot()["outcome"][3]) == data["outcome"]["scores"]


def test_a_deal_with_no_possible_starter_is_dealt_again() -> None:
    """START-9: Attack, 5 players of 21 cards, seed 35 leaves no number in the pile after the
    deal; both engines deal again from a fresh deck with the same generator."""
    rules = preset("attack", players=5, hand_size=21)
    _n, diff = compare_round(rules, 35, 0, random.Random(0), max_actions=200)
    assert diff is None, str(diff)


def _long_run_script() -> object:
    return load_script(Path(__file__).resolve().parents[2] / "scripts" / "kernel_differential.py")


@pytest.mark.parametrize(("args", "says"), [
    (["--slice", "a:b"], "--slice takes START:STOP"),
    (["--from-round", "-3"], "--from-round takes a round number, 0 or more, not -3"),
])
def test_the_long_run_refuses_bad_arguments_before_playing(
        args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    script = _long_run_script()
    with pytest.raises(SystemExit) as stop:
        script.main(args)  # type: ignore[attr-defined]
    assert stop.value.code == 2
    assert says in capsys.readouterr().err
