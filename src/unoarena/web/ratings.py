"""Ratings: openskill per table-size family and rule family, updated when a rated match ends.

Who is rated: signed-in players (by the account linked to their seat, see accounts.py) and bots
of the four levels, each level one fixed identity (``bot:easy`` ...). Guests and bots that are
no level's play, but are left out of the update: a rating moves only against identities that
have one. A match is rated when :func:`is_rated` says so, it has no teams, and at least two
rated identities sat at the table. Everything happens in one transaction of the writer, so a
match is rated once (its history rows are the proof) even when the room is taken over.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    String,
    Table,
    and_,
    select,
)

from ..bots.levels import LEVELS, level_of
from ..engine import RuleSet
from .store import StoreError, metadata

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unoarena.web")

ratings = Table(
    "ratings", metadata,
    Column("subject", String(48), primary_key=True),
    Column("family", String(24), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

rating_history = Table(
    "rating_history", metadata,
    Column("subject", String(48), primary_key=True),
    Column("room_id", String(32), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("family", String(24), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
)

MODEL = PlackettLuce()
#: Table-size families: (name, fewest players, most players).
SIZES: tuple[tuple[str, int, int], ...] = (("2", 2, 2), ("3-4", 3, 4), ("5-10", 5, 10))
RULE_FAMILIES: tuple[str, ...] = ("classic", "editions", "house")
FAMILIES: tuple[str, ...] = tuple(f"{r}/{s}" for r in RULE_FAMILIES for s, _lo, _hi in SIZES)
DEFAULT_FAMILY = "classic/3-4"  # the one a leaderboard shows first
#: Keys that set up the table rather than change how the game plays: changing them keeps a
#: rule set in its family.
TABLE_KEYS = frozenset({"players", "target_score", "rounds", "turn_timer"})
BOT_SUBJECTS = {f"bot:{level}": bot for level, bot, _doc in LEVELS}


def is_rated(room: Room) -> bool:
    """Whether a match at ``room`` moves ratings (the one place that decides): on a server with
    accounts, every public table (the lobby's and quick play's) is rated, and a private room
    when its host chose so at creation."""
    return room.config.accounts and (room.public or room.rated)


def rule_family(rules: RuleSet) -> str:
    """``classic`` (the classic preset as printed), ``editions`` (another edition's preset as
    printed) or ``house`` (the house preset, or any preset with a rule changed)."""
    changed = set(rules.overrides()) - TABLE_KEYS
    if rules.preset == "house" or changed:
        return "house"
    return "classic" if rules.preset == "classic" else "editions"


def size_family(players: int) -> str:
    """The table-size family of ``players`` seats: ``2``, ``3-4`` or ``5-10``."""
    for name, lo, hi in SIZES:
        if lo <= players <= hi:
            return name
    raise ValueError(f"a table has 2 to 10 players, not {players}")


def family_of(rules: RuleSet) -> str:
    """A rule set's rating family, such as ``classic/3-4``."""
    return f"{rule_family(rules)}/{size_family(rules.players)}"


def ordinal(mu: float, sigma: float) -> float:
    """The number a leaderboard sorts by: the skill a player surely has (mu - 3 sigma)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class Seat:
    """A participant as the match ended: player number, kind, bot spec and seat-token hash."""

    player: int
    kind: str
    bot: str
    token_hash: str | None


@dataclass(frozen=True)
class Result:
    """What :func:`op_rate_match` needs of a finished match, copied when it ended."""

    room_id: str
    match_no: int
    family: str
    seats: tuple[Seat, ...]
    ranks: tuple[int, ...]  # per player, 0 best; ties share a rank
    winners: frozenset[int]


def match_result(room: Room) -> Result | None:
    """The finished match of ``room`` as ratings see it, or None when it is not rated."""
    match = room.match
    if match is None or not match.is_over or not is_rated(room) or room.rules.teams:
        return None
    scores = list(match.scores)
    if len(scores) != len(room.players):
        return None
    winners = frozenset(match.winners)
    lower_is_better = room.rules.scoring == "penalty"

    def key(i: int) -> tuple[int, int]:
        return (0 if i in winners else 1, scores[i] if lower_is_better else -scores[i])

    order = sorted(range(len(scores)), key=key)
    ranks = [0] * len(scores)
    for pos, i in enumerate(order):
        prev = order[pos - 1] if pos else None
        ranks[i] = ranks[prev] if prev is not None and key(prev) == key(i) else pos
    seats = tuple(Seat(p.index, p.kind, p.bot, p.token_hash) for p in room.players)
    return Result(room.id, room.match_no, family_of(room.rules), seats, tuple(ranks), winners)


def match_over(room: Room) -> None:
    """Called when a match at ``room`` ends: rate it in the background (a rating the database
    refuses is logged; the room goes on regardless)."""
    if not room.config.accounts:
        return
    result = match_result(room)
    if result is None:
        return

    async def rate() -> None:
        try:
            await room.store.write(op_rate_match(result))
        except StoreError as e:
            log.warning("room %s: match %d was not rated: %s", room.id, room.match_no, e)
    room.manager.spawn(rate())


def op_rate_match(result: Result) -> Any:
    """The write that rates a finished match: reads the seats' accounts and the current
    ratings, and stores the new ones and a history row each, in the writer's transaction."""
    from .accounts import accounts, seat_accounts

    def run(conn: Connection) -> None:
        done = conn.execute(select(rating_history.c.subject).where(
            rating_history.c.room_id == result.room_id,
            rating_history.c.match_no == result.match_no).limit(1)).first()
        if done is not None:
            return
        linked = {r.player: (r.account_id, r.token_hash, r.name) for r in conn.execute(
            select(seat_accounts.c.player, seat_accounts.c.account_id,
                   seat_accounts.c.token_hash, accounts.c.name)
            .join(accounts, accounts.c.id == seat_accounts.c.account_id)
            .where(seat_accounts.c.room_id == result.room_id))}
        who: list[tuple[str, str, int]] = []  # subject, shown name, player
        for s in result.seats:
            if s.kind == "human":
                link = linked.get(s.player)
                if link is not None and link[1] == s.token_hash:
                    who.append((f"account:{link[0]}", link[2], s.player))
            elif s.kind == "bot":
                level = level_of(s.bot)
                if level is not None:
                    who.append((f"bot:{level}", level, s.player))
        subjects = [w[0] for w in who]
        if len(set(subjects)) < 2 or len(set(subjects)) != len(subjects):
            return  # fewer than two rated identities (or one twice: two seats, one bot level)
        rows = {r.subject: r for r in conn.execute(select(ratings).where(
            ratings.c.family == result.family, ratings.c.subject.in_(subjects)))}
        teams = []
        for subject, _name, _p in who:
            r = rows.get(subject)
            teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma) if r is not None
                          else MODEL.rating()])
        new = MODEL.rate(teams, ranks=[float(result.ranks[p]) for _s, _n, p in who])
        now = time.time()
        for (subject, name, p), team in zip(who, new, strict=True):
            rating = team[0]
            won = p in result.winners
            old = rows.get(subject)
            values = {"name": name, "mu": rating.mu, "sigma": rating.sigma, "updated_at": now,
                      "games": (old.games if old is not None else 0) + 1,
                      "wins": (old.wins if old is not None else 0) + int(won)}
            if old is None:
                conn.execute(ratings.insert().values(subject=subject, family=result.family,
                                                     **values))
            else:
                conn.execute(ratings.update().where(and_(
                    ratings.c.subject == subject, ratings.c.family == result.family))
                    .values(**values))
            conn.execute(rating_history.insert().values(
                subject=subject, room_id=result.room_id, match_no=result.match_no,
                family=result.family, rank=result.ranks[p], won=won, mu=rating.mu,
                sigma=rating.sigma, at=now))
    return run


def leaderboard(conn: Connection, family: str, limit: int = 100) -> list[dict[str, Any]]:
    """The ``limit`` best of ``family`` by :func:`ordinal`, best first."""
    score = ratings.c.mu - 3.0 * ratings.c.sigma  # :func:`ordinal`, sorted by the database
    rows = conn.execute(select(ratings).where(ratings.c.family == family)
                        .order_by(score.desc(), ratings.c.games.desc(), ratings.c.name)
                        .limit(limit)).all()
    out = [{"subject": r.subject, "name": r.name, "bot": r.subject.startswith("bot:"),
            "rating": round(ordinal(r.mu, r.sigma), 2), "mu": round(r.mu, 2),
            "sigma": round(r.sigma, 2), "games": r.games, "wins": r.wins} for r in rows]
    return out


def profile(conn: Connection, subject: str, recent: int = 20) -> dict[str, Any]:
    """A player's (or bot level's) ratings per family, the history of each for its chart, and
    the ``recent`` latest rated games, newest first."""
    fams = [{"family": r.family, "rating": round(ordinal(r.mu, r.sigma), 2),
             "games": r.games, "wins": r.wins}
            for r in conn.execute(select(ratings).where(ratings.c.subject == subject)
                                  .order_by(ratings.c.family))]
    hist = conn.execute(select(rating_history).where(rating_history.c.subject == subject)
                        .order_by(rating_history.c.at)).all()
    series: dict[str, list[dict[str, Any]]] = {}
    for h in hist:
        series.setdefault(h.family, []).append(
            {"at": h.at, "rating": round(ordinal(h.mu, h.sigma), 2)})
    games = [{"room": h.room_id, "match": h.match_no, "family": h.family, "rank": h.rank + 1,
              "won": bool(h.won), "at": h.at, "rating": round(ordinal(h.mu, h.sigma), 2)}
             for h in reversed(hist[-recent:])]
    return {"families": fams, "series": series, "games": games,
            "played": sum(f["games"] for f in fams), "won": sum(f["wins"] for f in fams)}


def forget(conn: Connection, subject: str) -> None:
    """Remove a subject's ratings and history (its account is being deleted)."""
    conn.execute(ratings.delete().where(ratings.c.subject == subject))
    conn.execute(rating_history.delete().where(rating_history.c.subject == subject))
