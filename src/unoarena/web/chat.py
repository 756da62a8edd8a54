"""Talk at a table: chat lines, quick reactions and the host's mutes.

Players chat at the table; spectators have a chat of their own, which the players do not see
while a match is in play (spectators see the whole table, and a word from them could help one
player). Out of play, in the lobby and once the match is over, everyone reads both.

A line is stored before anyone reads it, like a move: a restart, or another process taking the
room over, loses none. Mutes are stored the same way, as lines of their own channel. Text is
kept exactly as typed (trimmed, at most :data:`CHAT_CHARS` characters, no control characters):
the page shows it as text, never as markup.

Spectators have no seat: each is "Spectator N", numbered by the room as they first speak. A
page that watches says ``hello`` with a key of its own for the room (a random string it keeps),
so that the same person keeps their number, and a host's mute, across reloads and
reconnections; a muted spectator's key is stored (its SHA-256, in the mute's row) so that a
restart or a take-over keeps the mute too. Someone who clears their browser's storage comes
back as a new spectator: without accounts nothing tells two visits of one person apart.

What is stored is what a room shows: the last :data:`KEEP` lines of each channel, and of the
mutes only the latest word for each person (a mute's write deletes the earlier ones). A room
prunes a channel's stored lines when it holds :data:`PRUNE_SLACK` more than that (so that a
line costs one insert, and every so often one delete), a server prunes a database stored
before this as it loads it, and everything goes with the room's row (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    select,
)

from .catalog import T_
from .persistence import DB_LOST
from .protocol import ProtocolError, RateLimit, dumps
from .seating import PLAYING, hash_token
from .store import AppendOp, Store, StoreError

if TYPE_CHECKING:
    from .rooms import Room
    from .seating import Conn

TABLE, SPECTATORS, MUTE, UNMUTE = "table", "spectators", "mute", "unmute"
KEEP = 100  # lines of each channel a room keeps, stores and sends to who arrives
#: lines a channel may store past KEEP before the room prunes it: a prune (one DELETE) costs
#: 1-2 ms of the writer's time, so it comes once every PRUNE_SLACK lines, not with each
PRUNE_SLACK = 50
CHAT_RATE, CHAT_BURST = 0.5, 5.0  # a line every 2 s on average, 5 at once
REACT_RATE, REACT_BURST = 0.5, 3.0

_meta = MetaData()
chat_table = Table(
    "chat", _meta,
    Column("room_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("channel", String(12), nullable=False),
    Column("player", Integer),
    Column("watcher", Integer),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
)


class ChatLine(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One chat line: its number in the room, when (seconds since the epoch), its channel
    (``table``: the players'; ``spectators``: the spectators', which players read only while no
    match is in play), who (a ``player``, or a spectator by the room's ``watcher`` number),
    their name (empty for a spectator) and the text exactly as typed: show it as text. Also
    the type the protocol's schema publishes. (A stored mute is a line of the ``mute`` or
    ``unmute`` channel that no one is sent; its text is a muted spectator's key's hash.)"""

    seq: int
    at: float
    channel: str
    player: int | None
    watcher: int | None
    name: str
    text: str

    def message(self) -> dict[str, Any]:
        """The line as the ``chat`` message carries it."""
        return msgspec.structs.asdict(self)


def clean_text(raw: str) -> str:
    """A chat line as typed, trimmed; refused with a clear error when it is empty or holds
    control characters (a line break included: a line is one line)."""
    text = raw.strip()
    if not text:
        raise ProtocolError("bad_chat", T_("write something first"))
    if any(unicodedata.category(c) == "Cc" or c in "\u2028\u2029\u202a\u202b\u202c\u202d"
           "\u202e\u2066\u2067\u2068\u2069" for c in text):
        raise ProtocolError("bad_chat", T_("a chat line may not contain control characters "
                                           "or line breaks"))
    return text


def op_chat(room_id: str, line: ChatLine) -> AppendOp:
    """The write that stores one line (or a mute) of a room's chat (merged with the other
    appends of its batch: see :class:`AppendOp`)."""
    return AppendOp(chat_table, [{"room_id": room_id, **line.message()}])


def _prune_lines(conn: Connection, room_id: str, channel: str) -> None:
    """Delete every line of a room's channel but its last :data:`KEEP` (one statement)."""
    c = chat_table.c
    oldest_kept = (select(c.seq).where(c.room_id == room_id, c.channel == channel)
                   .order_by(c.seq.desc()).offset(KEEP - 1).limit(1).scalar_subquery())
    conn.execute(chat_table.delete().where(c.room_id == room_id, c.channel == channel,
                                           c.seq < oldest_kept))


def _forget_words(conn: Connection, room_id: str, player: int | None,
                  watcher: int | None) -> None:
    """Delete the stored mutes and unmutes of one person (a newer word replaces them)."""
    c = chat_table.c
    who = c.player == player if player is not None else c.watcher == watcher
    conn.execute(chat_table.delete().where(c.room_id == room_id,
                                           c.channel.in_((MUTE, UNMUTE)), who))


def op_prune(room_id: str, channels: Iterable[str]) -> Callable[[Connection], None]:
    """The write that deletes the lines of ``channels`` a room no longer shows."""
    chosen = sorted(set(channels))

    def run(conn: Connection) -> None:
        for channel in chosen:
            _prune_lines(conn, room_id, channel)
    return run


def op_mute(room_id: str, line: ChatLine) -> Callable[[Connection], None]:
    """The write that stores the host's word on one person (a ``mute`` or ``unmute`` line)
    in place of their earlier ones: the latest word is all a room needs back."""
    row = {"room_id": room_id, **line.message()}

    def run(conn: Connection) -> None:
        _forget_words(conn, room_id, line.player, line.watcher)
        conn.execute(chat_table.insert(), [row])
    return run


def op_prune_all(rooms: Iterable[tuple[str, Iterable[ChatLine]]]
                 ) -> Callable[[Connection], None]:
    """The write that prunes rooms stored before the pruning, given their stored lines: each
    channel to its last :data:`KEEP` lines, each person's mutes to the latest."""
    todo: list[tuple[str, list[ChatLine]]] = [(rid, [x for x in lines if x.channel in
                                                      (MUTE, UNMUTE)]) for rid, lines in rooms]

    def run(conn: Connection) -> None:
        c = chat_table.c
        for room_id, words in todo:
            for channel in (TABLE, SPECTATORS):
                _prune_lines(conn, room_id, channel)
            latest = set({(w.player, w.watcher): w.seq for w in words}.values())
            stale = [w.seq for w in words if w.seq not in latest]
            if stale:
                conn.execute(chat_table.delete().where(c.room_id == room_id,
                                                       c.seq.in_(stale)))
    return run


def stored_lines(store: Store, room_id: str) -> dict[str, int]:
    """How many rows of each channel the store holds for ``room_id`` (tests, operators)."""
    c = chat_table.c
    with store.reading() as conn:
        rows = conn.execute(select(c.channel, c.seq).where(c.room_id == room_id)).all()
    out: dict[str, int] = {}
    for channel, _seq in rows:
        out[channel] = out.get(channel, 0) + 1
    return out


def load_chat(store: Store, room_ids: Sequence[str]) -> dict[str, list[ChatLine]]:
    """The stored chat of ``room_ids``: per room, every line and mute in order (a room keeps
    the last :data:`KEEP` of each channel)."""
    out: dict[str, list[ChatLine]] = {}
    if not room_ids:
        return out
    with store.reading() as conn:
        for chunk in range(0, len(room_ids), 500):
            ids = list(room_ids[chunk:chunk + 500])
            q = (select(chat_table).where(chat_table.c.room_id.in_(ids))
                 .order_by(chat_table.c.room_id, chat_table.c.seq))
            for r in conn.execute(q).mappings():
                out.setdefault(r["room_id"], []).append(
                    ChatLine(**{k: r[k] for k in ChatLine.__struct_fields__}))
    return out


class RoomChat:
    """The chat of one room: its recent lines, its mutes, and everyone's pace."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.lines: dict[str, deque[ChatLine]] = {TABLE: deque(maxlen=KEEP),
                                              SPECTATORS: deque(maxlen=KEEP)}
        self.muted: set[int] = set()
        self.muted_watchers: set[int] = set()
        self.seq = 0
        self.watchers = 0
        self._watcher_of: weakref.WeakKeyDictionary[Conn, int] = weakref.WeakKeyDictionary()
        self._watcher_by_key: dict[str, int] = {}  # a spectator's key's hash: their number
        self._key_of: dict[int, str] = {}
        #: rows of each channel the store holds (about: counted, not read): see op_prune
        self.stored: dict[str, int] = {TABLE: 0, SPECTATORS: 0}
        self._pace: dict[int, RateLimit] = {}  # players'
        self._watcher_pace: weakref.WeakKeyDictionary[Conn, RateLimit] = (
            weakref.WeakKeyDictionary())
        self._react_pace: dict[int, RateLimit] = {}

    # -- restoring -------------------------------------------------------------------------
    def restore(self, lines: Iterable[ChatLine]) -> None:
        """Take the stored lines back (a restart, a take-over): the recent ones and the
        mutes."""
        for line in lines:
            self.seq = max(self.seq, line.seq)
            if line.watcher is not None:
                self.watchers = max(self.watchers, line.watcher)
            if line.channel in (MUTE, UNMUTE):
                muted = self.muted if line.player is not None else self.muted_watchers
                who = line.player if line.player is not None else line.watcher
                assert who is not None
                if line.channel == MUTE:
                    muted.add(who)
                else:
                    muted.discard(who)
                if line.watcher is not None and line.text:  # a spectator's key's hash
                    self._watcher_by_key[line.text] = line.watcher
                    self._key_of[line.watcher] = line.text
            elif line.channel in self.lines:
                self.lines[line.channel].append(line)
                self.stored[line.channel] += 1

    def overstored(self) -> list[str]:
        """The channels of which the store holds more than the room shows (and then some)."""
        return [ch for ch, n in self.stored.items() if n >= KEEP + PRUNE_SLACK]

    # -- spectators ------------------------------------------------------------------------
    def watcher_of(self, conn: Conn, assign: bool = False) -> int | None:
        """A spectator's number: the one their connection, or their page's key, already has;
        else a new one when ``assign`` (they speak), else None."""
        number = self._watcher_of.get(conn)
        if number is None and conn.watcher_key is not None:
            number = self._watcher_by_key.get(conn.watcher_key)
        if number is None and assign:
            self.watchers += 1
            number = self.watchers
            if conn.watcher_key is not None:
                self._watcher_by_key[conn.watcher_key] = number
                self._key_of[number] = conn.watcher_key
        if number is not None:
            self._watcher_of[conn] = number
        return number

    # -- who sees what ---------------------------------------------------------------------
    def visible(self, line: ChatLine, conn: Conn) -> bool:
        """Whether ``conn`` reads ``line``: the table's lines everyone; the spectators' ones
        the spectators, and the players too while no match is in play."""
        if line.channel == TABLE:
            return True
        return conn.player is None or self.room.status != PLAYING

    def history(self, conn: Conn) -> dict[str, Any]:
        """The ``chat`` message that gives ``conn`` every recent line it may read, in order,
        replacing what it held."""
        lines = sorted((x for ch in self.lines.values() for x in ch if self.visible(x, conn)),
                       key=lambda x: x.seq)
        return {"type": "chat", "lines": [x.message() for x in lines], "replace": True,
                **self._mutes(), "you": self.watcher_of(conn) if conn.player is None else None}

    def _mutes(self) -> dict[str, list[int]]:
        return {"muted": sorted(self.muted), "muted_watchers": sorted(self.muted_watchers)}

    def send_history(self, conns: Iterable[Conn]) -> None:
        """Send each of ``conns`` its :meth:`history` (arriving, or the match is over and the
        spectators' lines are the players' to read too)."""
        for conn in conns:
            conn.push(dumps(self.history(conn)))

    def _tell(self, line: ChatLine | None) -> None:
        text_all = dumps({"type": "chat", "lines": [line.message()] if line else [],
                          "replace": False, **self._mutes()})
        text_none: str | None = None
        for conn in list(self.room.conns):
            if line is None or self.visible(line, conn):
                conn.push(text_all)
            else:  # the mute list still changes for everyone
                if text_none is None:
                    text_none = dumps({"type": "chat", "lines": [], "replace": False,
                                       **self._mutes()})
                conn.push(text_none)

    # -- saying ----------------------------------------------------------------------------
    async def say(self, conn: Conn, raw: str) -> None:
        """A line from ``conn``: a player's to the table, a spectator's to the spectators.
        Refused, with why, when it is empty, too fast, muted, or cannot be stored."""
        room = self.room
        text = clean_text(raw)
        known = self.watcher_of(conn) if conn.player is None else None
        if (conn.player in self.muted if conn.player is not None
                else known is not None and known in self.muted_watchers):
            raise ProtocolError("muted", T_("the host has muted you in this room's chat"))
        if conn.player is not None:
            pace = self._pace.setdefault(conn.player, RateLimit(CHAT_RATE, CHAT_BURST))
        else:
            pace = self._watcher_pace.setdefault(conn, RateLimit(CHAT_RATE, CHAT_BURST))
        if not pace.allow():
            raise ProtocolError("chat_rate", T_("you are writing too fast: wait a moment"))
        if not room.manager.db_ok:
            raise ProtocolError("no_database", DB_LOST)
        if conn.player is not None:
            p = room.players[conn.player]
            line = self._next(TABLE, p.index, None, room.seating.display_name(p, "en"), text)
        else:
            watcher = self.watcher_of(conn, assign=True)
            assert watcher is not None
            line = self._next(SPECTATORS, None, watcher, "", text)
        await self._store(line)
        self.lines[line.channel].append(line)
        self.stored[line.channel] += 1
        if known is None and line.watcher is not None:  # a new spectator learns their number
            conn.push(dumps({"type": "chat", "lines": [], "replace": False, **self._mutes(),
                             "you": line.watcher}))
        self._tell(line)
        if self.stored[line.channel] >= KEEP + PRUNE_SLACK:
            self.prune(line.channel)

    def prune(self, channel: str) -> None:
        """Delete the lines of ``channel`` the room no longer shows from the store, without
        waiting for it: the line that made it due is stored already, and a prune that fails
        is tried again after the next line."""
        self.stored[channel] = KEEP
        done = self.room.store.write(op_prune(self.room.id, [channel]))

        def pruned(done: asyncio.Future[None]) -> None:
            if not done.cancelled() and done.exception() is not None:
                self.stored[channel] = KEEP + PRUNE_SLACK
        done.add_done_callback(pruned)

    def _next(self, channel: str, player: int | None, watcher: int | None, name: str,
              text: str) -> ChatLine:
        self.seq += 1
        return ChatLine(seq=self.seq, at=time.time(), channel=channel, player=player,
                        watcher=watcher, name=name, text=text)

    async def _store(self, line: ChatLine) -> None:
        op = (op_mute(self.room.id, line) if line.channel in (MUTE, UNMUTE)
              else op_chat(self.room.id, line))
        try:
            await self.room.store.write(op)
        except StoreError as e:
            if e.unreachable:
                self.room.manager.database_lost(str(e))
            raise ProtocolError("not_saved", T_("your line could not be saved; it was not "
                                                "sent")) from None

    async def mute(self, actor: int, player: int | None, muted: bool,
                   watcher: int | None = None) -> None:
        """The host mutes (or lets speak again) a player, or the spectator ``watcher``: their
        lines are refused until then; stored (with a spectator's key's hash, which finds
        them again after a reload), so that a restart does not lift it."""
        room = self.room
        if actor != room.host:
            raise ProtocolError("not_host", T_("only the host can do that"))
        if (player is None) == (watcher is None):
            raise ProtocolError("bad_message", T_("name a player or a spectator to mute"))
        if watcher is not None:
            if not 1 <= watcher <= self.watchers:
                raise ProtocolError("bad_seat", T_("there is no spectator {n} in this room"),
                                    n=watcher)
            which, who = self.muted_watchers, watcher
        else:
            assert player is not None
            if not 0 <= player < len(room.players) or room.players[player].kind != "human":
                raise ProtocolError("bad_seat", T_("no person sits there"))
            if player == room.host:
                raise ProtocolError("bad_seat", T_("the host cannot mute themselves"))
            which, who = self.muted, player
        if (who in which) == muted:
            return
        key = self._key_of.get(watcher, "") if watcher is not None else ""
        await self._store(self._next(MUTE if muted else UNMUTE, player, watcher, "", key))
        if muted:
            which.add(who)
        else:
            which.discard(who)
        self._tell(None)

    # -- reactions -------------------------------------------------------------------------
    def react(self, conn: Conn, emote: str) -> None:
        """A quick reaction from a seated player, shown by their seat to everyone; not
        stored (it means something only for a moment)."""
        room = self.room
        if conn.player is None:
            raise ProtocolError("not_seated", T_("you are watching: join the room to play"))
        if conn.player in self.muted:
            raise ProtocolError("muted", T_("the host has muted you in this room's chat"))
        pace = self._react_pace.setdefault(conn.player, RateLimit(REACT_RATE, REACT_BURST))
        if not pace.allow():
            raise ProtocolError("chat_rate", T_("you are writing too fast: wait a moment"))
        text = dumps({"type": "reaction", "player": conn.player, "emote": emote})
        for c in list(room.conns):
            c.push(text)


async def restore_chat(rooms: Sequence[Room], store: Store) -> None:
    """Give each restored room its stored chat back (one read for all of them), and prune
    those that stored more than they show (a database older than the pruning)."""
    stored = await asyncio.to_thread(load_chat, store, [r.id for r in rooms])
    old: list[tuple[str, list[ChatLine]]] = []
    for room in rooms:
        lines = stored.get(room.id, [])
        room.talk.restore(lines)
        words = [(x.player, x.watcher) for x in lines if x.channel in (MUTE, UNMUTE)]
        if room.talk.overstored() or len(set(words)) < len(words):
            old.append((room.id, lines))
            room.talk.stored = {TABLE: KEEP, SPECTATORS: KEEP}
    if old:  # (a database of a server that did not prune; once)
        done = store.write(op_prune_all(old))
        # (not awaited: a failure only leaves the lines for the next start to prune)
        done.add_done_callback(lambda f: f.cancelled() or f.exception())


def watcher_key(raw: str | None) -> str | None:
    """What the room keeps of a spectator's key (its SHA-256), or None without one."""
    return hash_token(raw) if raw else None
