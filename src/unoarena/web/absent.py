"""Absent players: with the host gone, the others vote to hand an absent player's seat to a bot.

The host can already do it alone (``remove`` during a match). Without the host, a table whose
player left for good would wait for the away clock at each of their turns until the match ends;
a majority of the people still connected may instead hand the seat to a bot for the rest of the
match. Only a seat with no connection can be voted away, so a majority can never push out
someone who is there. Votes live in memory: a vote lasts seconds, and a restart, which
disconnects everyone, would make most of them moot anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalog import T_
from .protocol import ProtocolError, dumps
from .seating import PLAYING

if TYPE_CHECKING:
    from .rooms import Room
    from .seating import Player


class Votes:
    """The open votes of one room: per absent player, who voted to hand their seat over."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.votes: dict[int, set[int]] = {}

    def host_gone(self) -> bool:
        """Whether the host is gone: their seat is a bot's now, or they have been
        disconnected for the away time (a bot stands in at their turns)."""
        room = self.room
        host = room.players[room.host]
        return host.kind != "human" or room.seating.is_away(host)

    def voters(self, target: int) -> list[int]:
        """The people who may vote on ``target``'s seat: every connected person but them."""
        return [p.index for p in self.room.players
                if p.kind == "human" and p.conns and p.index != target]

    def needed(self, target: int) -> int:
        """Votes that carry it: more than half of :meth:`voters`."""
        return len(self.voters(target)) // 2 + 1

    def tally(self, target: int) -> dict[str, Any]:
        """The ``vote`` message: how many voted to hand ``target``'s seat to a bot, of how many
        needed (0 of 0 once the vote is over)."""
        have = self.votes.get(target, set()) & set(self.voters(target))
        open_ = target in self.votes
        return {"type": "vote", "player": target, "voters": sorted(have) if open_ else [],
                "needed": self.needed(target) if open_ else 0}

    def _tell(self, target: int) -> None:
        text = dumps(self.tally(target))
        for conn in list(self.room.conns):
            conn.push(text)

    async def vote(self, voter: Player, target: int) -> None:
        """``voter`` votes to hand ``target``'s seat to a bot; once a majority of the people
        connected agree, a bot takes the seat for the rest of the match. Called outside the
        room's lock."""
        room = self.room
        async with room.lock:
            if room.status != PLAYING or room.match is None:
                raise ProtocolError("not_playing", T_("the game is not in progress"))
            if not self.host_gone():
                raise ProtocolError("host_here", T_("the host is here: the host decides who "
                                                    "a bot replaces"))
            if not 0 <= target < len(room.players):
                raise ProtocolError("bad_seat", T_("there is no player {n}"), n=target)
            p = room.players[target]
            if p.kind != "human":
                raise ProtocolError("bad_seat", T_("no person sits there"))
            if p.index == voter.index:
                raise ProtocolError("bad_seat", T_("you cannot vote on your own seat"))
            if p.conns:
                raise ProtocolError("not_absent", T_("{name} is connected: only an absent "
                                                     "player's seat can be handed to a bot"),
                                    name=p.name)
            votes = self.votes.setdefault(target, set())
            votes.add(voter.index)
            if len(votes & set(self.voters(target))) < self.needed(target):
                self._tell(target)
                return
            await room.seating.bench(p, T_("The other players handed your seat to a bot; you "
                                           "are now watching."))
            del self.votes[target]
            self._tell(target)

    def came_back(self, player: int) -> None:
        """``player`` is connected again: a vote on their seat ends."""
        if self.votes.pop(player, None) is not None:
            self._tell(player)
