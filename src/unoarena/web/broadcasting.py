"""What a room tells its connections: the room, each seat's own view and narration, notices.

Every message is built once per seat and language and queued on each connection
(:meth:`Conn.push`); a seat reads its own private events, everyone else the public ones (DIG-2).
Callers hold the room's lock, so nothing not yet stored is ever shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..bots.levels import level_of
from ..engine import Event
from ..engine.match import eliminated
from ..play_choice import hand_choices
from ..text.narrate import Narrator, round_start_lines
from .catalog import T_, gettext_in, speaking
from .persistence import DB_LOST, LOG_BROKEN
from .protocol import dumps
from .ratings import is_rated
from .seating import ABSENT, LATE

if TYPE_CHECKING:
    from .rooms import Room
    from .seating import Conn

_DRAWS = frozenset({"draw", "press", "presses", "pass"})  # drawing, and keeping what came


class Broadcaster:
    """The messages of one room, built and sent to its connections."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def info(self, lang: str, you: int | None = None) -> dict[str, Any]:
        """The room as anyone may see it (no tokens, no hands)."""
        room = self.room
        now = room.loop.time()
        return {
            "type": "room",
            "id": room.id,
            "status": room.status,
            "rules": room.rules_dict,
            "overrides": room.overrides,
            "host": room.host,
            "match": room.match_no,
            "you": you,
            "players": [{"player": p.index, "kind": p.kind,
                         "name": room.seating.display_name(p, lang),
                         "bot": p.bot if p.kind in ("bot", "remote") else None,
                         "connected": bool(p.conns), "away": room.seating.is_away(p, now),
                         "seat": room.seating.seat_of(p.index),
                         "next": p.heir[0] if p.heir is not None else None}
                        for p in room.players],
            "spectators": sum(1 for c in room.conns if c.player is None),
            "public": room.public,
            "quick": level_of(room.fill_bot) if room.fill_bot else None,
            "fill_in_ms": (int(max(0.0, room.fill_at - now) * 1000)
                           if room.fill_timer is not None and room.fill_at is not None
                           else None),
            "rated": is_rated(room),
        }

    def _seats(self, lang: str) -> list[dict[str, Any]]:
        room = self.room
        now = room.loop.time()
        out = []
        for s in range(room.seating.n):
            p = room.players[room.seating.player_at(s)]
            out.append({"seat": s, "player": p.index, "name": room.seating.display_name(p, lang),
                        "kind": p.kind, "connected": bool(p.conns),
                        "away": room.seating.is_away(p, now), "host": p.index == room.host})
        return out

    def _round_clock_info(self) -> dict[str, Any] | None:
        """HR-BLITZ: the time left in the round, for the page's countdown."""
        room = self.room
        limit = room.rules.blitz
        if limit is None or room.match is None or room.match.game.is_over:
            return None
        at = room.clock.round_started + room.config.round_pause + limit
        return {"left_ms": int(max(0.0, at - room.loop.time()) * 1000), "total": limit}

    def _timer_info(self) -> dict[str, Any] | None:
        room = self.room
        if room.clock.deadline is None or room.rules.turn_timer is None:
            return None
        left = max(0.0, room.clock.deadline - room.loop.time())
        return {"seat": room.clock.deadline_seat, "left_ms": int(left * 1000),
                "total": room.rules.turn_timer}

    def _view(self, seat: int | None) -> Mapping[str, Any]:
        room = self.room
        assert room.match is not None
        game = room.match.game
        if seat is not None:
            return game.view(seat)
        v: dict[str, Any] = dict(game.view(0))  # a spectator: the public part only
        v.update(seat=None, hand=[], drawn=[], legal=[], seen=[])
        v.pop("give_left", None)
        return v

    def _lines(self, lang: str, groups: Sequence[tuple[list[Event], int, str, str]],
               start: list[Event] | None, viewer: int | None) -> list[str]:
        names = self.room.seating.names_by_seat(lang)
        out: list[str] = []
        with speaking(lang):
            narrator = Narrator(names)
            if start:
                out += round_start_lines(start, names)
            for events, seat, action, source in groups:
                line, private = narrator.line(events, viewer, seat=seat, action=action)
                if private and _own_draw(events, viewer):
                    line = ""  # "You drew red 5." says all that "Ann drew 1 card." does
                entry = " ".join(x for x in (self._stand_in(lang, names, seat, source), line,
                                             *private) if x)
                if entry:
                    out.append(entry)
        return out

    def _stand_in(self, lang: str, names: list[str], seat: int, source: str) -> str:
        """Why a stand-in made a remote seat's move (its program was late, or away), said
        before the move itself; nothing for any other move."""
        if source not in (LATE, ABSENT) or not 0 <= seat < len(names):
            return ""
        room = self.room
        bot = room.players[room.seating.player_at(seat)].bot
        text = (T_("{name} was late; {bot} played for it.") if source == LATE
                else T_("{name} is not connected; {bot} played for it."))
        return gettext_in(lang, text).format(name=names[seat], bot=bot)

    def round_log(self, conn: Conn) -> list[str]:
        """The current round so far, narrated for one connection (rejoin, language switch)."""
        room = self.room
        if room.match is None:
            return []
        events = room.match.game.events
        first = room.marks[0][0] if room.marks else len(events)
        groups = [(events[a:b], seat, act, src) for a, b, seat, act, src in room.marks]
        viewer = room.seating.seat_of(conn.player) if conn.player is not None else None
        return self._lines(conn.lang, groups, events[:first], viewer)

    def _state_for(self, conn: Conn, log_lines: list[str], events: list[Event],
                   view: Mapping[str, Any], lang_cache: dict[str, list[dict[str, Any]]]
                   ) -> dict[str, Any]:
        room = self.room
        seats = lang_cache.get(conn.lang)
        if seats is None:
            seats = lang_cache[conn.lang] = self._seats(conn.lang)
        assert room.match is not None
        seat = view["seat"]
        # what a click on each card of the hand asks, and plays (the terminal's own questions)
        choices = ({} if seat is None
                   else hand_choices(room.match.game.legal_actions(seat), view["hand"]))
        return {"type": "state", "room": room.id, "status": room.status,
                "match": room.match_no, "round": room.match.rounds_played, "seq": room.seq,
                "you": view["seat"], "view": view, "seats": seats, "log": log_lines,
                "events": events, "timer": self._timer_info(),
                "round_clock": self._round_clock_info(),
                "match_scores": list(room.match.scores), "choices": choices}

    def broadcast_state(self, groups: Sequence[tuple[list[Event], int, str, str]],
                        start: list[Event] | None = None,
                        only: Conn | None = None) -> None:
        """Tell every connection (or ``only`` one) the state and the new events' lines."""
        room = self.room
        if room.match is None:
            return
        targets = [only] if only is not None else list(room.conns)
        if not targets:
            return
        views: dict[int | None, Mapping[str, Any]] = {}
        texts: dict[tuple[int | None, str], str] = {}
        public: dict[str, list[str]] = {}
        seats_cache: dict[str, list[dict[str, Any]]] = {}
        all_events = [e for g in groups for e in g[0]] + (start or [])
        # only a seat that some event is addressed to reads lines of its own; every other seat
        # reads the public narration, made once per language
        recipients = {e["to"] for e in all_events if "to" in e}
        for conn in targets:
            seat = room.seating.seat_of(conn.player) if conn.player is not None else None
            key = (seat, conn.lang)
            text = texts.get(key)
            if text is None:
                view = views.get(seat)
                if view is None:
                    view = views[seat] = self._view(seat)
                if seat is not None and seat in recipients:
                    lines = self._lines(conn.lang, groups, start, seat)
                else:
                    cached = public.get(conn.lang)
                    if cached is None:
                        cached = public[conn.lang] = self._lines(conn.lang, groups, start, None)
                    lines = cached
                events = ([e for e in all_events if "to" not in e or e["to"] == seat]
                          if recipients else all_events)
                text = texts[key] = dumps(self._state_for(conn, lines, events, view,
                                                          seats_cache))
            conn.push(text)

    def broadcast_room(self) -> None:
        """Send every connection the room as :meth:`info` describes it, in its
        language, built once per player and language."""
        self.room.manager.lobby.note(self.room)
        texts: dict[tuple[int | None, str], str] = {}
        for conn in list(self.room.conns):
            key = (conn.player, conn.lang)
            if key not in texts:
                texts[key] = dumps(self.info(conn.lang, conn.player))
            conn.push(texts[key])

    def notice(self, lang: str) -> dict[str, Any]:
        """The room's standing notice in ``lang``: why it cannot go on now (its database is
        away, its stored log stops replaying), or a ``None`` message once it can."""
        room = self.room
        text: str | None = None
        if room.saving.broken is not None:
            text = gettext_in(lang, LOG_BROKEN).format(seq=room.saving.broken.seq)
        elif not room.manager.db_ok:
            text = gettext_in(lang, DB_LOST)
        return {"type": "notice", "message": text}

    def send_notice(self) -> None:
        """Tell every connection the room's notice (:meth:`notice`), built once per
        language."""
        texts: dict[str, str] = {}
        for conn in list(self.room.conns):
            if conn.lang not in texts:
                texts[conn.lang] = dumps(self.notice(conn.lang))
            conn.push(texts[conn.lang])

    def send_all(self, payload: dict[str, Any]) -> None:
        """Send one message, the same for everyone, to every connection at the room."""
        text = dumps(payload)
        for conn in list(self.room.conns):
            conn.push(text)

    def round_result(self) -> dict[str, Any]:
        """The ``round_over`` message of the round just ended: who won, why, the points."""
        room = self.room
        assert room.match is not None
        g = room.match.game
        out = g.outcome
        assert out is not None
        return {"type": "round_over", "round": room.match.rounds_played + 1,
                "winner": out.winner, "reason": out.reason,
                "winner_player": (room.seating.player_at(out.winner) if out.winner is not None
                                  else None),
                "points": list(out.hand_points), "round_scores": list(out.scores),
                "players": [room.seating.player_at(s) for s in range(room.seating.n)],
                # HR-ELIM: the players this round puts out of the match
                "out": [room.seating.player_at(s)
                        for s in eliminated(room.rules, out, g.hand_sizes())]}

    def match_result(self) -> dict[str, Any]:
        """The ``match_over`` message: the winners and the final scores."""
        room = self.room
        assert room.match is not None
        return {"type": "match_over", "match": room.match_no,
                "winners": list(room.match.winners), "scores": list(room.match.scores),
                "teams": room.rules.team_count, "scoring": room.rules.scoring,
                "players": [p.index for p in room.players]}


def _own_draw(events: Sequence[Event], viewer: int | None) -> bool:
    """Whether everything public in ``events`` is ``viewer`` drawing (or pressing the
    launcher) on their turn and perhaps keeping the card, which their private "You drew ..."
    line and the turn moving on already say."""
    public = [e for e in events if "to" not in e]
    return viewer is not None and bool(public) and all(
        e.get("t") in _DRAWS and e.get("seat") == viewer
        and e.get("reason", "turn") == "turn" for e in public)
