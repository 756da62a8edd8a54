"""The lobby: this server's public rooms, live, for anyone looking for a game.

A page listing a thousand rooms must not be sent a thousand rooms at every change. A watcher
gets the list once (``lobby``), then only what changed (``lobby_diff``: rooms added, the fields
of a room that changed, rooms gone). Changes are gathered for :data:`LOBBY_EVERY` seconds and
sent as one message, built once and queued on every watcher alike, so a busy server pays one
message per interval, not one per change per watcher.

A room tells the lobby it may have changed (:meth:`Lobby.note`) wherever it tells its own
connections about its seats; the lobby works out what, if anything, a watcher sees differently.

With several processes (cluster.py) each process lists the rooms it owns and publishes their
whole entries when they change; every process merges the others' into its list (:meth:`merge`),
so a watcher connected anywhere sees every public room. An entry belongs to the process that
published it last: a room taken over from a process that died is listed by its new owner, and
the old owner's word that it is gone is ignored once the new owner has spoken.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..bots.levels import level_of
from .protocol import dumps
from .seating import LOBBY, PLAYING

if TYPE_CHECKING:
    from .rooms import Room, RoomManager
    from .seating import Conn

LOBBY_EVERY = 0.2  # seconds changes are gathered before they go out as one message


def summary(room: Room) -> dict[str, Any] | None:
    """A room as the lobby lists it, or None when it is not listed (private, over, gone, or
    waiting for a host who has been away for ``away_after``: nobody would start it): its rules,
    who sits, how many seats are open, how many watch, and whether one may join."""
    if not room.public or room.status not in (LOBBY, PLAYING):
        return None
    players = room.players
    if room.status == LOBBY and room.seating.is_away(players[room.host]):
        return None
    open_seats = sum(1 for p in players if p.kind == "open")
    free_bots = len(room.seating.bots_to_replace()) if room.fill_bot else 0
    return {
        "id": room.id,
        "preset": room.rules.preset,
        "house": {k: v for k, v in room.overrides.items() if k != "players"},
        "status": room.status,
        "seats": len(players),
        "open": open_seats,
        "people": [p.name for p in players if p.kind == "human"],
        "bots": sum(1 for p in players if p.kind == "bot"),
        "spectators": sum(1 for c in room.conns if c.player is None),
        "quick": level_of(room.fill_bot) if room.fill_bot else None,
        # joining now: an open seat before the game, or a bot's seat from the next round
        "joinable": (room.status == LOBBY and open_seats > 0) or free_bots > 0,
    }


class Lobby:
    """The listed rooms as last told to the watchers, the rooms that may have changed since,
    and the watchers."""

    def __init__(self, manager: RoomManager, every: float = LOBBY_EVERY) -> None:
        self.manager = manager
        self.every = every
        self.listed: dict[str, dict[str, Any]] = {}
        self.dirty: set[str] = set()
        self.watchers: set[Conn] = set()
        self._timer: asyncio.TimerHandle | None = None
        self.diffs_sent = 0  # lobby_diff messages built (each goes to every watcher)
        #: with several processes: this process's id, which process listed each room, and
        #: how this process's changes reach the others (whole entries, and ids gone)
        self.me = ""
        self.origin: dict[str, str] = {}
        self.publish: Callable[[dict[str, Any]], None] | None = None

    def sweep(self) -> None:
        """Look again at the public rooms whose host is not connected: one away too long
        leaves the list (no event says so; time does). Runs every few seconds."""
        for room in list(self.manager.rooms.values()):
            if room.public and room.status == LOBBY and not room.players[room.host].conns:
                self.note(room)

    async def sweeping(self) -> None:
        """:meth:`sweep` every half ``away_after`` (at most every 5 s), for as long as the
        server runs."""
        every = min(5.0, max(0.1, self.manager.config.away_after / 2))
        while True:
            await asyncio.sleep(every)
            self.sweep()

    def note(self, room: Room) -> None:
        """``room`` may look different in the list now (or be gone from it): look at it when
        the interval ends."""
        if not room.public and room.id not in self.listed:
            return
        self.dirty.add(room.id)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.every, self.flush)

    def flush(self) -> dict[str, Any] | None:
        """Tell every watcher what changed since the last message, in one ``lobby_diff``;
        returns it (None when nothing a watcher sees changed)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        dirty, self.dirty = self.dirty, set()
        rooms = self.manager.rooms
        # oldest first, as the list is: a page appends what is added
        order = sorted(dirty, key=lambda r: (rooms[r].created_at if r in rooms else 0.0, r))
        updates = [(rid, summary(rooms[rid]) if rid in rooms else None) for rid in order]
        msg = self._apply(updates, self.me)
        if self.publish is not None and updates:
            self.publish({"rooms": [u for _rid, u in updates if u is not None],
                          "gone": [rid for rid, u in updates if u is None]})
        return msg

    def merge(self, source: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Another process's rooms changed (``payload``: their whole entries, and the ids it no
        longer lists): fold them into the list and tell the watchers here what differs."""
        mine = self.manager.rooms
        updates: list[tuple[str, dict[str, Any] | None]] = [
            (r["id"], r) for r in payload.get("rooms", ()) if r["id"] not in mine]
        updates += [(rid, None) for rid in payload.get("gone", ()) if rid not in mine]
        return self._apply(updates, source)

    def own(self) -> dict[str, Any]:
        """This process's entries, for a process that has just started (``publish`` form)."""
        return {"rooms": [r for rid, r in self.listed.items()
                          if self.origin.get(rid, self.me) == self.me], "gone": []}

    def _apply(self, updates: Sequence[tuple[str, dict[str, Any] | None]],
               source: str) -> dict[str, Any] | None:
        """Take in the new entries of rooms (None: no longer listed) as ``source`` says them,
        and send the watchers one ``lobby_diff`` of what they see differently (returned; None
        when nothing). A room gone is removed only on the word of the process that listed it."""
        add: list[dict[str, Any]] = []
        change: list[dict[str, Any]] = []
        remove: list[str] = []
        for rid, now in updates:
            before = self.listed.get(rid)
            if now is None:
                if before is not None and self.origin.get(rid, source) == source:
                    del self.listed[rid]
                    self.origin.pop(rid, None)
                    remove.append(rid)
                continue
            self.listed[rid] = now
            self.origin[rid] = source
            if before is None:
                add.append(now)
                continue
            fields = {k: v for k, v in now.items() if before.get(k) != v}
            if fields:
                change.append({"id": rid, **fields})
        if not (add or change or remove):
            return None
        msg = {"type": "lobby_diff", "add": add, "change": change, "remove": remove}
        text = dumps(msg)
        self.diffs_sent += 1
        for conn in list(self.watchers):
            conn.push(text)
        return msg

    def snapshot(self) -> dict[str, Any]:
        """The whole list now, oldest room first (the changes not yet told go to the watchers
        first, so that a new one and the others agree from here on)."""
        if self.dirty:
            self.flush()
        return {"type": "lobby", "rooms": list(self.listed.values())}

    def watch(self, conn: Conn) -> None:
        """A new watcher: the list now, then every change."""
        conn.push(dumps(self.snapshot()))
        self.watchers.add(conn)

    def unwatch(self, conn: Conn) -> None:
        """A watcher went away."""
        self.watchers.discard(conn)

    def close(self) -> None:
        """Server shutdown: nothing more goes out."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for conn in list(self.watchers):
            conn.close()
        self.watchers.clear()
