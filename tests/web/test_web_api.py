"""The HTTP API: reference data, rule checks, creating and joining rooms, clear errors."""

from __future__ import annotations

from unoarena.engine import KEYS, PRESETS
from unoarena.testing.web_server import LiveServer, create_room, join


def test_page_and_static_files_are_served(server: LiveServer) -> None:
    for path in ("/", "/r/abc", "/replays", "/replay/abc/1"):
        r = server.http.get(path)
        assert r.status_code == 200 and "<main id=\"app\"" in r.text, path
    for path in ("/static/js/app.js", "/static/js/room.js", "/static/style.css"):
        assert server.http.get(path).status_code == 200, path
    assert server.http.get("/healthz").json()["ok"] is True


def test_meta_lists_presets_keys_bots_and_languages(server: LiveServer) -> None:
    meta = server.http.get("/api/meta").json()
    assert [p["name"] for p in meta["presets"]] == list(PRESETS)
    assert {k["key"] for k in meta["keys"]} == set(KEYS) - {"preset"}
    kinds = {k["key"]: k["type"] for k in meta["keys"]}
    assert kinds["jump_in"] == "bool" and kinds["stacking"] == "choice"
    assert kinds["turn_timer"] == "int?" and kinds["players"] == "int"
    assert "basic" in {b["name"] for b in meta["bots"]}
    assert set(meta["languages"]) == {"en", "zh_TW", "zh_CN"}


def test_house_rules_from_other_apps_are_offered_and_checked(server: LiveServer) -> None:
    """HR-OPEN, HR-BLIND, HR-ELIM, HR-BLITZ: the page's house-rules section shows each with
    its kind and values, and the server explains them or refuses a combination that cannot
    be played."""
    meta = server.http.get("/api/meta").json()
    keys = {k["key"]: k for k in meta["keys"]}
    assert keys["open_hands"]["type"] == "int?" and keys["open_hands"]["rule"] == "HR-OPEN"
    assert keys["blind_draw"]["type"] == "bool"
    assert keys["elimination"]["choices"] == ["off", "points", "cards"]
    assert keys["blitz"]["type"] == "int?" and "10 to 3600" in keys["blitz"]["allowed"]
    ok = server.http.post("/api/rules", json={"preset": "classic", "rules": {
        "open_hands": 2, "blind_draw": True, "elimination": "points", "blitz": 120}})
    assert ok.status_code == 200
    text = " ".join(row["text"] for row in ok.json()["explain"])
    assert all(r in text for r in ("HR-OPEN", "HR-BLIND", "HR-ELIM", "HR-BLITZ"))
    bad = server.http.post("/api/rules", json={"preset": "classic", "rules": {
        "elimination": "cards", "teams": 2}})
    assert bad.status_code == 400 and "elimination" in bad.text


def test_meta_lists_the_bot_levels_weakest_first_in_the_page_language(
        server: LiveServer) -> None:
    from unoarena.bots.levels import LEVELS

    meta = server.http.get("/api/meta").json()
    first = [b["name"] for b in meta["bots"][:len(LEVELS)]]
    assert first == [bot for _level, bot, _doc in LEVELS]
    assert meta["bots"][0]["level"] == "Easy" and meta["bots"][0]["plays"]
    assert all("level" not in b for b in meta["bots"][len(LEVELS):])
    assert meta["levels_hint"].startswith("Bot levels, weakest first: Easy (basic), ")
    zh = server.http.get("/api/meta?lang=zh_TW").json()
    assert zh["bots"][0]["level"] == "簡單"
    assert zh["levels_hint"].startswith("機器人等級，由弱到強：簡單（basic）、")


def test_rules_are_validated_and_explained(server: LiveServer) -> None:
    r = server.http.post("/api/rules", json={"preset": "house", "rules": {"jump_in": True}})
    assert r.status_code == 200
    body = r.json()
    assert body["overrides"] == {"jump_in": True}
    assert any(row["key"] == "jump_in" and "HR-JUMP" in row["text"] for row in body["explain"])
    bad = server.http.post("/api/rules", json={"preset": "attack", "rules": {"jump_in": True}})
    assert bad.status_code == 400
    assert bad.json()["code"] == "bad_rules" and "jump_in" in bad.json()["message"]
    unknown = server.http.post("/api/rules", json={"preset": "nope"})
    assert unknown.status_code == 400 and "preset" in unknown.json()["message"]


def test_house_rules_from_other_apps_are_offered_and_explained(server: LiveServer) -> None:
    """RULES 18: the page builds its house-rule toggles from meta, with each key's name in the
    page's language; the rules check explains them and refuses a bomb without a way to play
    three numbers at once."""
    kinds = {k["key"]: (k["type"], k["rule"]) for k in server.http.get("/api/meta").json()["keys"]}
    for key, rule in (("reverse_deflects_draw4", "HR-REV4"), ("draw2_on_draw4", "HR-2ON4"),
                      ("revenge", "HR-REVENGE"), ("same_number_play", "HR-SAMENUM"),
                      ("bomb", "HR-BOMB")):
        assert kinds[key] == ("bool", rule)
    labels = {k["key"]: k["label"] for k in server.http.get("/api/meta?lang=zh_TW").json()["keys"]}
    assert labels["jump_in"] == "搶先出牌" and labels["bomb"] == "炸彈：三張同數字"
    rules = {"same_number_play": True, "bomb": True}
    r = server.http.post("/api/rules", json={"preset": "classic", "rules": rules})
    assert r.status_code == 200 and r.json()["overrides"] == rules
    assert any(row["key"] == "bomb" and "every other player draw one" in row["text"]
               for row in r.json()["explain"])
    bad = server.http.post("/api/rules", json={"preset": "classic", "rules": {"bomb": True}})
    assert bad.status_code == 400 and "same_number_play" in bad.json()["message"]


def test_create_join_and_room_info(server: LiveServer) -> None:
    room = create_room(server, ["human", "bot"], jump_in=True)
    assert room["player"] == 0 and len(room["token"]) >= 20
    info = server.http.get(f"/api/rooms/{room['room']}").json()
    assert info["status"] == "lobby" and info["overrides"] == {"jump_in": True, "players": 3}
    assert [p["kind"] for p in info["players"]] == ["human", "open", "bot"]
    assert "token" not in str(info) and room["token"] not in str(info)
    bob = join(server, room["room"], "  Bob  ")
    assert bob["player"] == 1 and bob["token"] != room["token"]
    info = server.http.get(f"/api/rooms/{room['room']}").json()
    assert info["players"][1]["name"] == "Bob"
    full = server.http.post(f"/api/rooms/{room['room']}/join", json={"name": "Cy"})
    assert full.status_code == 409 and full.json()["code"] == "room_full"


def test_bad_requests_get_clear_errors(server: LiveServer) -> None:
    h = server.http
    assert h.get("/api/rooms/nope").status_code == 404
    assert h.get("/api/rooms/nope").json()["code"] == "no_room"
    cases = [
        ({"name": "", "preset": "classic", "seats": [{"kind": "human"}] * 4}, "bad_name"),
        ({"name": "A" * 30, "preset": "classic", "seats": [{"kind": "human"}] * 4},
         "bad_name"),
        ({"name": "A\x07", "preset": "classic", "seats": [{"kind": "human"}] * 4}, "bad_name"),
        ({"name": "A", "preset": "classic", "seats": [{"kind": "human"}] * 3}, "bad_seats"),
        ({"name": "A", "preset": "classic", "seats": [{"kind": "alien"}] * 4}, "bad_seats"),
        ({"name": "A", "preset": "classic", "seats": [{"kind": "bot", "bot": "nobot"}] * 4},
         "bad_bot"),
        ({"name": "A", "preset": "classic", "seats": [], "evil": 1}, "bad_message"),
        ({"name": 5, "preset": "classic", "seats": []}, "bad_message"),
        ({"name": "A", "preset": "classic", "rules": {"players": 11},
          "seats": [{"kind": "human"}] * 11}, "bad_rules"),
    ]
    for body, code in cases:
        r = h.post("/api/rooms", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["code"] == code, (body, r.json())
        assert r.json()["message"]
    r = h.post("/api/rooms", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.json()["code"] == "bad_message"
    r = h.post("/api/rooms", content=b"{" * 20000, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert h.get("/api/replays/nope/1").status_code == 404


def test_errors_come_in_the_asked_language(server: LiveServer) -> None:
    r = server.http.get("/api/rooms/nope?lang=zh_TW")
    assert r.status_code == 404
    assert "nope" in r.json()["message"] and r.json()["message"] != "there is no room nope"
    r = server.http.get("/api/rooms/nope?lang=zh_CN")
    assert r.json()["message"] != "there is no room nope"


def test_i18n_dictionary_merges_both_catalogues(server: LiveServer) -> None:
    en = server.http.get("/api/i18n/en").json()
    assert en["lang"] == "en" and en["messages"] == {}
    tw = server.http.get("/api/i18n/zh_TW").json()
    cn = server.http.get("/api/i18n/zh_CN").json()
    assert tw["messages"]["Create room"] != cn["messages"]["Create room"]
    assert tw["nplurals"] == 1
    assert server.http.get("/api/i18n/xx").json()["lang"] == "en"


def test_names_may_be_emoji_sequences_but_not_bidi_tricks(server: LiveServer) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, woman, girl joined
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    for name in (family, f"{scotland} Ann", "Zoë 🎲"):
        body = {"name": name, "preset": "classic", "seats": [{"kind": "human"}] * 4}
        r = server.http.post("/api/rooms", json=body)
        assert r.status_code == 200, (name, r.text)
        room = r.json()["room"]
        assert server.http.get(f"/api/rooms/{room}").json()["players"][0]["name"] == name
    body = {"name": "Ann\u202egnp.exe", "preset": "classic", "seats": [{"kind": "human"}] * 4}
    r = server.http.post("/api/rooms", json=body)
    assert r.status_code == 400 and r.json()["code"] == "bad_name"
