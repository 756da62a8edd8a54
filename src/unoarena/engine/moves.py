"""Legal actions: which action ids a seat may take now (TURN-1 matching and every rule's plays).

Two play generators give the same ids: a fast one for rule sets whose plays are one card with
no target and no finish rule (a shared table per top rank and colour: ``State.rows``), and a
general one for everything else (``State.simple`` chooses; ``tests/test_moves.py`` checks that
they agree). Ids come sorted, so bots and records never depend on generation order.
"""

from __future__ import annotations

import itertools

from .actions import Action, alone
from .cards import (
    DISCARD_ALL,
    DRAW2,
    HIT2,
    IS_NUMBER,
    IS_WILD,
    KCOLOR,
    KRANK,
    NCOLORED,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    kind_of,
)
from .state import COLOR, DRAWN, E_LOCK, GIVE, OVER, P_D2, P_H2, P_W4, P_WA, PLAY, State


def legal_ids(s: State, seat: int) -> list[int]:
    """Integer ids of every action the seat may take now (empty if it may not act)."""
    if s.phase == OVER:
        return []
    out: list[int] = []
    if seat == s.turn:
        turn_ids(s, seat, out)
    if s.exposed >= 0 or s.jump:
        window_ids(s, seat, out)
    out.sort()  # canonical order: bots and records do not depend on generation order
    return out


def window_seats(s: State) -> list[int]:
    """Seats other than the turn seat with an open window, from the last actor's left."""
    if s.phase == OVER:
        return []
    n = s.n
    start = s.last if s.last >= 0 else s.turn
    out = []
    for i in range(1, n + 1):
        seat = (start + i) % n
        if seat != s.turn:
            buf: list[int] = []
            window_ids(s, seat, buf)
            if buf:
                out.append(seat)
    return out


def window_ids(s: State, seat: int, out: list[int]) -> None:
    """Out-of-turn actions (DIG-3): UNO, catch, jump-in."""
    sp = s.space
    ex = s.exposed
    if ex >= 0:
        if ex == seat:
            out.append(sp.uno)
        else:
            out.append(sp.catch0 + ex)
    if s.jump and seat != s.last:
        if seat != s.turn:
            jump_ids(s, seat, out, False)
        elif s.phase == PLAY and not s.pend:
            jump_ids(s, seat, out, True)


def jump_ids(s: State, seat: int, out: list[int], sums_only: bool) -> None:
    """HR-JUMP and HR-SUM: plays out of turn on the card just played. The turn seat
    (``sums_only``) plays an identical card as its turn's play, but may make a sum play: 003
    五(五) lets any player do so on a number just played."""
    rules, sp = s.rules, s.space
    hand = s.hands[seat]
    top = s.discard[-1]
    if IS_WILD[top]:
        return
    lock = s.effect == E_LOCK and seat != s.eowner
    tops = {top, *s.alt}
    if rules.jump_in and not sums_only:
        for k in tops:
            if k in hand and (not lock or KCOLOR[k] == s.ecolor):
                if rules.seven_zero and KRANK[k] == 7:  # HR-SEVEN-ZERO: a 7 names a seat
                    base = sp.index[Action("jump_in", (k,), target=0)]
                    for t in range(s.n):
                        if t != seat:
                            add_play(s, base + 2 * t, seat, (k,), out)
                else:
                    add_play(s, sp.index[Action("jump_in", (k,))], seat, (k,), out)
    if rules.sum_jump_in != "off" and IS_NUMBER[top]:
        target_num = KRANK[top]
        same = rules.sum_jump_in == "same_color"
        for cs in sum_options(s, hand, target_num, KCOLOR[top] if same else -1):
            if lock and KCOLOR[cs[0]] != s.ecolor:
                continue
            aid = sp.index.get(Action("jump_in", cs))
            if aid is not None:  # no set with a 7 or a 0 under seven-zero (actions.alone)
                add_play(s, aid, seat, cs, out, pair=False)


def sum_options(s: State, hand: list[int], total: int, color: int) -> list[tuple[int, ...]]:
    """HR-SUM: sets of two or more same-coloured numbers from ``hand`` adding up to ``total``."""
    out: list[tuple[int, ...]] = []
    colors = [color] if color >= 0 else list(s.rules.deck.colors)
    for c in colors:
        counts = [hand.count(kind_of(c, r)) for r in range(10)]
        res: list[tuple[int, ...]] = []

        def rec(r: int, acc: list[int], got: int, counts: list[int] = counts,
                res: list[tuple[int, ...]] = res, c: int = c) -> None:
            if got == total and len(acc) >= 2:
                res.append(tuple(kind_of(c, x) for x in acc))
            if r > 9 or got > total:
                return
            for take in range(counts[r] + 1):
                if got + r * take > total:
                    break
                if take:
                    rec(r + 1, acc + [r] * take, got + r * take)
                else:
                    rec(r + 1, acc, got)

        rec(0, [], 0)
        out += [t for t in dict.fromkeys(res) if sum(KRANK[k] for k in t) == total]
    return out


def add_play(s: State, aid: int, seat: int, cards: tuple[int, ...], out: list[int], *,
             pair: bool = True) -> None:
    """Add a play and its UNO-flagged twin where it leaves one card (none under HR-SILENT);
    refuse empty-hand plays that break number finish (HR-NUMFIN, ATK-6), HR-DOUBLE's UNO rule
    or HR-WILDFIN (no wild last). ``pair``: whether two identical cards make a double play here
    (a sum jump-in of two equal numbers is not one: HR-SUM lets it go out without a
    declaration)."""
    left = len(s.hands[seat]) - len(cards)
    if KRANK[cards[-1]] == DISCARD_ALL:  # ATK-7: the colour's other cards go too
        gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
        left = sum(1 for k in s.hands[seat] if KCOLOR[k] not in gone)
    if left == 0:
        if s.rules.number_finish and not IS_NUMBER[cards[-1]] \
                and cards[-1] != WILD_ATTACK:
            return
        if s.rules.no_wild_finish and IS_WILD[cards[-1]]:  # HR-WILDFIN: draw instead
            return
        if pair and s.rules.double_play and len(cards) == 2 and cards[0] == cards[1] \
                and not s.rules.silent_uno:
            out.append(aid + 1)  # HR-DOUBLE: both at once only with UNO declared
            return
        out.append(aid)
        return
    out.append(aid)
    if left == 1 and not s.rules.silent_uno:
        out.append(aid + 1)


def matches(s: State, k: int, seat: int) -> bool:
    """TURN-1 matching, with the Forces of Nature lock (FRZ-1)."""
    if s.effect == E_LOCK and seat != s.eowner:
        return KCOLOR[k] == s.ecolor
    if IS_WILD[k]:
        return True
    if KCOLOR[k] == s.color:
        return True
    r = KRANK[k]
    return r == KRANK[s.discard[-1]] or (bool(s.alt) and r in
                                              {KRANK[a] for a in s.alt})


def w4_ok(s: State, hand: list[int]) -> bool:
    """WD4-1: no card of the active colour in hand (matching symbols do not count)."""
    color = s.color
    return all(KCOLOR[k] != color for k in hand)


def turn_ids(s: State, seat: int, out: list[int]) -> None:
    """The turn seat's actions in its phase."""
    phase = s.phase
    sp = s.space
    if phase == PLAY:
        if s.pend:
            answer_ids(s, seat, out)
            return
        before = len(out)
        play_ids(s, seat, s.hands[seat], out)
        if not (s.rules.force_play and len(out) > before):  # HR-FORCE: no draw beside a play
            out.append(sp.draw)
    elif phase == DRAWN:
        before = len(out)
        play_ids(s, seat, s.drawn, out)
        if not (s.rules.forced_draw_play and len(out) > before):  # HR-DRAWPLAY: no keeping
            out.append(sp.pass_)
    elif phase == COLOR:
        out.extend(range(sp.color0, sp.color0 + len(s.rules.deck.colors)))
    elif phase == GIVE:
        for k in sorted(set(s.hands[seat])):
            out.append(sp.index[Action("give", (k,))])


def play_ids(s: State, seat: int, cards: list[int], out: list[int]) -> None:
    """Every legal play from ``cards`` (the hand, or the drawn cards)."""
    if s.simple and s.effect != E_LOCK:
        # the common case: one card at a time, no targets, no finish rule; the ids of
        # each kind's plays on this top and colour come from a shared table
        key = s.color * 32 + KRANK[s.discard[-1]]
        row = s.rows.get(key) or build_row(s, key)
        uno = len(s.hands[seat]) == 2 and not s.rules.silent_uno
        for k in set(cards):
            ids = row[k]
            if ids:
                if k == WILD4 and s.w4_strict and not w4_ok(s, s.hands[seat]):
                    continue
                out.extend(ids)
                if uno:
                    out.extend([i + 1 for i in ids])
        return
    rules, sp = s.rules, s.space
    hand = s.hands[seat]
    lock = s.effect == E_LOCK and seat != s.eowner
    color = s.color
    top_rank = KRANK[s.discard[-1]]
    alt = {KRANK[a] for a in s.alt} if s.alt else None
    play1 = sp.play1
    n = s.n
    for k in set(cards):
        if lock:
            if KCOLOR[k] != s.ecolor:
                continue
        elif not (IS_WILD[k] or KCOLOR[k] == color or KRANK[k] == top_rank
                  or (alt is not None and KRANK[k] in alt)):
            continue
        if k < NCOLORED:
            r = KRANK[k]
            if r == DISCARD_ALL and not da_ok(hand, (k,)):
                continue
            if r == 7 and rules.seven_zero:
                base = sp.index[Action("play", (k,), target=0)]
                for t in range(n):
                    if t != seat:
                        add_play(s, base + 2 * t, seat, (k,), out)
            else:
                add_play(s, play1[k], seat, (k,), out)
            if rules.double_play and hand.count(k) >= 2 and cards is hand \
                    and not alone(rules, k):
                add_play(s, sp.index[Action("play", (k, k))], seat, (k, k), out)
            if (rules.multi_play or (rules.same_number_play and IS_NUMBER[k])) \
                    and cards is hand and not alone(rules, k):
                multi_ids(s, seat, k, out, lock)
        else:
            if k == WILD4 and rules.w4_rule == "restricted" and not rules.wd4_challenge \
                    and not w4_ok(s, hand):
                continue
            wid = s.space.wild[k]
            last = len(hand) == 1
            if k == WILD_ATTACK:
                for c in rules.deck.colors:
                    base = sp.index[Action("play", (k,), color=c, target=0)]
                    for t in range(n):
                        if t != seat:
                            add_play(s, base + 2 * t, seat, (k,), out)
                continue
            for c in rules.deck.colors:
                add_play(s, wid[c], seat, (k,), out)
            if k == WILD and rules.wild_powers and not last:
                for p in ("look", "swap"):
                    base = sp.index[Action("play", (k,), target=0, power=p)]
                    for t in range(n):
                        if t != seat:
                            add_play(s, base + 2 * t, seat, (k,), out)


def build_row(s: State, key: int) -> tuple[tuple[int, ...], ...]:
    """Per kind, the ids of its plays (without UNO) on a top rank and active colour."""
    color, top_rank = divmod(key, 32)
    sp = s.space
    row: list[tuple[int, ...]] = []
    for k in range(len(s.rules.deck.counts)):
        if not s.rules.deck.counts[k]:
            row.append(())
        elif k < NCOLORED:
            row.append((sp.play1[k],) if KCOLOR[k] == color or KRANK[k] == top_rank
                       else ())
        else:
            row.append(tuple(i for i in sp.wild[k] if i >= 0))
    s.rows[key] = t = tuple(row)
    return t


def da_ok(hand: list[int], cards: tuple[int, ...]) -> bool:
    """ATK-7: a discard-all may not empty the hand."""
    gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
    left = list(hand)
    for k in cards:
        left.remove(k)
    return any(KCOLOR[k] not in gone for k in left)


def multi_ids(s: State, seat: int, first: int, out: list[int], lock: bool) -> None:
    """ATK-4 plays starting with ``first``: same number and colour, or same action rank;
    HR-SAMENUM: numbers of one number in any colours. Under a Forces of Nature ``lock``
    (FRZ-1) every card of the set has the locked colour, not only the first."""
    hand = s.hands[seat]
    sp = s.space
    if IS_NUMBER[first] and not s.rules.same_number_play:
        m = hand.count(first)
        for size in range(2, m + 1):
            cs = (first,) * size
            add_play(s, sp.index[Action("play", cs)], seat, cs, out)
        return
    rank = KRANK[first]
    pool = [k for k in hand if KRANK[k] == rank and not IS_WILD[k]
            and (not lock or KCOLOR[k] == s.ecolor)]
    pool.remove(first)
    if not pool:
        return
    seen: set[tuple[int, ...]] = set()
    for size in range(1, len(pool) + 1):
        for combo in itertools.combinations(sorted(pool), size):
            for last in set(combo):
                mid = list(combo)
                mid.remove(last)
                cs = (first, *sorted(mid), last)
                if cs in seen:
                    continue
                seen.add(cs)
                if rank == DISCARD_ALL and not da_ok(hand, cs):
                    continue
                aid = sp.index.get(Action("play", cs))
                if aid is not None:
                    add_play(s, aid, seat, cs, out)


def answerable(s: State, kind: int) -> bool:
    """EFF-0: do the rules give a penalty of this kind any answer?"""
    rules = s.rules
    if kind == P_D2:
        return rules.stacking != "off"
    if kind == P_W4:
        return (rules.stack_draw4 or rules.reverse_deflects_draw4 or rules.draw2_on_draw4
                or (rules.wd4_challenge and not s.nochallenge))
    return kind in (P_H2, P_WA)


def is_answer(s: State, k: int, seat: int) -> bool:
    """May card ``k`` answer the pending penalty (HR-STACK, HR-STACK4, HR-4ON2, HR-REV4,
    HR-2ON4, ATK-8/9)?"""
    rules = s.rules
    kind = s.pkind
    if s.effect == E_LOCK and seat != s.eowner and KCOLOR[k] != s.ecolor:
        return False
    if kind == P_D2:
        if k == WILD4:
            return rules.draw4_on_draw2
        r = KRANK[k]
        if rules.stacking == "draw2":
            return r == DRAW2
        if r in (SKIP, REVERSE, DRAW2):  # deflect: match the top by colour or symbol
            return KCOLOR[k] == s.color or r == KRANK[s.discard[-1]]
        return False
    if kind == P_W4:
        if k == WILD4:
            return rules.stack_draw4
        if KRANK[k] == REVERSE and rules.reverse_deflects_draw4:  # HR-REV4: named colour
            return KCOLOR[k] == s.color or KRANK[s.discard[-1]] == REVERSE
        if KRANK[k] == DRAW2 and rules.draw2_on_draw4:  # HR-2ON4: named colour, adds 2
            return KCOLOR[k] == s.color or KRANK[s.discard[-1]] == DRAW2
        return False
    if kind == P_H2:
        return KRANK[k] == HIT2
    if kind == P_WA:  # a Hit 2 of the named colour, or an attack-attack of one's own
        if k == WILD_ATTACK:  # not a last card: that one has no effect (ATK-6)
            return len(s.hands[seat]) > 1
        return KRANK[k] == HIT2 and KCOLOR[k] == s.color
    return False


def answer_ids(s: State, seat: int, out: list[int]) -> None:
    """Answers to a pending penalty: take it (or challenge/accept a W4), or pass it on."""
    rules, sp = s.rules, s.space
    hand = s.hands[seat]
    if s.pkind == P_W4 and rules.wd4_challenge and not s.nochallenge:
        out.append(sp.challenge)
        out.append(sp.accept)
    else:
        out.append(sp.draw)
    for k in set(hand):
        if not is_answer(s, k, seat):
            continue
        if k == WILD4:
            for c in rules.deck.colors:
                add_play(s, sp.wild[k][c], seat, (k,), out)
            continue
        if k == WILD_ATTACK:  # ATK-9: any colour, any other seat
            for c in rules.deck.colors:
                base = sp.index[Action("play", (k,), color=c, target=0)]
                for t in range(s.n):
                    if t != seat:
                        add_play(s, base + 2 * t, seat, (k,), out)
            continue
        add_play(s, sp.play1[k], seat, (k,), out)
        if rules.double_play and hand.count(k) >= 2 and not alone(rules, k):
            add_play(s, sp.index[Action("play", (k, k))], seat, (k, k), out)
        if rules.multi_play and not alone(rules, k):
            buf: list[int] = []
            multi_ids(s, seat, k, buf, False)  # is_answer below checks the lock, card by card
            acts = sp.actions
            out.extend(i for i in buf
                       if all(is_answer(s, c, seat) for c in acts[i].cards))


def playable_drawn(s: State, seat: int, k: int) -> bool:
    """May the card just drawn be played (TURN-3)?"""
    if s.simple and s.effect != E_LOCK:
        key = s.color * 32 + KRANK[s.discard[-1]]
        row = s.rows.get(key) or build_row(s, key)
        if not row[k]:
            return False
        return not (k == WILD4 and s.w4_strict and not w4_ok(s, s.hands[seat]))
    if not matches(s, k, seat):
        return False
    if k == WILD4 and s.rules.w4_rule == "restricted" and not s.rules.wd4_challenge:
        return w4_ok(s, s.hands[seat])
    buf: list[int] = []
    play_ids(s, seat, [k], buf)
    return bool(buf)

