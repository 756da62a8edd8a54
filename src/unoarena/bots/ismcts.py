"""``ismcts``: information-set Monte Carlo search (single-observer ISMCTS).

Each iteration deals one *determinization*: a full game in which every card the bot cannot see
is re-dealt consistently with what it knows (:mod:`~unoarena.bots.inference`: the cards seen,
hand sizes, what opponents' forced draws, wild plays and last plays say about their hands),
plays on a few plies with a fast rule-based policy on the engine's integer fast path, and
scores each seat's chance to win: 1 or 0 when the round ended, else :func:`win_chances`, a
model of the hands fitted on simulated rounds.

The default search (``depth=1``, ``paired=1``, :meth:`ISMCTSBot.search_paired`) plays *every*
root action on copies of the same determinization with the same rollout noise, so actions are
compared on paired samples (common random numbers), and keeps the ``heuristic`` bot's choice
unless another action beats it by more than ``z`` standard errors of the paired difference;
actions clearly worse than that choice stop being sampled. The alternative (``paired=0`` or
``depth`` above 1) walks one UCB1 tree shared by all determinizations, with availability
counts (an action is scored against the number of times it was available), and plays the
root action visited most.

What was measured (four players, one ``ismcts`` against three ``heuristic``, 600 rounds each,
50 ms): the UCB tree and the paired search both win 28-30% (par 25%); the threshold ``z`` (0,
1, 2), rollouts of 5 to 30 plies, less rollout noise and the compiled engine's extra iterations
move that by less than the noise; six times the budget (300 ms) reaches about 32%. A closer
model of the opponents in the rollouts (no bluffed Wild Draw Four while holding the colour, a
challenge to one from a hand of three or more, a reverse worth no more than a number with more
than two players) and deals weighed by every opponent's recent plays and named colours
(:class:`~unoarena.bots.inference.Trace`) made it 29.9% over 1,200 rounds; a richer leaf model
(turn order, one or two cards left) left it there. Two diagnostics that cheat show where the
rest lies: deals with every opponent's true hand win 49% of 600 rounds, the next player's true
hand alone 36% (``benchmarks/strength.py --peek``). What the bot lacks is information the table
does not give, more than search.

In two-player games ten plies and the fitted model beat whole-round playouts clearly (64%
against 40% versus ``heuristic`` at 50 ms: UNO is so random that whole rounds carry almost no
signal at this budget), and deeper trees (opponents' nodes too) measured weaker at the same
budget: their nodes merge hands that differ from one determinization to the next. All of these
remain options.

Determinizations never come from hidden state. The bot builds them from its view:

* when the view offers ``determinize(rng, known=...)`` (a driver hands it to bots that set
  ``wants_determinize``; :class:`SearchView` is such a view), the engine copies the round
  with every hidden card re-dealt (:meth:`Game.determinize`) and the bot's sampled hands put
  in place: every phase (pending penalties, effects, a drawn card) can then be searched;
* otherwise, on its own turn in the play phase with no pending penalty or effect, it rebuilds
  the table with :class:`~unoarena.engine.Setup` from the view and its sample;
* anywhere else it plays as ``heuristic`` does, as it does for out-of-turn windows (catch,
  late UNO, jump-in), where answering at once matters more than searching.

Budget: ``iterations`` per move, or ``ms`` of process CPU time per move (the default, 50 ms;
CPU time so that a busy machine does not change how much the bot thinks). With ``iterations``
the bot is deterministic for a seed; with ``ms`` it is deterministic only up to timing.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import cycle
from typing import Any, ClassVar

from ..engine import Action, ActionSpace, Game, RuleSet, Setup
from ..engine.cards import (
    DRAW2,
    HIT2,
    IS_WILD,
    KCOLOR,
    KRANK,
    NKINDS,
    REVERSE,
    SKIP,
    WILD4,
    WILD_ATTACK,
)
from .base import BaseBot, Options
from .heuristic import Context, HeuristicBot
from .inference import COLOR_OF, KIND_OF, Layout

Builder = Callable[[random.Random], Game]

_WINDOW_VERBS = frozenset({"catch", "uno"})


class SearchView(dict[str, Any]):
    """A seat's view with its history, and a ``determinize`` method bound to the real game and
    seat: the engine re-deals every card the seat cannot see (:meth:`Game.determinize`), so a
    search bot gets full search copies without ever holding the game itself."""

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game.view(seat, history=True))
        self._determinize = game.determinize
        self._seat = seat

    def determinize(self, rng: random.Random, *,
                    known: Mapping[int, Sequence[int]] | None = None,
                    excluded: Mapping[int, Any] | None = None) -> Game:
        """A search copy of the real game in which everything this seat cannot see is re-dealt;
        ``known`` and ``excluded`` are as in :meth:`Game.determinize`."""
        return self._determinize(self._seat, rng, known=known, excluded=excluded)


class Tables:
    """Per action id, what the rollout policy and the tree need (built once per space)."""

    _cache: ClassVar[dict[int, Tables]] = {}

    def __init__(self, space: ActionSpace, rules: RuleSet) -> None:
        acts = space.actions
        size = len(acts)
        n = rules.players
        self.twin = [-1] * size  # a play's UNO-declaring twin
        self.window = [False] * size  # catch and uno: never a branch of the tree
        self.pcolor = [-1] * size  # colour in force after a play
        self.base = [0.0] * size  # the rollout policy's static preference
        self.attack = [0.0] * size  # its extra preference when the next player is close
        self.w4 = [False] * size  # a Wild Draw Four play: a bluff while the colour is held
        self.challenge = -1  # the id of "challenge", when the rules have one
        self.bluff = 4.0 if rules.wd4_challenge else 0.0  # what a bluffed W4 risks
        for i, a in enumerate(acts):
            v = a.verb
            if v in _WINDOW_VERBS:
                self.window[i] = True
                self.base[i] = 50.0
            elif v in ("play", "jump_in"):
                last = a.cards[-1]
                if i + 1 < size and acts[i + 1] == a.with_uno() and not a.uno:
                    self.twin[i] = i + 1
                self.pcolor[i] = a.color if IS_WILD[last] else KCOLOR[last]
                r = KRANK[last]
                b = 2.0 + 1.5 * (len(a.cards) - 1)
                if IS_WILD[last]:
                    b = 0.6 if last != WILD4 else 1.2
                    if a.power in ("look", "swap"):
                        b = 0.2
                    self.w4[i] = last == WILD4
                elif r == SKIP:
                    b = 3.0 if n == 2 else 2.2
                elif r == REVERSE:
                    b = 3.0 if n == 2 else 2.0  # with more players, as good as a number
                elif r in (DRAW2, HIT2):
                    b = 3.2 if n == 2 else 2.6
                if a.uno:
                    b += 0.05
                self.base[i] = b
                if last in (WILD4, WILD_ATTACK) or r in (SKIP, DRAW2, HIT2):
                    self.attack[i] = 1.5  # what stops a player about to go out
            elif v == "pass":
                self.base[i] = 0.3
            elif v == "challenge":
                self.base[i] = -0.4
                self.challenge = i
            elif v == "color":
                self.pcolor[i] = a.color
                self.base[i] = 0.0
        self.size = size

    @classmethod
    def of(cls, game: Game) -> Tables:
        """The tables for ``game``'s action space, built on first use and cached by the space's
        identity (the engine shares one space per rule set)."""
        key = id(game.space)
        t = cls._cache.get(key)
        if t is None:
            t = cls._cache[key] = Tables(game.space, game.rules)
        return t


class Node:
    """A node of the information-set tree: visits, wins of the seat that chose it,
    and how often it was available."""

    __slots__ = ("avail", "children", "n", "seat", "w")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}


def rollout_choice(g: Game, seat: int, ids: list[int], tb: Tables, rand: Callable[[], float],
                   noise: float = 0.9) -> int:
    """The fast default policy, which is also the search's model of the other players (it
    agrees with ``heuristic`` on 93% of four-player decisions with no noise): plays before
    draws, action cards in two-player games, wilds last, the colour the hand holds most, draw
    cards and skips against a next player close to going out, no Wild Draw Four bluff while
    holding the colour in force, a challenge to a W4 played from three or more cards, catches
    and UNO always; a little noise."""
    if len(ids) == 1:
        return ids[0]
    sizes = g.hand_sizes()
    n = len(sizes)
    d = 1 if g.direction == "cw" else n - 1
    ch = tb.challenge
    if ch >= 0 and ch in ids:
        # players challenge a Wild Draw Four unless its player had few cards to bluff with;
        # else they answer it as they would have (accept, or stack where the rules allow)
        if sizes[(seat + n - d) % n] >= 3:
            return ch
        ids = [i for i in ids if i != ch]
        if len(ids) == 1:
            return ids[0]
    cnt = [0, 0, 0, 0, 0, 0]
    for k in g.hand(seat):
        cnt[KCOLOR[k]] += 1  # wilds count at index -1, unused
    base, pcolor = tb.base, tb.pcolor
    close = sizes[(seat + d) % n] <= 2
    attack, w4 = tb.attack, tb.w4
    color = g.color
    bluff = tb.bluff if 0 <= color < 4 and cnt[color] else 0.0  # a W4 now would be a bluff
    best = ids[0]
    bv = -1e9
    for i in ids:
        c = pcolor[i]
        v = base[i] + noise * rand()
        if c >= 0:
            v += 0.35 * cnt[c]
        if close:
            v += attack[i]
        if w4[i]:
            v -= bluff
        if v > bv:
            bv, best = v, i
    return best


class ISMCTSBot(BaseBot):
    """See the module docstring. Options: ``iterations`` (0: use ``ms``), ``ms`` (CPU
    milliseconds per move), ``c`` (UCB exploration), ``determinizations`` (0: a fresh one per
    iteration, else that many sampled once per move and cycled), ``depth`` (tree depth in
    decisions), ``rollout`` (plies of the default policy before :func:`win_chances` scores a
    round that has not ended; 0 plays every round to its end, which measured far weaker),
    ``paired`` (1: :meth:`search_paired` at depth 1; 0: the UCB tree), ``z`` (standard errors
    a move must beat the heuristic's choice by, paired search), ``noise`` (randomness of the
    rollout policy), ``belief`` (1: deals drawn from the learned hand inference of
    :mod:`~unoarena.bots.belief`, which needs numpy; 0: the hand-written play model)."""

    name = "ismcts"
    wants_history = True
    wants_determinize = True

    def __init__(self, seed: int = 0, iterations: int = 0, ms: float = 50.0, c: float = 0.7,
                 determinizations: int = 0, depth: int = 1, rollout: int = 10,
                 opponents: int = 1, paired: int = 1, z: float = 1.0,
                 noise: float = 0.9, belief: int = 0) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.ms = ms
        self.c = c
        self.determinizations = determinizations
        self.depth = depth
        self.rollout_plies = rollout
        self.opponents = bool(opponents)
        self.paired = bool(paired)
        self.z = z
        self.noise = noise
        # learned hand inference (numpy): deals drawn from its beliefs instead of the
        # hand-written play model
        self.belief: Any = None
        if belief:
            try:
                from .belief import shipped
            except ImportError as e:
                raise ValueError(f"bot {self.name}: option belief=1 needs numpy ({e})") from None
            self.belief = shipped()
        self.heuristic = HeuristicBot(seed)
        # what the last searches did, for benchmarks: moves searched, iterations, CPU seconds
        self.searched = 0
        self._started = 0.0
        self.total_iterations = 0
        self.last_iterations = 0

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Also start the round of the inner heuristic, which anchors the search, answers the
        windows and plays when no search is possible."""
        super().begin_round(rules, seat)
        self.heuristic.begin_round(rules, seat)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Out-of-turn windows (catch, late UNO, jump-in) are answered at once by the heuristic,
        never searched."""
        return self.heuristic.window(view, legal)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """The seat's turn: a catch or UNO declaration is taken first and a challenge decision left
        to the heuristic; otherwise search when a determinization can be built, else play as
        ``heuristic``."""
        self._started = time.process_time()  # the budget counts the whole decision
        h = self.heuristic
        ctx = h.observe(view)
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if a.verb in _WINDOW_VERBS:
                return a  # catch or declare first: free, and the turn stays
            if a.verb == "challenge":
                # guilt in a determinization follows the sampled hand, which knows nothing of
                # how rarely this opponent bluffs; the heuristic's learnt odds do
                return h.decide(ctx, legal, rng)
        rules = self.rules
        if rules is None:
            return h.decide(ctx, legal, rng)
        build = self._builder(view, ctx, rules)
        if build is None:
            return h.decide(ctx, legal, rng)
        try:
            g0 = build(random.Random(rng.getrandbits(64)))
        except ValueError:  # the view and the history disagree (a table Setup rejects)
            return h.decide(ctx, legal, rng)
        index = g0.space.index
        ids = [index[a] for a in legal]
        tb = Tables.of(g0)
        roots = self._root_ids(ids, tb, g0, ctx, legal)
        if len(roots) == 1:
            return g0.space.actions[roots[0]]
        if sorted(self._canon(g0.legal_ids(self.seat), tb)) != sorted(
                self._canon(ids, tb)):
            return h.decide(ctx, legal, rng)  # the rebuilt table offers other actions
        if self.paired and self.depth == 1:
            prior = self._prior_id(self.anchor(view, ctx, legal, rng), index, roots, tb)
            best = self.search_paired(build, g0, roots, tb, rng, prior)
        else:
            best = self.search(build, g0, roots, tb, rng)
        return g0.space.actions[best]

    def anchor(self, view: Mapping[str, Any], ctx: Context, legal: Sequence[Action],
               rng: random.Random) -> Action:
        """The move the paired search keeps unless another is clearly better: the
        heuristic's (a subclass may anchor on another policy)."""
        return self.heuristic.decide(ctx, legal, rng)

    @staticmethod
    def _prior_id(choice: Action, index: Mapping[Action, int], roots: list[int],
                  tb: Tables) -> int:
        """The root standing for the heuristic's choice (its UNO twin when the tree keeps
        only that one); the first root when the choice was pruned."""
        i = index[choice]
        if i in roots:
            return i
        t = tb.twin[i]
        if t in roots:
            return t
        return next((r for r in roots if tb.twin[r] == i), roots[0])

    # -- building determinizations -------------------------------------------------------------
    def _builder(self, view: Mapping[str, Any], ctx: Context, rules: RuleSet) -> Builder | None:
        tracker = self.heuristic.tracker
        if tracker is None:
            return None
        layout = tracker.hidden_layout(view)
        if self.belief is not None:
            from .belief import Belief

            layout.belief = Belief.of(self.belief, tracker, view, layout, rules)
        seat = self.seat
        det = getattr(view, "determinize", None)
        samples: list[dict[int, list[int]]] = []
        fixed = self.determinizations

        def hands_of(r: random.Random) -> dict[int, list[int]]:
            if fixed:
                if len(samples) < fixed:
                    samples.append(layout.draw(r)[0])
                    return samples[-1]
                return samples[int(r.random() * fixed)]
            return layout.draw(r)[0]

        if callable(det):
            def via_engine(r: random.Random) -> Game:
                g: Game = det(r, known=hands_of(r))
                return g
            return via_engine
        if not self._setup_ok(view, seat):
            return None
        return self._setup_builder(view, layout, rules, hands_of)

    @staticmethod
    def _setup_ok(view: Mapping[str, Any], seat: int) -> bool:
        """Can :class:`Setup` express this table? Only a plain turn of this seat."""
        return (view["turn"] == seat and view["phase"] == "play" and not view.get("pending")
                and not view.get("effect") and view.get("top") is not None
                and view.get("color") is not None)

    def _setup_builder(self, view: Mapping[str, Any], layout: Layout, rules: RuleSet,
                       hands_of: Callable[[random.Random], dict[int, list[int]]]) -> Builder:
        seat = self.seat
        top = KIND_OF[view["top"]]
        color = COLOR_OF[view["color"]]
        discard = list(layout.discard)
        pool = list(layout.pool)
        if not discard or discard[-1] != top:
            if top in discard:
                discard.remove(top)
            elif top in pool:
                pool.remove(top)
            discard.append(top)
        extra = max(0, view["discard_size"] - len(discard))
        lay = Layout(layout.me, layout.order, layout.known, layout.groups, pool, extra, discard,
                     layout.named)
        lay.evidence, lay.two, lay.belief = layout.evidence, layout.two, layout.belief
        my_hand = [KIND_OF[c] for c in view["hand"]]
        direction = 1 if view["direction"] == "cw" else -1
        scores = list(view["scores"])
        players = view["players"]
        fixed_hands = hands_of

        def via_setup(r: random.Random) -> Game:
            if self.determinizations:
                hands = dict(fixed_hands(r))
                used = [k for h in hands.values() for k in h]
                rest = _minus(lay.pool, used)
                for i in range(len(rest) - 1, 0, -1):
                    j = int(r.random() * (i + 1))
                    rest[i], rest[j] = rest[j], rest[i]
                extra_cards = rest[:lay.extra_discard]
            else:
                hands, extra_cards, _pile = lay.draw(r)
            hands[seat] = my_hand
            for s in range(players):
                hands.setdefault(s, [])
            setup = Setup(hands=hands, discard=extra_cards + discard, color=color,
                          turn=seat, direction=direction)
            return Game(rules, r.getrandbits(32), setup=setup, scores=scores,
                        record_events=False)
        return via_setup

    # -- the search -----------------------------------------------------------------------------
    @staticmethod
    def _canon(ids: Sequence[int], tb: Tables) -> list[int]:
        """Branches worth searching: a play leaving one card always declares UNO; catches and
        UNO calls are taken outside the tree."""
        present = set(ids)
        twin, window = tb.twin, tb.window
        return [i for i in ids if not window[i] and not (twin[i] >= 0 and twin[i] in present)]

    def _root_ids(self, ids: list[int], tb: Tables, g0: Game, ctx: Context,
                  legal: Sequence[Action]) -> list[int]:
        """The root's candidates: canonical ids, with a wild's colours cut to the two the
        heuristic likes best (colour choice beyond that rarely changes the result)."""
        ids = self._canon(ids, tb)
        acts = g0.space.actions
        by_cards: dict[tuple[str, tuple[int, ...], str, int], list[int]] = {}
        for i in ids:
            a = acts[i]
            if a.color >= 0 and a.verb == "play":
                by_cards.setdefault((a.verb, a.cards, a.power, a.target), []).append(i)
        if not by_cards:
            return ids
        keep = set(ids)
        h = self.heuristic
        for group in by_cards.values():
            if len(group) <= 2:
                continue
            rem = list(ctx.hand)
            for k in acts[group[0]].cards:
                if k in rem:
                    rem.remove(k)
            colors = {acts[i].color for i in group}
            first = h.best_color(ctx, rem, colors)
            second = h.best_color(ctx, rem, colors - {first})
            for i in group:
                if acts[i].color not in (first, second):
                    keep.discard(i)
        return [i for i in ids if i in keep]

    def search(self, build: Builder, g0: Game, roots: list[int], tb: Tables,
               rng: random.Random) -> int:
        """Run the budgeted ISMCTS from this seat's information set; the most visited root."""
        me = self.seat
        n = g0.players
        rules = g0.rules
        team = [rules.team_of(s) for s in range(n)]
        root = Node(me)
        rand = rng.random
        c = self.c
        max_depth = self.depth
        plies = self.rollout_plies or 2_000  # a cap: rounds that never end are scored
        root_set = set(roots)
        opp_tree = self.opponents
        my_team = team[me]
        it = 0
        for g in self._budgeted(build, g0, rng):
            it += 1
            node = root
            path: list[Node] = []
            depth = 0
            expanded = False
            guard = 400
            while not g.is_over and not expanded and depth < max_depth and guard:
                guard -= 1
                seat = g.turn
                ids = g.legal_ids(seat)
                if not opp_tree and team[seat] != my_team:
                    g.step(rollout_choice(g, seat, ids, tb, rand, self.noise), seat)
                    continue
                ids = [i for i in ids if i in root_set] if node is root else self._canon(ids, tb)
                if not ids:
                    break
                if len(ids) == 1:
                    g.step(ids[0], seat)
                    continue
                children = node.children
                fresh = [i for i in ids if i not in children]
                for i in ids:
                    ch = children.get(i)
                    if ch is not None:
                        ch.avail += 1
                if fresh:
                    i = fresh[int(rand() * len(fresh))]
                    child = children[i] = Node(seat)
                    expanded = True
                else:
                    best_v = -1.0
                    i = ids[0]
                    for j in ids:
                        ch = children[j]
                        v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                        if v > best_v:
                            best_v, i = v, j
                    child = children[i]
                g.step(i, seat)
                path.append(child)
                node = child
                depth += 1
            reward = self._playout(g, tb, rand, plies, team, self.noise)
            for nd in path:
                nd.n += 1
                nd.w += reward[nd.seat]
        self.searched += 1
        self.total_iterations += it
        self.last_iterations = it
        kids = root.children
        return max(roots, key=lambda i: (kids[i].n, kids[i].w) if i in kids else (-1, 0.0))

    def _budgeted(self, build: Builder, g0: Game, rng: random.Random) -> Iterator[Game]:
        """Determinizations for one search, ``g0`` first, while the budget lasts: ``iterations``
        of them, or as many as fit in ``ms`` of CPU time counted from the start of the
        decision (it stops before one that the mean cost so far says would overrun)."""
        limit = self.iterations
        deadline = self._started + self.ms / 1000.0 if not limit else math.inf
        clock = time.process_time
        t0 = clock()
        it = 0
        while True:
            if limit:
                if it >= limit:
                    return
            else:
                now = clock()
                if it and now + (now - t0) / it >= deadline:
                    return
            it += 1
            yield g0 if it == 1 else build(rng)

    def search_paired(self, build: Builder, g0: Game, roots: list[int], tb: Tables,
                      rng: random.Random, prior: int) -> int:
        """Flat search with common random numbers, anchored on the heuristic's choice.

        Every iteration deals one determinization and plays *every* root action on a copy of
        it, each followed by the same rollout randomness (the same hidden cards, the same
        draws, the same noise), so the differences between actions are measured on paired
        samples, far less noisy than independent ones. The heuristic's choice ``prior`` is
        played unless another action beats it by more than ``z`` standard errors of the paired
        difference: with a few hundred rollouts a move the search merely *seems* to prefer is
        more often noise than insight (measured: plain argmax loses to the anchor)."""
        me = self.seat
        rules = g0.rules
        team = [rules.team_of(s) for s in range(g0.players)]
        k = len(roots)
        p = roots.index(prior)
        plies = self.rollout_plies or 2_000
        diff = [0.0] * k
        diff2 = [0.0] * k
        count = [0] * k
        alive = list(range(k))
        it = 0
        rewards = [0.0] * k
        playout = self._playout
        noise = self.noise
        rnd = rng.random
        for it, g in enumerate(self._budgeted(build, g0, rng), 1):
            # the rollout noise every action sees, drawn once (reseeding a generator per
            # action cost more than the draws)
            draws = [rnd() for _ in range(_NOISE_DRAWS)]
            last = alive[-1]
            for j in alive:
                c = g.clone() if j != last else g
                c.step(roots[j], me)
                rewards[j] = playout(c, tb, cycle(draws).__next__, plies, team, noise)[me]
            base = rewards[p]
            for j in alive:
                d = rewards[j] - base
                diff[j] += d
                diff2[j] += d * d
                count[j] += 1
            if it % _PRUNE_EVERY == 0 and len(alive) > 2:
                # an action clearly worse than the anchor can never be chosen: stop paying
                # for its rollouts and give the iterations to the others
                alive = [j for j in alive if j == p or not _clearly_below(
                    diff[j], diff2[j], count[j])]
        self.searched += 1
        self.total_iterations += it
        self.last_iterations = it
        return roots[self.choose(roots, diff, diff2, count, p)]

    def choose(self, roots: Sequence[int], diff: Sequence[float], diff2: Sequence[float],
               count: Sequence[int], anchor: int) -> int:
        """The paired search's verdict: :func:`anchored_choice` (a subclass may weigh the
        differences with a prior)."""
        return anchored_choice(diff, diff2, count, anchor, self.z)

    def leaf(self, g: Game) -> list[float]:
        """Each seat's chance to win a rollout's unfinished round: :func:`win_chances`, the
        fitted model of the hands (a subclass may score leaves otherwise)."""
        return win_chances(g)

    def _playout(self, g: Game, tb: Tables, rand: Callable[[], float], plies: int,
                 team: list[int], noise: float) -> list[float]:
        """Play on with the default policy; returns each seat's reward (its team's win, or
        after ``plies`` the win chances :meth:`leaf` estimates)."""
        step, legal = g.step, g.legal_ids
        n = len(team)
        while not g.is_over:
            if plies <= 0:
                probs = self.leaf(g)
                by_team = [0.0] * n
                for s in range(n):
                    by_team[team[s]] += probs[s]
                return [by_team[team[s]] for s in range(n)]
            plies -= 1
            seat = g.turn
            step(rollout_choice(g, seat, legal(seat), tb, rand, noise), seat)
        out = g.outcome
        w = out.winner if out is not None else None
        if w is None:
            return [1.0 / n] * n
        wt = team[w]
        return [1.0 if team[s] == wt else 0.0 for s in range(n)]


def anchored_choice(diff: Sequence[float], diff2: Sequence[float], count: Sequence[int],
                    anchor: int, z: float) -> int:
    """The index to play: the one whose mean paired difference to ``anchor`` (sums ``diff``
    and ``diff2`` of the differences and their squares over ``count`` samples) is largest, if
    that mean exceeds ``z`` standard errors; else ``anchor``."""
    means = [d / n if n else -math.inf for d, n in zip(diff, count, strict=True)]
    best = max(range(len(diff)), key=means.__getitem__)
    n = count[best]
    if best == anchor or n < 2 or means[best] <= 0:
        return anchor
    mean = means[best]
    var = max(0.0, diff2[best] / n - mean * mean) * n / (n - 1)
    return best if mean > z * math.sqrt(var / n) else anchor


def prior_choice(diff: Sequence[float], diff2: Sequence[float], count: Sequence[int],
                 anchor: int, prior: Sequence[float], sigma: float) -> int:
    """The index to play when a prior says how much better than ``anchor`` each action is
    (``prior``, with standard error ``sigma``): each action's paired difference to the anchor
    is the precision-weighted mean of the prior and the search's mean (its standard error
    from ``diff2``); the best, if above zero, else the anchor."""
    best, best_v = anchor, 0.0
    w0 = 1.0 / (sigma * sigma)
    for j, n in enumerate(count):
        if j == anchor:
            continue
        mu = prior[j]
        if n >= 2:
            mean = diff[j] / n
            var = max(1e-6, diff2[j] / n - mean * mean) * n / (n - 1)
            w = n / var
            mu = (w0 * prior[j] + w * mean) / (w0 + w)
        if mu > best_v:
            best, best_v = j, mu
    return best


def _clearly_below(total: float, total2: float, n: int, z: float = 2.5) -> bool:
    """Is the mean of these paired differences below zero by more than ``z`` standard
    errors?"""
    if n < 2:
        return False
    mean = total / n
    var = max(0.0, total2 / n - mean * mean) * n / (n - 1)
    return mean + z * math.sqrt(var / n) < 0


_NOISE_DRAWS = 61  # rollout noise values per iteration, cycled (a prime: no short period)
_PRUNE_EVERY = 16  # iterations between eliminations of clearly worse root actions


#: Weights of :func:`win_chances`, per player: sqrt(hand size), wilds (not W4), Wild Draw
#: Fours, coloured action cards, colours held, "is to move", "is to move and can play".
#: Fitted by maximum likelihood (a multinomial logit) on states of classic rounds played by the
#: rollout policy, two and four players.
_W2 = (-0.540, 0.363, 0.628, 0.190, -0.168, -0.145, 0.338)
_W4 = (-1.065, 0.510, 0.551, 0.062, 0.018, -0.264, 0.479)
_SQRT = [math.sqrt(x) for x in range(300)]


def win_chances(g: Game) -> list[float]:
    """Each seat's chance to win the round, estimated from the hands (a search copy's, never
    the real game's): fewer cards, wilds and action cards are good, many colours bad."""
    w = _W2 if g.players == 2 else _W4
    color = g.color
    top_rank = KRANK[g.top]
    mover = g.turn
    scores = []
    for s in range(g.players):
        hand = g.hand(s)
        wilds = w4s = acts = 0
        colors = 0
        can = False
        for k in hand:
            c = KCOLOR[k]
            if c < 0:
                if k == WILD4:
                    w4s += 1
                else:
                    wilds += 1
                can = True
            else:
                colors |= 1 << c
                if KRANK[k] >= SKIP:
                    acts += 1
                if c == color or KRANK[k] == top_rank:
                    can = True
        x = (w[0] * _SQRT[min(len(hand), 299)] + w[1] * wilds + w[2] * w4s + w[3] * acts
             + w[4] * _BITS[colors])
        if s == mover:
            x += w[5] + (w[6] if can else 0.0)
        scores.append(x)
    top = max(scores)
    ex = [math.exp(x - top) for x in scores]
    total = sum(ex)
    return [x / total for x in ex]


_BITS = [bin(i).count("1") for i in range(64)]


def _minus(pool: Sequence[int], used: Sequence[int]) -> list[int]:
    counts = [0] * NKINDS
    for k in used:
        counts[k] += 1
    out = []
    for k in pool:
        if counts[k]:
            counts[k] -= 1
        else:
            out.append(k)
    return out


def make_ismcts(options: Mapping[str, str], seed: int, *,
                cls: type[ISMCTSBot] = ISMCTSBot) -> ISMCTSBot:
    """An ``ismcts`` bot (or a subclass ``cls`` taking the same options) from its spec."""
    o = Options(cls.name, options)
    search = search_options(o)
    o.done()
    return cls(seed, **search)


def search_options(o: Options, default_belief: int = 0) -> dict[str, Any]:
    """Read the search's options (those of ``ismcts``, shared by the bots built on it) as
    keyword arguments of :class:`ISMCTSBot`; the caller checks for leftovers."""
    iterations = o.get_int("iterations", 0, 0)
    ms = o.get_float("ms", 50.0, 0.1, 600_000.0)
    c = o.get_float("c", 0.7, 0.0, 10.0)
    dets = o.get_int("determinizations", 0, 0)
    depth = o.get_int("depth", 1, 1, 1000)
    rollout = o.get_int("rollout", 10, 0)
    opponents = o.get_int("opponents", 1, 0, 1)
    paired = o.get_int("paired", 1, 0, 1)
    z = o.get_float("z", 1.0, 0.0, 10.0)
    noise = o.get_float("noise", 0.9, 0.0, 10.0)
    belief = o.get_int("belief", default_belief, 0, 1)
    return {"belief": belief, "iterations": iterations, "ms": ms, "c": c, "determinizations": dets,
            "depth": depth, "rollout": rollout, "opponents": opponents, "paired": paired,
            "z": z, "noise": noise}
