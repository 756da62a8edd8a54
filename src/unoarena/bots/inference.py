"""What one seat can infer about the cards it cannot see, from its own view and history.

Search bots must never read another hand, yet they play much better when they remember what
the table showed: which cards lie in the discard pile (so they are not in anyone's hand), which
cards were shown to them (a challenged hand, a wild power's look, a swap), and which cards an
opponent cannot hold because it drew when it had to (an opponent who draws on red holds no red,
no card of the top's rank and no wild, or it would have played one).

:class:`CardTracker` reads the events of ``view["history"]`` (``Game.view(seat, history=True)``)
incrementally and keeps, per other seat, the cards known to be in its hand and *slot groups*:
``[count, excluded kinds]``, the unknown cards it holds, each group with the kinds it is
believed not to hold. A draw adds a group with no exclusions, because a newly drawn card can be
anything; a forced draw adds its exclusions to the older groups only. It also keeps each
opponent's recent plain plays (:class:`Trace`: the table, the card, the colour a wild named,
what the hand did since): players pick the card whose colour they hold most and name their
longest colour, so a play says something about the rest of the hand.
:meth:`CardTracker.hidden_layout` turns this into a :class:`Layout`, whose :meth:`Layout.draw`
deals full, consistent guesses of every hidden card, weighed by how well each explains those
plays: the determinizations that information-set search plays out. Everything here is derived
from the view alone.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import CODES, COLOR_CODES, Event, RuleSet
from ..engine.cards import DRAW2, IS_WILD, KCOLOR, KRANK, NCOLORED, NKINDS, WILD4

KIND_OF: dict[str, int] = {c: k for k, c in enumerate(CODES)}
COLOR_OF: dict[str, int] = {c: i for i, c in enumerate(COLOR_CODES)}


def kinds(codes: Sequence[str]) -> list[int]:
    """Card codes (as views and events give them) to kinds."""
    return [KIND_OF[c] for c in codes]


class BluffStats:
    """What the table showed about bluffing, kept across rounds by the bot that owns it:
    how opponents answered this seat's Wild Draw Fours, and how often a challenged opponent's
    Wild Draw Four was a bluff."""

    __slots__ = ("guilty", "innocent", "their_accepts", "their_challenges")

    def __init__(self) -> None:
        self.their_challenges = 0
        self.their_accepts = 0
        self.guilty = 0
        self.innocent = 0

    def p_challenged(self) -> float:
        """Chance an opponent challenges this seat's W4 (Beta(1, 1) prior)."""
        return (self.their_challenges + 1.0) / (self.their_challenges + self.their_accepts + 2.0)

    def bluff_odds(self) -> float:
        """How much likelier a W4 is from a hand holding the previous colour than from one
        without it, estimated from challenge results (prior 0.5: bluffs are rarer)."""
        r = (self.guilty + 2.0) / (self.guilty + self.innocent + 3.0)
        return r / (4.0 * (1.0 - r))


class Group:
    """``count`` unknown cards of one hand, none of whose kinds is in ``excl`` (known from a
    forced draw) and, most likely, none in ``soft`` (suggested by a wild played when a coloured
    card would have done: players keep their wilds)."""

    __slots__ = ("both", "count", "excl", "soft")

    def __init__(self, count: int, excl: frozenset[int] = frozenset(),
                 soft: frozenset[int] = frozenset()) -> None:
        self.count = count
        self.excl = excl
        self.soft = soft - excl
        self.both = excl | soft

    def __repr__(self) -> str:
        return (f"Group({self.count}, {sorted(CODES[k] for k in self.excl)}, "
                f"soft={sorted(CODES[k] for k in self.soft)})")


class CardTracker:
    """Card knowledge of ``seat`` in the current round (see the module docstring)."""

    def __init__(self, rules: RuleSet, seat: int, stats: BluffStats | None = None) -> None:
        self.rules = rules
        self.seat = seat
        self.n = rules.players
        self.deck_counts = rules.deck.counts
        self._done = 0  # history events processed
        self._last: Event | None = None  # the last event processed (to notice a new round)
        self._fresh()
        self.stats = stats if stats is not None else BluffStats()

    def _fresh(self) -> None:
        n = self.n
        self.discard: list[int] = []
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.groups: list[list[Group]] = [[] for _ in range(n)]
        self.top = -1
        self.color = -1
        self.lock_color = -1
        self.lock_owner = -1
        self.my_hand: list[int] = []
        self.named = [-1] * n  # colour a seat named with its last play, a wild (it holds some)
        # per seat, its recent plain plays: evidence of what else it held (see :class:`Trace`)
        self.trail: list[list[Trace]] = [[] for _ in range(n)]
        self.w4_before = -1  # colour in force before the last W4 was played
        self.w4_seat = -1
        self._penalty_presses = 0
        self._drawn_group: tuple[int, Group] | None = None  # a turn draw not yet resolved
        # per seat, the cards it played by colour (wilds last) and its draws on its turn: what
        # learned inference (:mod:`~unoarena.bots.belief`) reads beside the groups
        self.played = [[0] * 6 for _ in range(n)]
        self.turn_draws = [0] * n

    def reset(self) -> None:
        """Forget the round (keep cross-round statistics)."""
        self._done = 0
        self._last = None
        self._fresh()

    # -- reading the history -----------------------------------------------------------------
    def update(self, view: Mapping[str, Any]) -> bool:
        """Read the events not yet seen; False when the view carries no history."""
        hist: list[Event] | None = view.get("history")
        if hist is None:
            self.my_hand = kinds(view["hand"])
            return False
        done = self._done
        if len(hist) < done or (done and hist[done - 1] != self._last):
            self.reset()  # another round: start again from its first event
            done = 0
        for e in hist[done:]:
            self._event(e)
        self._done = len(hist)
        self._last = hist[-1] if hist else None
        self.my_hand = kinds(view["hand"])
        top, color = view.get("top"), view.get("color")
        if top:  # the view is the truth about the table now (a history may start mid-round)
            self.top = KIND_OF[top]
        if color:
            self.color = COLOR_OF[color]
        return True

    def _event(self, e: Event) -> None:
        t = e.get("t")
        me = self.seat
        drawn = self._drawn_group
        if drawn is not None and t not in ("drew", "draw", "press"):
            self._drawn_group = None
            s, g = drawn
            if e.get("seat") == s and t in ("play", "pass"):
                if t == "pass":
                    g.excl = frozenset()  # kept a playable card
                elif g.count and g in self.groups[s]:
                    g.count -= 1  # played the drawn card
                    if not g.count:
                        self.groups[s].remove(g)
                    self._play(e, skip_first=True)
                    return
        if t == "deal":
            self._fresh()
            for s in range(self.n):
                if s != me:
                    self.groups[s] = [Group(e.get("hand_size", self.rules.hand_size))]
        elif t == "starter":
            k = KIND_OF[e["card"]]
            self.discard.append(k)
            self.top = k
            self.color = KCOLOR[k]
        elif t == "color":
            self.color = COLOR_OF[e["color"]]
        elif t == "play":
            self._play(e)
        elif t == "draw":
            self._drew(e["seat"], e.get("count", 0), e.get("reason") == "turn")
        elif t == "penalty":
            self._penalty_presses = e.get("presses", 0)
        elif t == "press":
            turn = self._penalty_presses == 0
            if not turn:
                self._penalty_presses -= 1
            self._drew(e["seat"], e.get("count", 0), turn)
        elif t == "drew" and e.get("to") == me:
            self.my_hand.extend(kinds(e["cards"]))
        elif t == "reshuffle":
            self.discard = [self.discard[-1]] if self.discard else []
        elif t == "hand_shown":
            s = e["seat"]
            if s != me:
                self.trail[s] = []
                self.known[s] = kinds(e["cards"])
                self.groups[s] = []
        elif t == "misplay":
            s = e["seat"]
            if s != me:
                self.trail[s] = []
                for k in kinds(e["cards"]):
                    self._remove(s, k)
                    self.known[s].append(k)
        elif t == "effect":
            if e.get("kind") == "forces_of_nature":
                self.lock_color = COLOR_OF[e["color"]]
                self.lock_owner = e.get("owner", -1)
        elif t == "effect_end":
            if e.get("kind") == "forces_of_nature":
                self.lock_color = self.lock_owner = -1
        elif t in ("challenge", "accept"):
            if self.w4_seat == me and e.get("seat") != me:
                if t == "challenge":
                    self.stats.their_challenges += 1
                else:
                    self.stats.their_accepts += 1
        elif t == "challenge_result":
            if self.w4_seat != me:
                if e.get("guilty"):
                    self.stats.guilty += 1
                else:
                    self.stats.innocent += 1
        elif t in ("swap_hands", "rotate_hands", "swap_taken", "give"):
            self.trail = [[] for _ in range(self.n)]
        if t == "swap_hands":
            self._swap(e["seat"], e["target"])
        elif t == "rotate_hands":
            self._rotate(1 if e.get("direction") == "cw" else -1)
        elif t == "give" and e.get("to") == me:
            # someone gives this seat a card (wild power swap): it left their hand
            for k in kinds(e.get("cards", [])):
                self._remove(e["seat"], k)
        elif t == "swap_taken":
            s, tg, cnt = e["seat"], e["target"], e.get("count", 0)
            for who in (s, tg):
                if who != me:
                    self._forget(who)
            if s != me:
                self.groups[s].append(Group(cnt))
        elif t == "swap_cards" and e.get("to") == me and e.get("seat") == me:
            pass  # the cards are in this seat's hand; the view says so

    def _play(self, e: Event, skip_first: bool = False) -> None:
        s = e["seat"]
        cards = kinds(e["cards"])
        gone = kinds(e.get("discarded", []))
        last = cards[-1]
        if IS_WILD[last] and last != WILD4 and s != self.seat and self.top >= 0 \
                and not skip_first:
            # a wild played on a table where a coloured card would fit: the player most
            # likely held none (the W4 is left out: its guilt is weighed when challenging)
            soft = frozenset(k for k in self._playable_kinds(s) if not IS_WILD[k])
            self.groups[s] = [Group(g.count, g.excl, g.soft | soft) for g in self.groups[s]]
        if last == WILD4:
            self.w4_before = self.color
            self.w4_seat = s
        if s != self.seat:
            left = (cards[1:] if skip_first else cards) + gone
            played = self.played[s]
            for k in cards + gone:
                played[KCOLOR[k]] += 1
            trail = self.trail[s]
            for tr in trail:
                tr.after.extend(left)
            plain = len(cards) == 1 and not gone and not skip_first and self.top >= 0 \
                and self.color >= 0 and self.lock_color < 0 and not e.get("target") \
                and not e.get("power")
            if plain:
                named = COLOR_OF[e["color"]] if IS_WILD[last] and e.get("color") else -1
                trail.append(Trace(self.top, self.color, last, named))
                if len(trail) > Trace.KEEP:
                    del trail[0]
        self.discard.extend(gone)
        self.discard.extend(cards)
        self.top = last
        self.color = COLOR_OF[e["color"]] if e.get("color") else KCOLOR[last]
        self.named[s] = self.color if IS_WILD[last] and not e.get("power") else -1
        if s != self.seat:
            for k in (cards[1:] if skip_first else cards) + gone:
                self._remove(s, k)
        else:
            for k in cards + gone:
                if k in self.my_hand:
                    self.my_hand.remove(k)

    def _playable_kinds(self, seat: int) -> frozenset[int]:
        """Kinds ``seat`` could have played on the current table (TURN-1, FRZ-1)."""
        counts = self.deck_counts
        if self.lock_color >= 0 and seat != self.lock_owner:
            return frozenset(k for k in range(NCOLORED)
                             if counts[k] and KCOLOR[k] == self.lock_color)
        top_rank = KRANK[self.top] if 0 <= self.top < NCOLORED else -1
        return frozenset(k for k in range(NKINDS) if counts[k] and (
            IS_WILD[k] or KCOLOR[k] == self.color or KRANK[k] == top_rank))

    def _drew(self, s: int, count: int, turn: bool) -> None:
        if s == self.seat or s < 0:
            return
        if count:
            for tr in self.trail[s]:
                tr.draws += count
        if turn:
            self.turn_draws[s] += 1
        if turn and self.top >= 0:
            # a seat that draws on its turn had nothing to play (bots never draw by choice);
            # the drawn card is unplayable too unless it is played (or kept, a pass) at once
            excl = self._playable_kinds(s)
            self.groups[s] = [Group(g.count, g.excl | excl, g.soft) for g in self.groups[s]]
            if self.rules.draw_count == "until_playable" and count > 1:
                self.groups[s].append(Group(count - 1, excl))
                count = 1
            if count > 0:
                g = Group(count, excl)
                self.groups[s].append(g)
                self._drawn_group = (s, g)
            return
        if count > 0:
            self.groups[s].append(Group(count))

    def _remove(self, s: int, k: int) -> None:
        """Card ``k`` left seat ``s``'s hand: a known card, else a slot that may hold it."""
        known = self.known[s]
        if k in known:
            known.remove(k)
            return
        groups = self.groups[s]
        best = None
        for g in groups:  # the most constrained group that may hold k (conservative)
            if g.count and k not in g.excl and (best is None or len(g.excl) > len(best.excl)):
                best = g
        if best is None:
            best = next((g for g in reversed(groups) if g.count), None)
        if best is not None:
            best.count -= 1
            if not best.count:
                groups.remove(best)

    def _forget(self, s: int) -> None:
        size = len(self.known[s]) + sum(g.count for g in self.groups[s])
        self.known[s] = []
        self.groups[s] = [Group(size)] if size else []

    def _swap(self, a: int, b: int) -> None:
        me = self.seat
        self.known[a], self.known[b] = self.known[b], self.known[a]
        self.groups[a], self.groups[b] = self.groups[b], self.groups[a]
        other = b if a == me else a if b == me else -1
        if other >= 0:
            # this seat's hand (as it was) went to ``other``; its old hand is now ours
            self.known[other] = list(self.my_hand)
            self.groups[other] = []
            self.known[me], self.groups[me] = [], []
            self.my_hand = []

    def _rotate(self, d: int) -> None:
        n, me = self.n, self.seat
        known = [self.known[(s - d) % n] for s in range(n)]
        groups = [self.groups[(s - d) % n] for s in range(n)]
        nxt = (me + d) % n
        known[nxt], groups[nxt] = list(self.my_hand), []
        known[me], groups[me] = [], []
        self.known, self.groups = known, groups
        self.my_hand = []

    # -- what follows from it ---------------------------------------------------------------
    def unseen(self, view: Mapping[str, Any]) -> list[int]:
        """Cards this seat has not seen: the deck minus its hand minus the known discard pile
        (the cards other hands and the draw pile hold, plus any discard cards not tracked)."""
        counts = list(self.deck_counts)
        for k in kinds(view["hand"]):
            counts[k] -= 1
        for k in self.discard:
            counts[k] -= 1
        out: list[int] = []
        for k, c in enumerate(counts):
            if c > 0:
                out.extend([k] * c)
        return out

    def hidden_layout(self, view: Mapping[str, Any]) -> Layout:
        """Everything :meth:`sample` needs for this decision, computed once per move."""
        n, me = self.n, self.seat
        sizes = view["hand_sizes"]
        pool = self.unseen(view)
        cnt = [0] * NKINDS
        for k in pool:
            cnt[k] += 1
        known: list[list[int]] = [[] for _ in range(n)]
        groups: list[list[Group]] = [[] for _ in range(n)]
        for s in range(n):
            if s == me:
                continue
            size = sizes[s]
            kn: list[int] = []
            for k in self.known[s]:
                if cnt[k] > 0 and len(kn) < size:
                    cnt[k] -= 1
                    kn.append(k)
            known[s] = kn
            free = size - len(kn)
            gs: list[Group] = []
            # newest groups are the surest to exist; older ones absorb any miscount
            for g in reversed(self.groups[s]):
                take = min(g.count, free)
                if take > 0:
                    gs.append(Group(take, g.excl, g.soft))
                    free -= take
            if free > 0:
                gs.append(Group(free))
            gs.sort(key=lambda g: -len(g.excl))
            groups[s] = gs
        rest: list[int] = []
        for k, c in enumerate(cnt):
            if c > 0:
                rest.extend([k] * c)
        extra_discard = max(0, view["discard_size"] - len(self.discard))
        order = sorted((s for s in range(n) if s != me),
                       key=lambda s: -sum(len(g.excl) * g.count for g in groups[s]))
        named = [c if s != me else -1 for s, c in enumerate(self.named)]
        lay = Layout(me, order, known, groups, rest, extra_discard, list(self.discard), named)
        lay.evidence = [(s, tr) for s in range(n) if s != me and sizes[s] > 0
                        for tr in self.trail[s] if tr.draws <= Trace.MAX_DRAWS]
        lay.two = n == 2
        return lay

    def p_holds_color(self, view: Mapping[str, Any], seat: int, color: int) -> float:
        """Probability that ``seat`` holds a card of ``color`` (slots treated as independent)."""
        lay = self.hidden_layout(view)
        if any(KCOLOR[k] == color for k in lay.known[seat]):
            return 1.0
        pool = lay.pool
        p_none = 1.0
        for g in lay.groups[seat]:
            avail = [k for k in pool if k not in g.excl]
            if not avail:
                continue
            q = sum(1 for k in avail if KCOLOR[k] == color) / len(avail)
            p_none *= (1.0 - q) ** g.count
        return 1.0 - p_none

    def void_colors(self, seat: int) -> set[int]:
        """Colours every unknown card of ``seat`` is believed not to be (no known card of them
        either): naming one of these forces that seat to draw."""
        groups = self.groups[seat]
        if not groups:
            return set()
        out = set()
        for c in self.rules.deck.colors:
            ks = [k for k in range(NCOLORED) if self.deck_counts[k] and KCOLOR[k] == c]
            if all(all(k in g.excl for k in ks) for g in groups) and not any(
                    KCOLOR[k] == c for k in self.known[seat]):
                out.add(c)
        return out


class Trace:
    """One plain play of an opponent, kept as evidence of the rest of its hand: the table it
    was played on, the card, the colour it named (a wild), and what the hand did since (cards
    played after it, to put back; cards drawn since, which blur it)."""

    __slots__ = ("after", "color", "draws", "named", "played", "top")

    #: Plays kept per seat, and the most cards drawn since a play for it to still count.
    KEEP = 6
    MAX_DRAWS = 2

    def __init__(self, top: int, color: int, played: int, named: int) -> None:
        self.top = top
        self.color = color
        self.played = played
        self.named = named
        self.after: list[int] = []
        self.draws = 0

    def likelihood(self, hand: Sequence[int], two: bool, temperature: float) -> float:
        """How likely this play (and its named colour) was from ``hand``, the seat's hand now."""
        held = list(hand)
        held.extend(self.after)
        t = temperature * (1.0 + 0.5 * self.draws)
        w = play_likelihood(held, self.top, self.color, self.played, two, t)
        if self.named >= 0:
            w *= named_likelihood(held, self.named, t)
        return w


Deal = tuple[dict[int, list[int]], list[int], list[int]]  # hands, extra discard, the rest


class Layout:
    """The hidden cards of one decision: who holds how many of which kinds, and the pool."""

    __slots__ = ("_bank", "_believed", "belief", "discard", "evidence", "extra_discard",
                 "groups", "known", "me", "named", "order", "pool", "two")

    #: How often a sample honours "a seat that named a colour with a wild holds that colour"
    #: (bots name the colour they hold most; people mostly do too).
    NAMED_TRUST = 0.8
    #: How often a sample honours a group's soft exclusions (see :class:`Group`).
    SOFT_TRUST = 0.8
    #: Candidate deals weighed once per layout, and the temperature of the play model that
    #: weighs them (see :meth:`draw`).
    CANDIDATES = 256
    TEMPERATURE = 0.5

    def __init__(self, me: int, order: list[int], known: list[list[int]],
                 groups: list[list[Group]], pool: list[int], extra_discard: int,
                 discard: list[int], named: list[int] | None = None) -> None:
        self.me = me
        self.order = order  # other seats, most constrained first
        self.known = known
        self.groups = groups
        self.pool = pool  # unseen cards not known to be in a hand, sorted by kind
        self.extra_discard = extra_discard  # discard cards the history did not show
        self.discard = discard
        self.named = named or [-1] * len(known)
        self.evidence: list[tuple[int, Trace]] = []  # seat, one of its plays
        self.two = False
        # learned beliefs (:class:`~unoarena.bots.belief.Belief`): when set, :meth:`draw` weighs
        # deals by them instead of by ``evidence``
        self.belief: Any = None
        self._believed: Any = None  # the deals sampled from ``belief`` (a Bank)
        self._bank: tuple[list[Deal], list[float]] | None = None

    def sample(self, rng: random.Random, *, hard_only: bool = False) -> Deal:
        """A random deal of the hidden cards consistent with what is known: per other seat its
        hand, then cards of the discard pile the history did not show, then the rest (the draw
        pile's cards, in no particular order). Each unknown card is drawn uniformly from the
        pool cards its group allows (all of them when none is allowed). ``hard_only`` ignores
        the soft exclusions and named colours (a proposal that other evidence reweighs).
        Depends only on the layout and ``rng``."""
        pool = list(self.pool)
        rand = rng.random
        soft_trust = 0.0 if hard_only else self.SOFT_TRUST
        named_trust = 0.0 if hard_only else self.NAMED_TRUST
        hands: dict[int, list[int]] = {}
        for s in self.order:
            hand = list(self.known[s])
            for g in self.groups[s]:
                excl = g.both if g.soft and rand() < soft_trust else g.excl
                for _ in range(g.count):
                    if not pool:
                        break
                    j = int(rand() * len(pool))
                    if excl and pool[j] in excl:
                        for _try in range(12):  # rejection first: cheap when most cards fit
                            j = int(rand() * len(pool))
                            if pool[j] not in excl:
                                break
                        else:
                            ok = [i for i, k in enumerate(pool) if k not in excl]
                            if ok:
                                j = ok[int(rand() * len(ok))]
                    hand.append(pool[j])
                    pool[j] = pool[-1]
                    pool.pop()
            c = self.named[s]
            nk = len(self.known[s])
            if c >= 0 and len(hand) > nk and not any(KCOLOR[k] == c for k in hand) \
                    and rand() < named_trust:
                ok = [i for i, k in enumerate(pool) if KCOLOR[k] == c]
                if ok:
                    j = ok[int(rand() * len(ok))]
                    i = nk + int(rand() * (len(hand) - nk))
                    hand[i], pool[j] = pool[j], hand[i]
            hands[s] = hand
        extra: list[int] = []
        for _ in range(min(self.extra_discard, len(pool))):
            j = int(rand() * len(pool))
            extra.append(pool[j])
            pool[j] = pool[-1]
            pool.pop()
        return hands, extra, pool

    def draw(self, rng: random.Random) -> Deal:
        """Like :meth:`sample`, but when opponents' recent plays say something about what else
        they held, deals are drawn by how likely each makes those plays under a model of
        sensible play (:meth:`Trace.likelihood`): sampling-importance-resampling from
        ``CANDIDATES`` deals weighed once, on the first call (a search draws hundreds of
        deals per decision; weighing a fresh handful for each measured no better)."""
        if self.belief is not None:
            return self._draw_believed(rng)
        if not self.evidence:
            return self.sample(rng)
        bank = self._bank
        if bank is None:
            cands = [self.sample(rng) for _ in range(self.CANDIDATES)]
            acc: list[float] = []
            total = 0.0
            two, temp = self.two, self.TEMPERATURE
            for hands, _extra, _pile in cands:
                w = 1.0
                for s, tr in self.evidence:
                    w *= tr.likelihood(hands[s], two, temp)
                total += w
                acc.append(total)
            bank = self._bank = (cands, acc)
        cands, acc = bank
        if not acc[-1] > 0.0:  # every deal judged impossible (underflow): trust none of it
            return cands[int(rng.random() * len(cands))]
        i = bisect.bisect_right(acc, rng.random() * acc[-1])
        return cands[min(i, len(cands) - 1)]


    def _draw_believed(self, rng: random.Random) -> Deal:
        """:meth:`draw` under learned beliefs: the bank holds ``CANDIDATES`` deals sampled
        from them (:meth:`~unoarena.bots.belief.Belief.deals`), drawn from uniformly."""
        bank = self._believed
        if bank is None:
            bank = self._believed = self.belief.deals(self, self.CANDIDATES,
                                                      rng.getrandbits(63))
        deal: Deal = bank.deal(int(rng.random() * bank.size))
        return deal


def play_likelihood(hand: Sequence[int], top: int, color: int, played: int, two: bool,
                    temperature: float) -> float:
    """How likely a player holding ``hand`` (after the play) plus ``played`` was to play
    ``played`` on ``top``/``color``, under a soft-max over a simple preference: action cards
    first (two players), numbers, wilds last, the colour it holds most."""
    before = list(hand)
    before.append(played)
    counts = [0, 0, 0, 0, 0, 0]
    for k in before:
        counts[KCOLOR[k]] += 1
    top_rank = KRANK[top]
    best_count = max(counts[:5])
    total = 0.0
    mine = 0.0
    for k in set(before):
        c = KCOLOR[k]
        if c < 0:
            v = (1.2 if k == WILD4 else 0.6) + 0.35 * best_count
        elif c == color or KRANK[k] == top_rank:
            r = KRANK[k]
            v = 2.0 if r <= 9 else (3.0 if two else 2.2) + (0.2 if r == DRAW2 else 0.0)
            v += 0.35 * counts[c]
        else:
            continue
        e = math.exp(v / temperature)
        total += e
        if k == played:
            mine = e
    return mine / total if total else 1.0


def named_likelihood(hand: Sequence[int], named: int, temperature: float) -> float:
    """How likely a player left with ``hand`` was to name ``named`` for its wild, under a
    soft-max over how many cards of each colour it holds (players name their longest)."""
    counts = [0, 0, 0, 0, 0, 0]
    for k in hand:
        counts[KCOLOR[k]] += 1
    total = 0.0
    for c in range(4):
        total += math.exp(counts[c] / temperature)
    return math.exp(counts[named] / temperature) / total if 0 <= named < 4 else 1.0
