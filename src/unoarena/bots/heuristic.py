"""``heuristic``: a strong rule-based player for every edition and house rule.

It decides from its view and the history it saw (card tracking by
:class:`~unoarena.bots.inference.CardTracker`), never from hidden state. What it does, and why:

* every play is scored: cards shed, how many cards of the resulting colour it keeps (so it can
  follow next turn), whether the next player is believed void in that colour (an opponent that
  drew on a colour holds none of it), what the card does to a player close to going out
  (``D2``, ``W4``, skips, hit-2, attack-attack), and what it costs to spend a wild now rather than
  keep it for when nothing else fits;
* in two-player games skip, reverse and draw two come first: they are extra turns (TWO-1);
* wilds come last, kept to escape a colour or to finish (a Wild Draw Four kept to the end
  makes the last two cards one turn with two players); a wild names the colour it holds most,
  preferring one the next player lacks;
* a Wild Draw Four is challenged when the evidence says bluff: the probability that its player
  still holds the previous colour, from the cards unseen and what that player's draws revealed,
  weighed against the four-or-six draw at stake (WD4-2);
* it bluffs a Wild Draw Four when the expected cost of being challenged (from how often its
  opponents accepted its earlier ones, with a cautious prior) is below the card's value;
* it always catches an undeclared UNO and always declares its own (UNO-1, UNO-2), answers
  pending penalties when the rules let it (HR-STACK, ATK-8), and jumps in whenever it can
  (HR-JUMP, HR-SUM), shedding the most cards;
* edition cards: hyperspeed on its longest colour, forces of nature on a colour the others
  lack, discard-all for its colour's cards, attack-attack and seven-swaps at the seat with the
  fewest cards, multi-plays that shed the most, a number kept for the last card under
  number finish.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Action, Pending, RuleSet
from ..engine.cards import (
    DISCARD_ALL,
    DRAW2,
    HIT2,
    IS_NUMBER,
    IS_WILD,
    KCOLOR,
    KRANK,
    POINTS,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    WILD_HYPER,
    WILD_NATURE,
)
from .base import BaseBot, Options
from .inference import COLOR_OF, KIND_OF, BluffStats, CardTracker, kinds


class Context:
    """What one decision needs from the view, decoded once."""

    __slots__ = (
        "color",
        "colors",
        "d",
        "hand",
        "lock",
        "n",
        "nxt",
        "pending",
        "prev",
        "rules",
        "seat",
        "sizes",
        "top",
        "tracker",
        "view",
        "voids",
    )

    def __init__(self, view: Mapping[str, Any], rules: RuleSet | None,
                 tracker: CardTracker | None) -> None:
        self.view = view
        self.rules = rules
        self.tracker = tracker
        self.seat: int = view["seat"]
        self.n: int = view["players"]
        self.hand: list[int] = kinds(view["hand"])
        self.sizes: list[int] = list(view["hand_sizes"])
        self.d = 1 if view["direction"] == "cw" else -1
        self.nxt = (self.seat + self.d) % self.n
        self.prev = (self.seat - self.d) % self.n
        top = view.get("top")
        self.top = KIND_OF[top] if top else -1
        color = view.get("color")
        self.color = COLOR_OF[color] if color else -1
        self.pending: Pending | None = view.get("pending")
        eff = view.get("effect")
        self.lock = COLOR_OF[eff["color"]] if eff and eff.get("kind") == "forces_of_nature" \
            and eff.get("owner") != self.seat else -1
        self.colors: tuple[int, ...] = rules.deck.colors if rules else (0, 1, 2, 3)
        self.voids: list[set[int]] = [
            tracker.void_colors(s) if tracker is not None and s != self.seat else set()
            for s in range(self.n)]

    def urgency(self, seat: int) -> int:
        """0 for a comfortable hand, up to 3 for a seat about to go out."""
        return max(0, 4 - self.sizes[seat])

    def opponent(self, seat: int) -> bool:
        """Whether ``seat`` plays against this bot: with teams (HR-TEAM) a teammate is not an
        opponent; without, every other seat is."""
        rules = self.rules
        if rules is not None and rules.teams:
            return rules.team_of(seat) != rules.team_of(self.seat)
        return seat != self.seat


def _without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rem = list(hand)
    for k in cards:
        if k in rem:
            rem.remove(k)
    return rem


class HeuristicBot(BaseBot):
    """See the module docstring. ``wild_keep`` is what a wild is worth kept in hand,
    ``challenge`` scales the bluff probability needed to challenge (1 = break-even)."""

    name = "heuristic"
    wants_history = True

    def __init__(self, seed: int = 0, wild_keep: float = 1.4, challenge: float = 1.0,
                 bluff: float = 1.0) -> None:
        super().__init__(seed)
        self.wild_keep = wild_keep
        self.challenge_scale = challenge
        self.bluff_scale = bluff
        # weights of :meth:`play_value`, tuned against ``basic`` in two-player rounds
        self.w_follow = 0.35  # per card kept of the colour left in force
        self.w_void = 1.0  # that colour is one the next player lacks
        self.w_extra = 1.0  # skip, reverse, draw two: an extra turn with two players
        self.tracker: CardTracker | None = None
        self.stats = BluffStats()  # kept across rounds and seats

    # -- the bot interface -----------------------------------------------------------------------
    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Start card tracking for the round: the tracker is reset when the rules and seat are
        unchanged, rebuilt otherwise; the bluff statistics carry over."""
        super().begin_round(rules, seat)
        tr = self.tracker
        if tr is None or tr.rules != rules or tr.seat != seat:
            self.tracker = CardTracker(rules, seat, self.stats)
        else:
            tr.reset()

    def observe(self, view: Mapping[str, Any]) -> Context:
        """Read the view (and its history, when present) into a decision context."""
        if self.tracker is not None:
            self.tracker.update(view)
        return Context(view, self.rules, self.tracker)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """Choose the turn's action by :meth:`decide`; a forced move (one legal action) is still fed
        to the tracker so the history stays complete."""
        if len(legal) == 1:
            if self.tracker is not None:
                self.tracker.update(view)
            return legal[0]
        return self.decide(self.observe(view), legal, rng)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Always catch an undeclared UNO or declare its own (UNO-1, UNO-2); otherwise jump in with
        the best-valued jump-in, or decline."""
        for verb in ("catch", "uno"):
            for a in legal:
                if a.verb == verb:
                    return a
        jumps = [a for a in legal if a.verb == "jump_in"]
        if not jumps:
            return None
        ctx = self.observe(view)
        return max(jumps, key=lambda a: (self.play_value(ctx, a), a.uno))

    # -- decisions --------------------------------------------------------------------------------
    def decide(self, ctx: Context, legal: Sequence[Action], rng: random.Random) -> Action:
        """The heuristic's choice among ``legal`` (a decision context from :meth:`observe`)."""
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.verb, []).append(a)
        for verb in ("catch", "uno"):
            if verb in by:
                return by[verb][0]
        if "color" in by:
            best = self.best_color(ctx, ctx.hand, {a.color for a in by["color"]})
            return next(a for a in by["color"] if a.color == best)
        if "give" in by:
            return min(by["give"], key=lambda a: self.keep_value(ctx, a.cards[0]))
        plays = by.get("play", []) + by.get("jump_in", [])
        if "challenge" in by and self.should_challenge(ctx):
            return by["challenge"][0]
        if plays:
            best_play = self.best_play(ctx, plays)
            value = self.play_value(ctx, best_play)
            if ctx.view.get("phase") == "drawn" and "pass" in by:
                if self._keep_drawn(ctx, best_play, value):
                    return by["pass"][0]
                return best_play
            if ctx.pending or value > -2.0 or not ({"draw", "pass"} & set(by)):
                return best_play
        for verb in ("accept", "draw", "pass", "challenge"):
            if verb in by:
                return by[verb][0]
        return legal[0]

    def _keep_drawn(self, ctx: Context, play: Action, value: float) -> bool:
        """After drawing: keep a drawn wild while the hand is big and nobody is close."""
        last = play.cards[-1]
        if not IS_WILD[last] or value > 50:
            return False
        threat = max((ctx.urgency(s) for s in range(ctx.n) if ctx.opponent(s)), default=0)
        return len(ctx.hand) >= 5 and threat == 0

    def best_play(self, ctx: Context, plays: Sequence[Action]) -> Action:
        """The best play: best cards first, then its variant (colour, target, UNO flag)."""
        groups: dict[tuple[str, tuple[int, ...]], list[Action]] = {}
        for a in plays:
            groups.setdefault((a.verb, a.cards), []).append(a)
        best: Action | None = None
        best_v = -1e9
        for variants in groups.values():
            a = self._variant(ctx, variants)
            v = self.play_value(ctx, a)
            if v > best_v:
                best, best_v = a, v
        assert best is not None
        return best

    def _variant(self, ctx: Context, variants: list[Action]) -> Action:
        if len(variants) > 1:
            plain = [a for a in variants if not a.power or a.power == "color"]
            if plain:
                variants = plain
            colors = {a.color for a in variants if a.color >= 0}
            if len(colors) > 1:
                rem = _without(ctx.hand, variants[0].cards)
                c = self.best_color(ctx, rem, colors)
                variants = [a for a in variants if a.color == c]
            targets = {a.target for a in variants if a.target >= 0}
            if len(targets) > 1:
                t = self.best_target(ctx, variants[0], targets)
                variants = [a for a in variants if a.target == t]
        flagged = [a for a in variants if a.uno]
        return flagged[0] if flagged else variants[0]

    def best_color(self, ctx: Context, hand: Sequence[int], colors: set[int]) -> int:
        """The colour it holds most, preferring one the next opponent is believed to lack."""
        counts = dict.fromkeys(colors, 0.0)
        for k in hand:
            c = KCOLOR[k]
            if c in counts:
                counts[c] += 1.0 + 0.05 * POINTS[k] / 20
        nxt = ctx.nxt
        for c in counts:
            if ctx.opponent(nxt) and c in ctx.voids[nxt]:
                counts[c] += 1.5 + 0.5 * ctx.urgency(nxt)
        return max(sorted(counts), key=lambda c: counts[c])

    def best_target(self, ctx: Context, play: Action, targets: set[int]) -> int:
        """Attack-attack, look and swap aim at the opponent closest to going out; a seven swaps
        with the smallest hand."""
        opp = [t for t in targets if ctx.opponent(t)] or sorted(targets)
        return min(sorted(opp), key=lambda t: ctx.sizes[t])

    def keep_value(self, ctx: Context, k: int) -> float:
        """How much a card is worth keeping (to choose cards to give away)."""
        if IS_WILD[k]:
            return 10.0 + (2.0 if k == WILD4 else 0.0)
        same = sum(1 for x in ctx.hand if KCOLOR[x] == KCOLOR[k])
        base = 3.0 if not IS_NUMBER[k] else 1.0
        return base + 0.5 * same - 0.01 * POINTS[k]

    # -- the value of a play -----------------------------------------------------------------------
    def play_value(self, ctx: Context, a: Action) -> float:
        """Score one play (higher is better); a winning play scores 1000.

        The base ranks cards: action cards first in two-player games (extra turns), numbers
        next, wilds last (kept to escape a colour or to finish: a Wild Draw Four held to the
        end makes the last two cards one turn). On top: the cards kept of the colour it leaves
        in force, a colour the next player lacks, and pressure on a player close to going out.
        """
        rules = ctx.rules
        cs = a.cards
        last = cs[-1]
        rem = _without(ctx.hand, cs)
        rank = KRANK[last]
        if rank == DISCARD_ALL and not IS_WILD[last]:
            gone = {KCOLOR[k] for k in cs}
            rem = [k for k in rem if KCOLOR[k] not in gone]
        if not rem:
            return 1000.0
        n = ctx.n
        two = n == 2
        shed = len(ctx.hand) - len(rem)
        wild = IS_WILD[last]
        color_after = (a.color if a.color >= 0 else ctx.color) if wild else KCOLOR[last]
        follow = sum(1 for k in rem if KCOLOR[k] == color_after)
        nxt = ctx.nxt
        threat = ctx.urgency(nxt) if ctx.opponent(nxt) else 0
        v = 2.0 * shed + self.w_follow * follow
        if ctx.opponent(nxt) and color_after in ctx.voids[nxt]:
            v += self.w_void * (1.0 + 0.3 * threat)
        if wild:
            v -= self.wild_keep if len(rem) > 1 else 0.5
            if last == WILD4:
                v += 0.6 + 0.9 * threat
                if a.color >= 0 and self._is_bluff(ctx):
                    v -= self._bluff_cost(ctx, nxt)
            elif last == WILD_HYPER:
                v += 0.4 * follow
            elif last == WILD_NATURE:
                lacking = sum(1 for s in range(n) if ctx.opponent(s)
                              and color_after in ctx.voids[s])
                v += 0.8 * lacking + 0.2 * follow
            elif last == WILD_ATTACK and a.target >= 0:
                v += 0.5 + 0.8 * ctx.urgency(a.target)
            elif last == WILD and a.power in ("look", "swap"):
                v -= 1.5
        elif rank in (SKIP, REVERSE):
            if two:
                v += self.w_extra
            elif rank == SKIP or len(cs) % 2:
                if rank == SKIP:
                    v += 0.2 + 0.6 * threat
                else:
                    prev = ctx.prev
                    prev_threat = ctx.urgency(prev) if ctx.opponent(prev) else 0
                    v += 0.4 * (threat - prev_threat)
        elif rank == DRAW2:
            v += (self.w_extra + 0.2 if two else 0.6) + 0.6 * threat
        elif rank == HIT2:
            v += (self.w_extra if two else 0.6) + 0.6 * threat
        if rules is not None:
            if rules.seven_zero and not wild:
                if rank == 7 and a.target >= 0:
                    v += 1.5 * (len(rem) - ctx.sizes[a.target])
                elif rank == 0:
                    v += 1.5 * (len(rem) - ctx.sizes[ctx.prev])
            if rules.number_finish and not any(IS_NUMBER[k] for k in rem):
                v -= 2.5 if len(rem) <= 2 else 0.5
        if ctx.pending and ctx.pending.get("amount"):
            v += 3.0 + ctx.pending["amount"]  # passing a penalty on beats taking it
        return v

    def _is_bluff(self, ctx: Context) -> bool:
        """Would a Wild Draw Four now break WD4-1 (a card of the active colour in hand)?"""
        rules = ctx.rules
        if rules is not None and not rules.wd4_challenge:
            return False
        return any(KCOLOR[k] == ctx.color for k in ctx.hand if k != WILD4)

    def _bluff_cost(self, ctx: Context, nxt: int) -> float:
        """Expected cost of a bluffed W4: the chance the next seat challenges (from what it did
        before, with a cautious prior) times the four cards and the lost turn."""
        return self.bluff_scale * self.stats.p_challenged() * 12.0 + 0.5

    def should_challenge(self, ctx: Context) -> bool:
        """WD4-2: challenge when the chance of guilt beats the break-even m / (T + m)."""
        pend = ctx.pending
        tr = self.tracker
        if not pend or tr is None or tr.w4_seat < 0 or tr.w4_before < 0:
            return False
        total = int(pend.get("amount", 4))
        w4_seat = tr.w4_seat
        p_has = tr.p_holds_color(ctx.view, w4_seat, tr.w4_before)
        # a player holding the colour plays a W4 less often than one who must (bluffs are
        # rarer), by odds learnt from earlier challenges
        odds = self.stats.bluff_odds() * self.challenge_scale
        p = p_has * odds / (p_has * odds + (1.0 - p_has) + 1e-9)
        chain = max(1, total // 4)
        return p > chain / (total + chain) - 0.05


def make_heuristic(options: Mapping[str, str], seed: int) -> HeuristicBot:
    """Build a :class:`HeuristicBot` from its spec options ``wild_keep``, ``challenge`` and
    ``bluff``; an unknown or out-of-range option is an error."""
    o = Options("heuristic", options)
    wild_keep = o.get_float("wild_keep", 1.4, 0.0, 20.0)
    challenge = o.get_float("challenge", 1.0, 0.0, 10.0)
    bluff = o.get_float("bluff", 1.0, 0.0, 10.0)
    o.done()
    return HeuristicBot(seed, wild_keep=wild_keep, challenge=challenge, bluff=bluff)
