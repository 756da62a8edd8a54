"""Finished matches, step by step, for the replay page.

A finished match hides nothing any more, so a replay shows every hand: the steps are rebuilt
from the stored seed and action log (DIG-1), with each action narrated in the viewer's language.
"""

from __future__ import annotations

from typing import Any

from ..engine import CODES, COLOR_CODES, TIME_UP_TEXT, Game, Match, RuleSet
from ..text.narrate import Narrator, round_start_lines
from .catalog import T_, gettext_in, speaking
from .store import ActionRow


def _snapshot(game: Game) -> dict[str, Any]:
    out = game.outcome
    return {
        "turn": game.turn,
        "phase": game.phase,
        "direction": game.direction,
        "top": CODES[game.top] if game.discard_pile else None,
        "color": COLOR_CODES[game.color] if game.color >= 0 else None,
        "hands": [[CODES[k] for k in sorted(game.hand(s))] for s in range(game.players)],
        "pending": game.pending,
        "effect": game.effect,
        "draw_pile_size": game.draw_pile_size,
        "over": game.is_over,
        "winner": out.winner if out else None,
    }


def replay_steps(row: dict[str, Any], actions: list[ActionRow], lang: str) -> dict[str, Any]:
    """Every round of a stored match as a list of table states with a sentence each."""
    rules = RuleSet.from_dict(row["rules"])
    match = Match(rules, int(row["seed"]))
    by_player: list[str] = list(row["names"])
    bot = gettext_in(lang, T_("Bot {n}"))

    def names() -> list[str]:
        out = []
        for s in range(match.game.players):  # the players left (HR-ELIM)
            p = match.player_at(s)
            name = by_player[p] if p < len(by_player) else ""
            out.append(name if name and not name.startswith("Bot ") else bot.format(n=p + 1))
        return out

    rounds: list[dict[str, Any]] = []

    def new_round() -> dict[str, Any]:
        seat_names = names()
        with speaking(lang):
            lines = round_start_lines(match.game.events, seat_names)
        r = {"round": match.rounds_played, "names": seat_names, "dealer": match.game.dealer,
             "steps": [dict(_snapshot(match.game), seat=None, action=None,
                            line=" ".join(lines))]}
        rounds.append(r)
        return r

    current = new_round()
    for a in actions:
        game = match.game
        before = len(game.events)
        if a.action == TIME_UP_TEXT:  # HR-BLITZ: the round's time ran out
            game.time_up()
        else:
            game.apply(a.action, a.seat)
        with speaking(lang):
            line, _private = Narrator(current["names"]).line(game.events[before:], None,
                                                             seat=a.seat, action=a.action)
        current["steps"].append(dict(_snapshot(game), seat=a.seat, action=a.action, line=line,
                                     source=a.source))
        if game.is_over:
            out = game.outcome
            assert out is not None
            current["result"] = {"winner": out.winner, "points": list(out.hand_points),
                                 "scores": list(out.scores)}
            match.finish_round()
            if not match.is_over:
                current = new_round()
    return {"room": row["room"], "match": row["match"], "rules": rules.to_dict(),
            "players": rules.players, "names": by_player, "winners": row["winners"],
            "scores": row["scores"], "rounds": rounds}
