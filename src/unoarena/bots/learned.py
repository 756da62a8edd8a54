"""``learned``: a small network trained by reinforcement learning, played with numpy alone.

The network (trained by :mod:`unoarena.train`, shipped as ``learned.npz`` next to this
module) reads the seat's observation in the canonical layout of
:mod:`unoarena.bots.features`, so one set of weights plays every preset at 2-10 players. It
has a policy head (a score per legal action) and a value head (the expected round result),
both available to other code through :meth:`Network.forward`.

Options: ``temperature`` (0, the default, plays the highest-scoring action; above 0 samples
from the softmax at that temperature with the driver's generator), ``weights`` (a path to
another ``.npz`` file written by the trainer).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..encoding import Encoder
from ..engine import Action, Game, RuleSet
from .base import BaseBot, Options
from .features import ACTION_FEATURES, Layout, obs_features
from .heuristic import Context
from .ismcts import ISMCTSBot, prior_choice, search_options, win_chances
from .weights import read_weights

WEIGHTS = Path(__file__).with_name("learned.npz")
#: The arrays a weights file holds, in the order of :meth:`Network.forward`.
PARAMS = ("w1", "b1", "w2", "b2", "wv", "bv", "wa", "ba", "wq", "bq", "wt", "bt")

F32 = npt.NDArray[np.float32]


class Network:
    """The trained MLP in numpy: torso, value head, and a policy that scores actions by the
    dot product of a state vector with an embedding of each action's features."""

    def __init__(self, params: Mapping[str, npt.NDArray[Any]], meta: Mapping[str, Any]) -> None:
        missing = [k for k in PARAMS if k not in params]
        if missing:
            raise ValueError(f"weights file lacks {', '.join(missing)}: it was not written by "
                             "unoarena.train")
        self.p = {k: np.asarray(params[k], np.float32) for k in PARAMS}
        self.meta = dict(meta)
        inputs = self.p["w1"].shape[0]
        if inputs != obs_features():
            raise ValueError(f"weights expect {inputs} inputs, this version's layout has "
                             f"{obs_features()}: retrain with unoarena.train")
        if self.p["wa"].shape[0] != ACTION_FEATURES:
            raise ValueError(f"weights expect {self.p['wa'].shape[0]} action features, this "
                             f"version has {ACTION_FEATURES}: retrain with unoarena.train")
        self._emb: dict[RuleSet, F32] = {}

    @classmethod
    def load(cls, path: str | Path = WEIGHTS) -> Network:
        """Read a weights file (``.npz``); a clear error when it is missing or not ours."""
        return cls(*read_weights(path, "weights file", "python -m unoarena.train distill"))

    def action_embedding(self, layout: Layout) -> F32:
        """``tanh(features @ wa + ba)`` for every action of a rule set (cached per rule set)."""
        emb = self._emb.get(layout.rules)
        if emb is None:
            emb = np.tanh(layout.actions @ self.p["wa"] + self.p["ba"])
            self._emb[layout.rules] = emb
        return emb

    def forward(self, x: F32, emb: F32, target: npt.NDArray[np.int64]
                ) -> tuple[F32, F32]:
        """Logits over every action id ``(..., actions)`` and values ``(...)`` for canonical
        inputs ``x`` ``(..., inputs)``; ``target`` holds each action's relative target for
        the acting seat (``Layout.target[seat]``)."""
        p = self.p
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h = np.maximum(h @ p["w2"] + p["b2"], 0.0)
        value = np.tanh(h @ p["wv"] + p["bv"])[..., 0]
        q = h @ p["wq"] + p["bq"]
        t = h @ p["wt"] + p["bt"]
        logits = q @ emb.T + np.take_along_axis(
            t, np.broadcast_to(target, (*t.shape[:-1], target.shape[-1])), axis=-1)
        return logits.astype(np.float32, copy=False), value.astype(np.float32, copy=False)

    def values(self, x: F32) -> F32:
        """The value head alone (expected round result, -1..1) for inputs ``x``
        ``(..., inputs)``: what a search's leaf needs, without scoring every action."""
        p = self.p
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h = np.maximum(h @ p["w2"] + p["b2"], 0.0)
        out: F32 = np.tanh(h @ p["wv"] + p["bv"])[..., 0]
        return out


@cache
def shipped() -> Network:
    """The network shipped with the package (loaded once per process)."""
    return Network.load(WEIGHTS)


class LearnedBot(BaseBot):
    """Plays the network's highest-scoring legal action (or samples at ``temperature``)."""

    name = "learned"

    def __init__(self, seed: int = 0, *, temperature: float = 0.0,
                 network: Network | None = None) -> None:
        super().__init__(seed)
        self.temperature = temperature
        self.net = network if network is not None else shipped()
        self._layouts: dict[RuleSet, tuple[Layout, Encoder, F32]] = {}
        self.layout: Layout | None = None
        self.encoder: Encoder | None = None
        self._emb: F32 | None = None

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Pick the layout, encoder and action embedding for the round's rules (built once per rule
        set and kept)."""
        super().begin_round(rules, seat)
        got = self._layouts.get(rules)
        if got is None:
            lay = Layout(rules)
            got = (lay, Encoder(rules), self.net.action_embedding(lay))
            self._layouts[rules] = got
        self.layout, self.encoder, self._emb = got

    def scores(self, view: Mapping[str, Any], ids: Sequence[int], *,
               window: bool = False) -> tuple[F32, float]:
        """The network's logits for action ids ``ids`` and its value of the position."""
        lay, enc, emb = self.layout, self.encoder, self._emb
        if lay is None or enc is None or emb is None:
            raise RuntimeError("begin_round() must be called before the bot acts")
        x = lay.canon(enc.encode_view(view, window=window))
        seat = int(view["seat"])
        logits, value = self.net.forward(x, emb, lay.target[seat])
        return logits[np.asarray(ids, np.int64)], float(value)

    def _choose(self, view: Mapping[str, Any], ids: list[int], window: bool,
                rng: random.Random) -> int:
        logits, _value = self.scores(view, ids, window=window)
        if self.temperature <= 0.0 or len(ids) == 1:
            return int(np.argmax(logits))
        z = (logits - logits.max()) / self.temperature
        w = np.exp(z.astype(np.float64))
        return rng.choices(range(len(ids)), weights=w.tolist())[0]

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """The seat's turn: the network's highest-scoring legal action, or a sample at
        ``temperature`` drawn with the driver's ``rng``."""
        lay = self.layout
        if lay is None:
            raise RuntimeError("begin_round() must be called before the bot acts")
        ids = [lay.space.id(a) for a in legal]
        return legal[self._choose(view, ids, False, rng)]

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Score the window's actions together with declining (the layout's ``decline`` id);
        None when declining is chosen. Samples use the bot's own generator."""
        lay = self.layout
        if lay is None or not legal:
            return None
        ids = [lay.space.id(a) for a in legal] + [lay.decline]
        i = self._choose(view, ids, True, self.rng)
        return None if i == len(legal) else legal[i]


def make_learned(options: Mapping[str, str], seed: int) -> LearnedBot:
    """A ``learned`` bot from its spec options (``temperature``, ``weights``): the shipped
    network unless ``weights`` names another file."""
    opts = Options("learned", options)
    temperature = opts.get_float("temperature", 0.0, 0.0, 10.0)
    path = opts.get_str("weights", "")
    opts.done()
    net = Network.load(path) if path else None
    return LearnedBot(seed, temperature=temperature, network=net)


#: How ``learned-search`` scores a rollout's unfinished round (option ``leaf``).
LEAVES = ("model", "value", "mix", "mine")


class LearnedSearchBot(ISMCTSBot):
    """``learned-search``: ``ismcts``'s paired search anchored on the network's move instead
    of the heuristic's: the search keeps the learned move unless another is clearly better on
    the same sampled deals. Options are ``ismcts``'s (``belief=1`` draws the deals from the
    learned hand inference), ``weights`` (another policy file), ``prior`` (above 0: the
    network's scores, as advantages, are a prior on each move's difference to the anchor with
    this standard error; see :meth:`choose`), and ``leaf``: how a rollout's unfinished round is
    scored: ``model`` (the fitted model of the hands, as ``ismcts``), ``value`` (the network's
    value head, read from every seat's own view of the sampled deal, so each hand counts once,
    normalised over the seats), ``mix`` (the mean of the two) or ``mine`` (the value head of
    the searching seat's own view only, the other seats sharing the rest: what a distilled
    value estimates, the result from this view if the bots play on)."""

    name = "learned-search"

    def __init__(self, seed: int = 0, leaf: str = "model", prior: float = 0.0,
                 network: Network | None = None, **search: Any) -> None:
        if leaf not in LEAVES:
            raise ValueError(f"bot learned-search: option leaf={leaf!r} must be one of "
                             f"{', '.join(LEAVES)}")
        super().__init__(seed, **search)
        self.policy = LearnedBot(seed, network=network)
        self.leaf_mode = leaf
        self.prior = prior
        self._scores: dict[int, float] = {}

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Start the round for the search and for the network policy that anchors it."""
        super().begin_round(rules, seat)
        self.policy.begin_round(rules, seat)

    def anchor(self, view: Mapping[str, Any], ctx: Context, legal: Sequence[Action],
               rng: random.Random) -> Action:
        """The network's greedy move, in place of the heuristic's (its scores kept for
        :meth:`choose`)."""
        lay = self.policy.layout
        if lay is None:
            raise RuntimeError("begin_round() must be called before the bot acts")
        ids = [lay.space.id(a) for a in legal]
        logits, _value = self.policy.scores(view, ids)
        self._scores = dict(zip(ids, logits.tolist(), strict=True))
        return legal[int(np.argmax(logits))]

    def choose(self, roots: Sequence[int], diff: Sequence[float], diff2: Sequence[float],
               count: Sequence[int], anchor: int) -> int:
        """With ``prior`` above 0, the network's scores (advantages, for a distilled policy)
        are a prior on each action's difference to the anchor, with that standard error
        (:func:`~unoarena.bots.ismcts.prior_choice`); else ``ismcts``'s threshold."""
        if self.prior <= 0.0:
            return super().choose(roots, diff, diff2, count, anchor)
        sc = self._scores
        k = 1.0 / float(self.policy.net.meta.get("score_scale", 1.0))  # scores -> advantages
        a = sc.get(roots[anchor], 0.0)
        prior = [(sc.get(r, a - 1.0) - a) * k for r in roots]
        return prior_choice(diff, diff2, count, anchor, prior, self.prior)

    def leaf(self, g: Game) -> list[float]:
        """Each seat's chance to win an unfinished rollout, by ``leaf``: the network values
        every seat's view of the sampled deal (its value ``v`` read as a win chance
        ``(1 + v) / 2``), normalised to sum to one."""
        if self.leaf_mode == "model":
            return win_chances(g)
        lay, enc, net = self.policy.layout, self.policy.encoder, self.policy.net
        if lay is None or enc is None:
            raise RuntimeError("begin_round() must be called before the bot acts")
        if self.leaf_mode == "mine":
            me = self.seat
            p = float((1.0 + net.values(lay.canon(enc.encode(g, me)))) * 0.5)
            rest = (1.0 - p) / max(1, g.players - 1)
            return [p if s == me else rest for s in range(g.players)]
        x = np.stack([lay.canon(enc.encode_view(g.view(s))) for s in range(g.players)])
        q = (1.0 + net.values(x)) * 0.5 + 1e-6
        probs: list[float] = (q / q.sum()).tolist()
        if self.leaf_mode == "mix":
            return [(a + b) * 0.5 for a, b in zip(probs, win_chances(g), strict=True)]
        return probs


def make_learned_search(options: Mapping[str, str], seed: int) -> ISMCTSBot:
    """A ``learned-search`` bot from its spec: ``ismcts``'s options and ``leaf``."""
    o = Options(LearnedSearchBot.name, options)
    leaf = o.get_str("leaf", "model")
    prior = o.get_float("prior", 0.0, 0.0, 10.0)
    path = o.get_str("weights", "")
    search = search_options(o)
    o.done()
    net = Network.load(path) if path else None
    return LearnedSearchBot(seed, leaf=leaf, prior=prior, network=net, **search)
