"""Quick play: a seat at a public table of the rule set a person picks, now.

The person is seated at the oldest listed table of exactly that rule set with an open seat;
failing that, at one in play where a bot holds a seat that quick play filled (the person takes
it over when the next round is dealt); failing that, a new public table is opened with them as
its host, and after :attr:`ServerConfig.quick_wait` seconds its empty seats go to bots of the
level they chose and the game starts (at once when people fill it first).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..bots.levels import LEVELS, bot_for
from ..engine import RuleSet
from .catalog import T_
from .protocol import ProtocolError
from .rooms import make_rules
from .seating import LOBBY, PLAYING

if TYPE_CHECKING:
    from .rooms import Room, RoomManager

log = logging.getLogger("unoarena.web")

LEVEL_CHOICES = tuple(level for level, _bot, _doc in LEVELS)


def level_bot(level: str) -> str:
    """The bot spec of a level a person chose; a ``bad_level`` error names the levels."""
    try:
        return bot_for(level)
    except ValueError:
        raise ProtocolError("bad_level", T_("unknown bot level {level}: choose {allowed}"),
                            level=level[:16], allowed=", ".join(LEVEL_CHOICES)) from None


def _open_tables(listed: list[dict[str, Any]], rules: RuleSet) -> list[str]:
    """The listed tables of exactly these rules (the preset's own: no house rules, its number
    of players) a person could sit at now: those waiting with an open seat first, then
    quick-play tables in play with a bot to replace; oldest first within each."""
    same = [r for r in listed if r["preset"] == rules.preset and not r["house"]
            and r["seats"] == rules.players and r["joinable"]]
    return [r["id"] for r in same if r["status"] == LOBBY] + \
        [r["id"] for r in same if r["status"] == PLAYING]


JoinAt = Callable[[str], Awaitable[dict[str, Any]]]


async def quick_play(manager: RoomManager, name: str, preset: str, level: str,
                     join_at: JoinAt, client: str = "") -> dict[str, Any]:
    """Seat ``name`` at a table of ``preset`` (its own rules, no house rules), or open one
    whose empty seats bots of ``level`` fill. The tables are looked for in the lobby's list,
    which with several processes holds every process's, and joined with ``join_at(room)``
    wherever the room is. The answer is what joining a room answers, with ``waiting`` (the
    seat is a bot's until the next round) and ``fill_in`` (seconds until bots fill a new table,
    or None)."""
    spec = level_bot(level)
    rules = make_rules(preset, None)
    for rid in _open_tables(manager.lobby.snapshot()["rooms"], rules):
        try:
            seat = await join_at(rid)
        except ProtocolError as e:  # taken meanwhile, or gone: the next table
            if e.code in ("room_full", "already_started", "seat_taken", "no_room"):
                continue
            raise
        return {**seat, "fill_in": None}
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (rules.players - 1)
    room, token = await manager.create(name, rules, seats, client, public=True, fill_bot=spec)
    arm_fill(room)
    return {"room": room.id, "player": 0, "token": token, "name": name, "url": f"/r/{room.id}",
            "waiting": False, "fill_in": room.config.quick_wait}


def arm_fill(room: Room, wait: float | None = None) -> None:
    """In ``wait`` seconds (the server's quick-play wait), give a quick-play table's empty seats
    to its bots and start, unless it started already."""
    delay = room.config.quick_wait if wait is None else wait
    room.fill_at = room.loop.time() + delay
    room.fill_timer = room.loop.call_later(delay, lambda: room.manager.spawn(fill(room)))


async def fill(room: Room) -> None:
    """The wait is over: bots take the empty seats and the match starts, if its host is there
    (a table its host left waits on, out of the lobby's list, until they are back)."""
    async with room.lock:
        room.fill_timer = None
        if room.status != LOBBY or room.manager.rooms.get(room.id) is not room:
            return
        # the database is away, or the host left (no match among bots alone): another wait
        if not room.manager.db_ok or not room.players[room.host].conns:
            arm_fill(room)
            return
        await room.begin_match()
        log.info("room %s: quick play filled its empty seats with %s", room.id, room.fill_bot)
