"""One input layout for every rule set: what the ``learned`` bot's network reads.

The observation encoding (:mod:`unoarena.encoding`) changes size with the player count, and
the action space (:class:`~unoarena.engine.ActionSpace`) with the rule set. A network that
plays every preset at 2-10 players needs fixed sizes, so:

* the observation is gathered into a *canonical* vector: every seat-indexed field padded to
  :data:`MAX_PLAYERS` entries, every field divided by its largest magnitude, then a few
  features of the rule set (preset, player count, the house rules that change play);
* an action is described by features (verb, cards, last card, colour, power, UNO flag), and
  its target seat by its position relative to the actor, so the network scores actions it has
  never seen in another rule set the same way.

Both work on batches, so training (on the kernel's observations) and play (on one view) share
this code and cannot drift apart.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..encoding import ENCODING_VERSION, layout
from ..engine import CODES, COLOR_CODES, RuleSet, action_space
from ..engine.actions import VERBS
from ..engine.rules import PRESETS

MAX_PLAYERS = 10
NKINDS = len(CODES)
#: The field names of the encoding this layout was written for, in order.
_FIELDS = ("hand", "hand_sizes", "uno_declared", "uno_exposed", "turn", "window", "phase", "top",
           "color", "direction", "drawn", "pending_amount", "pending_source", "effect",
           "effect_color", "effect_owner", "scores", "teammate", "draw_pile")
_PRESETS = tuple(sorted(PRESETS))
#: Rule flags that change how a round is played (beyond the preset's edition).
_FLAGS: tuple[tuple[str, Any], ...] = (
    ("jump_in", True), ("double_play", True), ("multi_play", True), ("seven_zero", True),
    ("wild_powers", True), ("number_finish", True), ("wd4_challenge", True),
    ("voluntary_draw_play", "may"), ("scoring", "penalty"), ("w4_rule", "free"),
    ("draw_count", "until_playable"))
ACTION_VERBS = (*VERBS, "decline")
#: verb one-hot, card counts, last card one-hot, number of cards, colour, power, UNO, gives
ACTION_FEATURES = len(ACTION_VERBS) + 2 * NKINDS + 1 + len(COLOR_CODES) + 2 + 1 + 1
#: relative target seat 0..MAX_PLAYERS-1, or MAX_PLAYERS for "no target"
TARGETS = MAX_PLAYERS + 1

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


def rule_features(rules: RuleSet) -> F32:
    """Preset one-hot, player count one-hot (2..10), team play, stacking and the flags."""
    out = np.zeros(len(_PRESETS) + (MAX_PLAYERS - 1) + 2 + len(_FLAGS), np.float32)
    if rules.preset in _PRESETS:
        out[_PRESETS.index(rules.preset)] = 1.0
    out[len(_PRESETS) + rules.players - 2] = 1.0
    b = len(_PRESETS) + MAX_PLAYERS - 1
    out[b] = float(rules.teams > 0)
    out[b + 1] = float(rules.stacking != "off")
    for i, (key, on) in enumerate(_FLAGS):
        out[b + 2 + i] = float(getattr(rules, key) == on)
    return out


def obs_features() -> int:
    """Size of the canonical vector (observation part plus rule features)."""
    return Layout(PRESETS["classic"]).size


class Layout:
    """The canonical input and the action features of one rule set.

    ``canon(obs)`` maps encoder observations (``(..., size)``) to network inputs;
    ``actions`` holds the features of every action id (``decline`` last) and
    ``target[seat]`` each action's target relative to ``seat`` (:data:`MAX_PLAYERS` when it
    has none).
    """

    def __init__(self, rules: RuleSet) -> None:
        if not 2 <= rules.players <= MAX_PLAYERS:
            raise ValueError(f"the learned bot plays 2 to {MAX_PLAYERS} players, not "
                             f"{rules.players}")
        self.rules = rules
        # fields after these (HR-OPEN's open hands) are not read: the network predates them
        fields = layout(rules)[:len(_FIELDS)]
        names = tuple(f.name for f in fields)
        if names != _FIELDS:
            raise ValueError(f"observation encoding version {ENCODING_VERSION} has fields "
                             f"{names}; the learned bot was built for {_FIELDS}")
        src: list[int] = []
        scale: list[float] = []
        for f in fields:
            size = MAX_PLAYERS if f.index == "relative seat" else f.size
            div = max(abs(f.low), abs(f.high), 1.0)
            for i in range(size):
                src.append(f.offset + i if i < f.size else -1)
                scale.append(1.0 / div if i < f.size else 0.0)
        self._src: I64 = np.array([max(0, s) for s in src], np.int64)
        self._scale: F32 = np.array(scale, np.float32)
        self._rules: F32 = rule_features(rules)
        self.size = len(src) + len(self._rules)
        space = action_space(rules)
        self.space = space
        self.decline = len(space)
        acts = space.actions
        feats = np.zeros((len(acts) + 1, ACTION_FEATURES), np.float32)
        nv = len(ACTION_VERBS)
        for i, a in enumerate(acts):
            row = feats[i]
            row[ACTION_VERBS.index(a.verb)] = 1.0
            for k in a.cards:
                row[nv + k] += 0.5
            if a.cards:
                row[nv + NKINDS + a.cards[-1]] = 1.0
                row[nv + 2 * NKINDS] = len(a.cards) / 4.0
            b = nv + 2 * NKINDS + 1
            if a.color >= 0:
                row[b + a.color] = 1.0
            b += len(COLOR_CODES)
            if a.power in ("look", "swap"):
                row[b + ("look", "swap").index(a.power)] = 1.0
            b += 2
            row[b] = float(a.uno)
            row[b + 1] = len(a.give) / 2.0
        feats[len(acts), nv - 1] = 1.0  # decline
        self.actions: F32 = feats
        n = rules.players
        target = np.full((n, len(acts) + 1), MAX_PLAYERS, np.int64)
        for i, a in enumerate(acts):
            if a.target >= 0:
                target[:, i] = [(a.target - seat) % n for seat in range(n)]
        self.target: I64 = target

    def canon(self, obs: npt.NDArray[np.float32]) -> F32:
        """Network inputs for encoder observations ``(..., size)`` -> ``(..., self.size)``."""
        x = obs[..., self._src] * self._scale
        rules = np.broadcast_to(self._rules, (*x.shape[:-1], len(self._rules)))
        return np.concatenate([x, rules], axis=-1).astype(np.float32, copy=False)
