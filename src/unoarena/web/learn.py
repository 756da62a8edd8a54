"""The page's Learn section and the Review view of a finished game: routes and JSON API.

Lessons (:mod:`unoarena.coach.lessons`) are played through the API without a room: the page
sends an action, the server judges it on a fresh copy of the lesson's table and answers with
the lesson's words and the rule that applies; nothing is stored on the server (the browser
remembers which lessons are done). A review runs in a worker thread, one at a time, and is
cached: it costs seconds of CPU.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..coach.hints import action_words, hint, hints_allowed, reason_text
from ..coach.lessons import BOOKS, Lesson, load_lessons, text
from ..coach.review import LABEL_WORDS, THRESHOLDS, review_round, round_moves
from ..coach.rulehelp import action_help, card_help, refusal_help
from ..engine import CODES, COLOR_CODES, ERROR_CODES, Action, Game, IllegalAction, RuleSet
from ..text.i18n import _
from .catalog import T_, speaking
from .protocol import Field, ProtocolError

REVIEW_SAMPLES = 96  # determinizations per decision on the server: a round in a few seconds
REVIEW_CACHE = 16
_TRY = {"action": Field(str, max_len=200), "lang": Field(str, required=False, max_len=16)}
_HINT = {"token": Field(str, max_len=64), "lang": Field(str, required=False, max_len=16)}
_HELP = {"preset": Field(str, max_len=32), "rules": Field(dict, required=False),
         "card": Field(str, required=False, max_len=8),
         "action": Field(str, required=False, max_len=200),
         "refusal": Field(str, required=False, max_len=40),
         "lang": Field(str, required=False, max_len=16)}


@cache
def _lessons(book: str) -> list[Lesson]:
    return load_lessons(book)


def _lesson(request: Request) -> Lesson:
    book = request.path_params["book"]
    raw = request.path_params["n"]
    if book not in BOOKS:
        raise ProtocolError("no_lesson", T_("there is no such lesson"))
    lessons = _lessons(book)
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= len(lessons):
        raise ProtocolError("no_lesson", T_("there is no such lesson"))
    return lessons[int(raw) - 1]


def _help_json(found: Any) -> dict[str, Any]:
    return {"text": found.text, "ids": list(found.ids)}


def table_json(lesson: Lesson, game: Game) -> dict[str, Any]:
    """What the learner sees: their hand, the top card, the others' hand sizes, and every
    legal action with its words (in the language being spoken)."""
    seat = lesson.learner
    view = game.view(seat)
    legal = [a for a in game.legal_actions(seat) if a.verb != "timeout"]
    return {
        "seat": seat, "players": game.players, "turn": game.turn, "hand": view["hand"],
        "top": CODES[game.top] if game.discard_pile else None,
        "color": COLOR_CODES[game.color] if game.color >= 0 else None,
        "sizes": game.hand_sizes(), "pending": game.pending, "effect": game.effect,
        "preset": game.rules.preset, "rules": game.rules.overrides(),
        "legal": [{"action": str(a), "words": action_words(a),
                   "cards": [CODES[k] for k in a.cards]} for a in legal],
    }


def learn_routes(page: Callable[[Request], Awaitable[Response]]) -> list[BaseRoute]:
    """The pages and the API, to add to the application's routes."""
    from .app import _api, _body, _lang  # the application module imports this one

    @_api
    async def books(request: Request) -> Any:
        lang = _lang(request)
        with speaking(lang):
            return {"books": [{"book": b, "lessons": [
                {"n": i, "id": x.id, "title": text(x.title, lang)}
                for i, x in enumerate(_lessons(b), 1)]} for b in BOOKS]}

    @_api
    async def lesson(request: Request) -> Any:
        les = _lesson(request)
        lang = _lang(request)
        with speaking(lang):
            return {"id": les.id, "book": les.book, "title": text(les.title, lang),
                    "goal": text(les.goal, lang), "rules_covered": list(les.rules_covered),
                    "table": table_json(les, les.start())}

    @_api
    async def attempt(request: Request) -> Any:
        les = _lesson(request)
        body = await _body(request, _TRY)
        lang = _lang(request, body)
        game = les.start()
        rules = game.rules
        with speaking(lang):
            verdict = les.judge(game, body["action"], lang)
            if verdict.refused:
                rule = refusal_help(rules, verdict.refused)
            else:
                rule = action_help(rules, body["action"], pending=game.pending is not None)
            out: dict[str, Any] = {"done": verdict.done, "say": verdict.say,
                                   "refused": verdict.refused, "rule": _help_json(rule)}
            if verdict.done:
                game.apply(Action.parse(body["action"]), les.learner)
                out["table"] = table_json(les, game)
        return out

    @_api
    async def rulehelp(request: Request) -> Any:
        body = await _body(request, _HELP)
        lang = _lang(request, body)
        from .rooms import make_rules
        rules = make_rules(body["preset"], body.get("rules"))
        with speaking(lang):
            try:
                if body.get("card"):
                    found = card_help(rules, str(body["card"]).upper())
                elif body.get("refusal"):
                    if body["refusal"] not in ERROR_CODES:
                        raise ProtocolError("bad_message",
                                            T_("there is no such refusal: {refusal}"),
                                            refusal=str(body["refusal"])[:40])
                    found = refusal_help(rules, str(body["refusal"]))
                elif body.get("action"):
                    found = action_help(rules, str(body["action"]))
                else:
                    raise ProtocolError("bad_message",
                                        T_("say which card, action or refusal to explain"))
            except (ValueError, IllegalAction) as e:
                raise ProtocolError("bad_message", T_("cannot explain that: {reason}"),
                                    reason=str(e)) from None
        return _help_json(found)

    reviews: dict[tuple[str, int, int, int, str], dict[str, Any]] = {}
    busy = asyncio.Lock()

    @_api
    async def review(request: Request) -> Any:
        room_id = request.path_params["room"]
        raw_no = request.path_params["match"]
        if not (raw_no.isascii() and raw_no.isdigit()) or len(raw_no) > 9:
            raise ProtocolError("no_match", T_("there is no such finished game"))
        lang = _lang(request)
        try:
            round_no = int(request.query_params.get("round", "1"))
            seat = int(request.query_params.get("seat", "0"))
        except ValueError:
            raise ProtocolError("bad_message", T_("round and seat must be whole numbers")
                                ) from None
        key = (room_id, int(raw_no), round_no, seat, lang)
        if key in reviews:
            return reviews[key]
        st = request.app.state.store
        row = await asyncio.to_thread(st.match_row, room_id, int(raw_no))
        if row is None or row["finished_at"] is None:
            raise ProtocolError("no_match", T_("there is no such finished game"))
        acts = await asyncio.to_thread(st.match_actions, room_id, int(raw_no))
        rounds: list[list[list[Any]]] = []
        for a in acts:
            while len(rounds) <= a.round_no:
                rounds.append([])
            rounds[a.round_no].append([a.seat, a.action])
        rec = {"format": "unoarena.match", "rules": row["rules"], "seed": row["seed"],
               "rounds": rounds}
        rules = RuleSet.from_dict(row["rules"])
        if not 1 <= round_no <= len(rounds) or not 0 <= seat < rules.players:
            raise ProtocolError("bad_message", T_(
                "no such round or seat: rounds 1 to {rounds}, seats 0 to {last}"),
                rounds=len(rounds), last=rules.players - 1)
        async with busy:
            start, moves = await asyncio.to_thread(round_moves, rec, round_no - 1)
            from ..coach.evaluate import Evaluator
            result = await asyncio.to_thread(review_round, start, moves, {seat},
                                             Evaluator(samples=REVIEW_SAMPLES))
        with speaking(lang):
            s = result.summaries[seat]
            out = {
                "round": round_no, "rounds": len(rounds), "seat": seat,
                "players": rules.players, "names": row["names"], "winner": result.winner,
                "actions": result.actions,
                "decisions": [{"index": d.index, "action": action_words(d.action),
                               "before": d.before, "after": d.after,
                               "best": action_words(d.best) if d.best != d.action else None,
                               "best_chance": d.best_chance, "loss": d.loss,
                               "label": d.label,
                               "label_words": _(LABEL_WORDS[d.label]) if d.label else "",
                               "forced": d.forced, "judged": d.judged}
                              for d in result.decisions],
                "summary": {"accuracy": s.accuracy, "choices": s.choices, "lost": s.lost,
                            "labels": [{"label": n, "words": _(LABEL_WORDS[n]),
                                        "count": s.labels[n]} for n, _a in THRESHOLDS]},
            }
        if len(reviews) >= REVIEW_CACHE:
            reviews.pop(next(iter(reviews)))
        reviews[key] = out
        return out

    @_api
    async def room_hint(request: Request) -> Any:
        body = await _body(request, _HINT)
        lang = _lang(request, body)
        room = request.app.state.manager.get(request.path_params["room"])
        player = room.seating.check_token(body["token"])
        if player is None:
            raise ProtocolError("bad_token", T_("this seat token does not belong to your seat"))
        people = sum(p.kind == "human" for p in room.players)
        if not hints_allowed(people):
            raise ProtocolError("no_hints", T_("hints are only for games against bots"))
        if room.match is None or room.match.game.is_over:
            raise ProtocolError("no_hints", T_("there is nothing to decide now"))
        seat = room.seating.seat_of(player.index)
        game = room.match.game.clone(record_events=False)  # the table goes on meanwhile
        if seat is None or seat < 0 or not [
                a for a in game.legal_actions(seat) if a.verb != "timeout"]:
            raise ProtocolError("no_hints", T_("there is nothing to decide now"))
        async with busy:
            found = await asyncio.to_thread(hint, game, seat)
        with speaking(lang):
            return {"action": str(found.action), "words": action_words(found.action),
                    "reason": reason_text(found.evaluation)}

    return [
        Route("/learn", page), Route("/learn/{book}", page),
        Route("/review/{room}/{match}", page),
        Route("/api/learn", books),
        Route("/api/learn/{book}/{n}", lesson),
        Route("/api/learn/{book}/{n}/try", attempt, methods=["POST"]),
        Route("/api/rulehelp", rulehelp, methods=["POST"]),
        Route("/api/review/{room}/{match}", review),
        Route("/api/rooms/{room}/hint", room_hint, methods=["POST"]),
    ]
