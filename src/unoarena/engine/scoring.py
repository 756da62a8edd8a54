"""How a round ends: a seat goes out and the hands are scored (END-*, MATCH-*), or it is void."""

from __future__ import annotations

from .cards import POINTS
from .state import OVER, P_NONE, Outcome, State, Termination, ev


def end_round(s: State, winner: int, reason: Termination = Termination.OUT) -> None:
    """END-1, END-3: ``winner`` went out (or won on time, HR-BLITZ); score the hands left
    (MATCH-1..4): the winner's own hand, empty unless the time ran out, never counts for it."""
    rules = s.rules
    pts = tuple(sum(POINTS[k] for k in h) for h in s.hands)
    n = s.n
    if rules.teams:
        nt = rules.team_count
        team_pts = [0] * nt
        for p in range(n):
            team_pts[rules.team_of(p)] += pts[p]
        wt = rules.team_of(winner)
        if rules.scoring == "winner":  # MATCH-4: other teams' hands only
            scores = tuple(sum(team_pts[t] for t in range(nt) if t != wt) if t == wt else 0
                           for t in range(nt))
        elif rules.scoring == "penalty":
            scores = tuple(team_pts)
        else:
            lost = sum(team_pts[t] for t in range(nt) if t != wt)
            scores = tuple(lost if t == wt else -team_pts[t] for t in range(nt))
    elif rules.scoring == "winner":  # MATCH-1
        scores = tuple(sum(pts) - pts[winner] if p == winner else 0 for p in range(n))
    elif rules.scoring == "penalty":  # MATCH-2
        scores = pts
    else:  # MATCH-3 chips
        scores = tuple(sum(pts) - pts[winner] if p == winner else -pts[p] for p in range(n))
    if rules.double_score:  # HR-DOUBLESCORE: the winner's points (and chips paid) count twice
        scores = tuple(2 * x for x in scores)
    s.outcome = Outcome(winner, reason, pts, scores)
    s.phase = OVER
    s.pend, s.pkind = 0, P_NONE
    s.exposed = -1
    s.jump = False
    if reason == Termination.TIME:
        ev(s, t="round_over", winner=winner, points=list(pts), scores=list(scores),
           on_time=True)
    else:
        ev(s, t="round_over", winner=winner, points=list(pts), scores=list(scores))


def end_on_time(s: State) -> None:
    """HR-BLITZ: the round's time ran out. The seat holding the fewest points in hand wins; on
    a tie the fewest cards, then the first of them in play order from the seat whose turn it
    is. It scores as if it had gone out."""
    pts = [sum(POINTS[k] for k in h) for h in s.hands]
    order = [(s.turn + s.dir * i) % s.n for i in range(s.n)]
    winner = min(order, key=lambda p: (pts[p], len(s.hands[p]), order.index(p)))
    s.drawn = []
    end_round(s, winner, Termination.TIME)


def end_void(s: State, reason: Termination = Termination.VOID) -> None:
    """TURN-6 ``void``: the pile ran out; or, under HR-HANDLIMIT, the table is blocked (no hand
    may draw and no seat can play, so no card could ever move again). Nobody scores."""
    pts = tuple(sum(POINTS[k] for k in h) for h in s.hands)
    zeros = tuple(0 for _ in range(s.rules.team_count or s.n))
    s.outcome = Outcome(None, reason, pts, zeros)
    s.phase = OVER
    s.pend, s.pkind = 0, P_NONE
    s.exposed = -1
    s.jump = False
    s.void_due = True  # its event closes the action that found the pile empty


def flush_void(s: State) -> None:
    """Log the void round's end once the action that found the pile empty is logged."""
    s.void_due = False
    out = s.outcome
    assert out is not None
    if out.reason == Termination.BLOCKED:
        ev(s, t="round_over", winner=None, void=True, blocked=True, points=list(out.hand_points))
    else:
        ev(s, t="round_over", winner=None, void=True, points=list(out.hand_points))

