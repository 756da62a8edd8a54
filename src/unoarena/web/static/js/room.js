// A room: the lobby before the game, then the table, live over a WebSocket.
// The server is the authority: this page shows the view it is sent and offers exactly the
// legal actions listed in it; every click sends one of those strings back.
import { t, tn, currentLang, onLangChange } from "./i18n.js";
import { getJSON, postJSON, savedSeat, saveSeat, forgetSeat } from "./api.js";
import { cardEl, backEl, cardText, cardsText, colorText, COLOR_NAMES } from "./cards.js";
import { groupLegal, applyUno, distinct } from "./actions.js";
import { choose, closeDialog, isOpen, toast } from "./dialog.js";
import { el, initial } from "./util.js";

export function showRoom(app, roomId, navigate) {
  const S = {
    seat: savedSeat(roomId), // {player, token} of this browser, if it sits here
    me: null, // the welcome: {player, host, seat}
    info: null, // the room (players, rules, status)
    state: null, // the last table state
    log: [],
    unoArmed: false,
    result: null,
    matchOver: null,
    ws: null,
    closing: false,
    retry: 0,
    busy: false,
    deadline: null,
    rulesText: null,
  };
  let retryTimer = null;
  let tick = null;
  let resultTimer = null;

  // -- the connection -----------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${roomId}?lang=${currentLang()}`);
    S.ws = ws;
    ws.onopen = () => {
      S.retry = 0;
      const hello = { type: "hello", lang: currentLang() };
      if (S.seat && S.seat.token) hello.token = S.seat.token;
      ws.send(JSON.stringify(hello));
      setConnected(true);
    };
    ws.onmessage = (ev) => handle(JSON.parse(ev.data));
    ws.onclose = () => {
      if (S.ws !== ws) return;
      setConnected(false);
      if (!S.closing) {
        const wait = Math.min(8000, 400 * 2 ** S.retry++);
        retryTimer = setTimeout(connect, wait);
      }
    };
  }

  function reconnect() {
    if (S.ws) {
      const old = S.ws;
      S.ws = null;
      old.close();
    }
    connect();
  }

  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) {
      S.ws.send(JSON.stringify(msg));
      return true;
    }
    toast(t("Not connected; reconnecting…"), "error");
    return false;
  }

  function act(action) {
    if (S.busy || !S.seat) return;
    if (send({ type: "act", action, token: S.seat.token, seq: S.state ? S.state.seq : undefined })) {
      S.busy = true;
      S.unoArmed = false;
      setTimeout(() => (S.busy = false), 1500);
    }
  }

  function hostSend(type, extra = {}) {
    if (S.seat) send(Object.assign({ type, token: S.seat.token }, extra));
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        S.me = msg;
        if (msg.player === null && S.seat) {
          forgetSeat(roomId);
          S.seat = null;
        }
        break;
      case "room":
        S.info = msg;
        if (msg.status === "playing") S.matchOver = null;
        render();
        break;
      case "state":
        S.state = msg;
        S.busy = false;
        if (msg.log && msg.log.length) S.log.push(...msg.log);
        if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
        S.deadline = msg.timer ? performance.now() + msg.timer.left_ms : null;
        if (msg.status === "playing") S.matchOver = null;
        render();
        break;
      case "log":
        S.log = msg.lines.slice(-300);
        renderLog();
        break;
      case "round_over":
        S.result = msg;
        clearTimeout(resultTimer);
        resultTimer = setTimeout(() => {
          S.result = null;
          render();
        }, 6000);
        render();
        break;
      case "match_over":
        S.matchOver = msg;
        render();
        break;
      case "removed":
        forgetSeat(roomId);
        S.seat = null;
        S.me = Object.assign({}, S.me, { player: null, host: false, seat: null });
        toast(msg.message, "error", 6000);
        render();
        break;
      case "error":
        S.busy = false;
        if (msg.code === "bad_token") {
          forgetSeat(roomId);
          S.seat = null;
        }
        showError(msg);
        break;
      default:
        break;
    }
  }

  function showError(msg) {
    const box = document.getElementById("table-error");
    const text = msg.detail ? `${msg.message} (${msg.detail})` : msg.message;
    if (box) {
      box.textContent = text;
      box.classList.add("show");
      clearTimeout(box._t);
      box._t = setTimeout(() => box.classList.remove("show"), 5000);
    } else {
      toast(text, "error");
    }
  }

  function setConnected(on) {
    const b = document.getElementById("conn-banner");
    if (b) b.hidden = on;
  }

  // -- helpers ---------------------------------------------------------------------------
  const mySeat = () => (S.state ? S.state.you : null);
  const isHost = () => !!(S.me && S.me.host && S.seat);
  function seatName(seat) {
    const s = S.state && S.state.seats.find((x) => x.seat === seat);
    return s ? s.name : `#${seat + 1}`;
  }
  function playerName(player) {
    const p = S.info && S.info.players.find((x) => x.player === player);
    return p ? p.name : `#${player + 1}`;
  }

  // -- rendering ---------------------------------------------------------------------------
  function render() {
    if (!S.info) return;
    app.innerHTML = "";
    app.appendChild(el("div", { id: "conn-banner", class: "banner warn", hidden: true, text: t("Connection lost; reconnecting…") }));
    setConnected(S.ws && S.ws.readyState === WebSocket.OPEN);
    if (S.info.status === "lobby" || !S.state) renderLobby();
    else renderTable();
  }

  function shareBox() {
    const link = `${location.origin}/r/${roomId}`;
    const input = el("input", { readonly: true, value: link, id: "share-link", "aria-label": t("Room link") });
    const copy = el("button", { type: "button", class: "button", text: t("Copy link"), onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        toast(t("Link copied"));
      } catch (e) {
        input.select();
      }
    } });
    return el("div", { class: "share" }, el("span", { text: t("Invite friends with this link:") }), input, copy);
  }

  function renderLobby() {
    const info = S.info;
    const page = el("div", { class: "lobby" });
    app.appendChild(page);
    page.appendChild(el("h1", { text: t("Room {room}", { room: roomId }) }));
    page.appendChild(shareBox());
    const list = el("ul", { class: "players", id: "lobby-players" });
    for (const p of info.players) {
      const you = S.me && S.me.player === p.player;
      const li = el("li", { class: `player ${p.kind}`, "data-player": String(p.player) },
        el("span", { class: "avatar" + (p.kind === "bot" ? " bot" : ""), text: p.kind === "bot" ? "⚙" : p.kind === "open" ? "·" : initial(p.name) }),
        el("span", { class: "name", text: p.name }),
        p.player === info.host ? el("span", { class: "badge", text: t("host") }) : null,
        you ? el("span", { class: "badge you", text: t("you") }) : null,
        p.kind === "human" ? el("span", { class: "dot " + (p.connected ? "on" : "off"), title: p.connected ? t("online") : t("offline") }) : null);
      if (isHost() && p.player !== info.host) {
        const tools = el("span", { class: "tools" });
        if (p.kind === "open") tools.appendChild(el("button", { type: "button", class: "small", text: t("Give to a bot"), onclick: () => hostSend("seat", { player: p.player, kind: "bot", bot: "basic" }) }));
        if (p.kind === "bot") tools.appendChild(el("button", { type: "button", class: "small", text: t("Open for a friend"), onclick: () => hostSend("seat", { player: p.player, kind: "open" }) }));
        if (p.kind === "human") tools.appendChild(el("button", { type: "button", class: "small danger", text: t("Remove"), onclick: () => hostSend("remove", { player: p.player }) }));
        li.appendChild(tools);
      }
      list.appendChild(li);
    }
    page.appendChild(el("section", { class: "panel" }, el("h2", { text: t("Players") }), list));

    if (!S.seat) {
      if (info.players.some((p) => p.kind === "open")) page.appendChild(joinForm());
      else page.appendChild(el("p", { class: "hint", text: t("Every seat is taken; you are watching.") }));
    }
    if (isHost()) {
      const open = info.players.filter((p) => p.kind === "open").length;
      page.appendChild(el("div", { class: "start-row" },
        el("button", { type: "button", class: "primary big", id: "start-game", text: t("Start the game"), onclick: () => hostSend("start") }),
        open ? el("span", { class: "hint", text: tn("{n} open seat will be played by a bot.", "{n} open seats will be played by bots.", open) }) : null));
    } else if (S.seat) {
      page.appendChild(el("p", { class: "hint waiting", text: t("Waiting for the host to start…") }));
    }
    page.appendChild(rulesPanel());
  }

  function joinForm() {
    const name = el("input", { id: "join-name", maxlength: "24", required: true, value: localStorage.getItem("unoarena.name") || "", placeholder: t("Your name"), autocomplete: "nickname" });
    const err = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "panel join", id: "join-form" },
      el("h2", { text: t("Join this game") }),
      el("label", { class: "field" }, el("span", { text: t("Your name") }), name),
      err,
      el("button", { type: "submit", class: "primary", id: "join-button", text: t("Join") }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      localStorage.setItem("unoarena.name", name.value);
      try {
        const res = await postJSON(`/api/rooms/${roomId}/join`, { name: name.value });
        saveSeat(roomId, res.player, res.token);
        S.seat = { player: res.player, token: res.token };
        reconnect();
      } catch (ex) {
        err.textContent = ex.message;
      }
    });
    return form;
  }

  function rulesPanel() {
    const box = el("section", { class: "panel rules-summary" }, el("h2", { text: t("Rules") }));
    const info = S.info;
    const list = el("ul");
    box.appendChild(el("p", { text: `${info.rules.preset}` + (Object.keys(info.overrides).length ? " + " + Object.entries(info.overrides).map(([k, v]) => `${k}=${v}`).join(", ") : "") }));
    box.appendChild(list);
    const key = `${currentLang()}:${JSON.stringify(info.overrides)}`;
    if (S.rulesText && S.rulesText.key === key) fillRules(list, S.rulesText.data);
    else {
      postJSON("/api/rules", { preset: info.rules.preset, rules: info.overrides }).then((data) => {
        S.rulesText = { key, data };
        fillRules(list, data);
      }).catch(() => {});
    }
    return box;
  }

  function fillRules(list, data) {
    list.innerHTML = "";
    list.appendChild(el("li", { text: data.summary }));
    for (const line of data.cards) list.appendChild(el("li", { text: line }));
    const changed = Object.keys(data.overrides);
    for (const r of data.explain) if (changed.includes(r.key)) list.appendChild(el("li", { text: r.text }));
  }

  // -- the table -----------------------------------------------------------------------------
  function renderTable() {
    const st = S.state;
    const v = st.view;
    const g = groupLegal(v.legal);
    const you = mySeat();
    const n = v.players;
    const wrap = el("div", { class: "table-wrap" });
    app.appendChild(wrap);
    const main = el("div", { class: "table-main" });
    wrap.appendChild(main);

    if (you === null) {
      main.appendChild(el("div", { class: "banner info", id: "spectator-banner", text: t("You are watching this game.") }));
    }

    // opponents, from the left of this seat round the table
    const order = [];
    for (let i = 1; i <= n; i++) {
      const s = you === null ? i - 1 : (you + i) % n;
      if (s !== you) order.push(s);
    }
    const opp = el("div", { class: "opponents" });
    for (const s of order) opp.appendChild(seatBox(s, g));
    main.appendChild(opp);

    // the middle of the table
    const center = el("div", { class: "center" });
    const drawable = !!g.draw;
    const pile = el(drawable ? "button" : "div", { class: "pile draw-pile" + (drawable ? " active" : ""), id: "draw-pile", title: t("Draw pile"), "aria-label": drawLabel(g, v) });
    pile.appendChild(backEl(false));
    pile.appendChild(el("span", { class: "count", text: String(v.draw_pile_size) }));
    if (drawable) pile.addEventListener("click", () => act(g.draw.text));
    center.appendChild(pile);
    const discard = el("div", { class: "pile discard", id: "discard" });
    if (v.top) {
      const top = cardEl(v.top, { named: v.color });
      top.classList.add("top");
      discard.appendChild(top);
    }
    center.appendChild(discard);
    const info = el("div", { class: "table-info" });
    if (v.color) info.appendChild(el("div", { class: `active-color c-${v.color}`, id: "active-color" }, el("span", { class: "swatch" }), el("span", { text: t("Colour: {color}", { color: colorText(v.color) }) })));
    info.appendChild(el("div", { class: "direction", title: t("Direction of play") }, el("span", { class: "arrow " + v.direction, text: v.direction === "cw" ? "↻" : "↺" }), el("span", { text: v.direction === "cw" ? t("clockwise") : t("counter-clockwise") })));
    if (v.pending) {
      const word = v.pending.kind === "press" ? tn("{n} press", "{n} presses", v.pending.amount) : tn("{n} card", "{n} cards", v.pending.amount);
      info.appendChild(el("div", { class: "pending", id: "pending" }, t("Pending: {what} for {name}", { what: word, name: seatName(v.pending.target) })));
    }
    if (v.effect) {
      const text = v.effect.kind === "hyperspeed" ? t("Hyperspeed on {color}", { color: colorText(v.effect.color) }) : t("Only {color} until {name} plays again", { color: colorText(v.effect.color), name: seatName(v.effect.owner) });
      info.appendChild(el("div", { class: `effect c-${v.effect.color}`, text }));
    }
    center.appendChild(info);
    main.appendChild(center);

    // whose turn, what to do, the clock
    const status = el("div", { class: "status", id: "status", "aria-live": "polite" }, el("span", { text: statusText(v, g) }));
    if (st.timer) {
      status.appendChild(el("span", { class: "clock", "data-timer": "1" }));
    }
    main.appendChild(status);
    main.appendChild(el("div", { class: "table-error", id: "table-error", role: "alert" }));

    // this seat: actions and hand
    if (you !== null) main.appendChild(myArea(v, g));

    // results
    if (S.result) main.appendChild(resultBanner());
    if (S.matchOver) main.appendChild(matchOverPanel());

    // the side: scores and the story so far
    const side = el("aside", { class: "side-panel" });
    side.appendChild(scoresPanel());
    const logBox = el("ol", { class: "log", id: "log", "aria-label": t("Game log") });
    side.appendChild(el("section", { class: "panel" }, el("h2", { text: t("What happened") }), logBox));
    side.appendChild(shareBox());
    wrap.appendChild(side);
    renderLog();
    updateClock();
  }

  function drawLabel(g, v) {
    if (v.pending && g.draw) return t("Take the penalty");
    return t("Draw a card");
  }

  function statusText(v, g) {
    const you = mySeat();
    if (v.round_over) return t("The round is over.");
    if (S.info.status === "finished") return t("The match is over.");
    if (v.turn === you) {
      if (v.phase === "color") return t("Your turn: name the colour.");
      if (v.phase === "give") return tn("Your turn: choose {n} card to give.", "Your turn: choose {n} cards to give.", v.give_left || 1);
      if (v.phase === "drawn") return t("Your turn: play the drawn card or keep it.");
      if (v.pending) return g.challenge ? t("Your turn: challenge the Wild Draw Four or accept it.") : t("Your turn: answer the penalty or take it.");
      return t("Your turn: play a card or draw.");
    }
    if (g.plays.some((a) => a.verb === "jump_in")) return t("You can jump in now!");
    return t("{name}'s turn", { name: seatName(v.turn) });
  }

  function seatBox(s, g) {
    const st = S.state;
    const v = st.view;
    const info = st.seats.find((x) => x.seat === s) || { name: `#${s + 1}`, kind: "human" };
    const cls = ["seat-box"];
    if (v.turn === s && !v.round_over) cls.push("turn");
    if (info.away) cls.push("away");
    if (info.kind === "human" && !info.connected) cls.push("offline");
    const box = el("div", { class: cls.join(" "), "data-seat": String(s) });
    box.appendChild(el("div", { class: "avatar" + (info.kind === "bot" ? " bot" : ""), text: info.kind === "bot" ? "⚙" : initial(info.name) }));
    const who = el("div", { class: "who" }, el("span", { class: "name", text: info.name }));
    if (info.host) who.appendChild(el("span", { class: "badge", text: t("host") }));
    if (info.away) who.appendChild(el("span", { class: "badge warn", text: t("away: a bot plays") }));
    else if (info.kind === "human" && !info.connected) who.appendChild(el("span", { class: "badge muted", text: t("offline") }));
    if (v.teams) who.appendChild(el("span", { class: "badge", text: t("team {n}", { n: v.teams[s] + 1 }) }));
    box.appendChild(who);
    const count = v.hand_sizes[s];
    const fan = el("div", { class: "fan", "aria-label": tn("{n} card", "{n} cards", count) });
    for (let i = 0; i < Math.min(count, 12); i++) fan.appendChild(backEl(true));
    box.appendChild(fan);
    box.appendChild(el("div", { class: "count", text: tn("{n} card", "{n} cards", count) }));
    if (count === 1 && v.uno_declared[s]) box.appendChild(el("div", { class: "uno-flag", text: "UNO!" }));
    const catchA = g.catches.find((a) => a.target === s);
    if (catchA) {
      box.appendChild(el("button", { type: "button", class: "catch", "data-action": catchA.text, text: t("Catch! No UNO"), onclick: () => act(catchA.text) }));
    }
    if (st.timer && st.timer.seat === s) box.appendChild(el("div", { class: "timer-bar" }, el("span", { "data-timer-bar": "1" })));
    return box;
  }

  function myArea(v, g) {
    const you = mySeat();
    const area = el("div", { class: "me" + (v.turn === you && !v.round_over ? " turn" : ""), id: "my-area" });
    const bar = el("div", { class: "action-bar", id: "action-bar" });
    const button = (action, label, key, extraClass = "") => el("button", { type: "button", class: "act " + extraClass, "data-action": action.text, "data-key": key, onclick: () => act(action.text) }, label, key ? el("kbd", { text: key.toUpperCase() }) : null);
    if (g.draw) {
      const label = v.pending ? (v.pending.kind === "press" ? tn("Press {n} time", "Press {n} times", v.pending.amount) : tn("Take {n} card", "Take {n} cards", v.pending.amount)) : S.info.rules.edition === "attack" ? t("Press the launcher") : t("Draw");
      bar.appendChild(button(g.draw, label, "d"));
    }
    if (g.pass) bar.appendChild(button(g.pass, t("Keep it"), "k"));
    if (g.challenge) bar.appendChild(button(g.challenge, t("Challenge"), "c", "warn"));
    if (g.accept) bar.appendChild(button(g.accept, t("Accept"), "a"));
    if (g.uno) bar.appendChild(button(g.uno, t("Call UNO!"), "u", "uno"));
    else if (g.hasUnoVariant) {
      const b = el("button", { type: "button", class: "act uno toggle" + (S.unoArmed ? " armed" : ""), id: "uno-toggle", "aria-pressed": S.unoArmed ? "true" : "false", "data-key": "u", onclick: () => { S.unoArmed = !S.unoArmed; render(); } }, S.unoArmed ? t("UNO! (armed)") : t("Say UNO with this card"), el("kbd", { text: "U" }));
      bar.appendChild(b);
    }
    for (const c of g.colors) {
      bar.appendChild(el("button", { type: "button", class: `act color-choice c-${c.color}`, "data-action": c.text, onclick: () => act(c.text) }, colorText(c.color)));
    }
    if (g.catches.length) {
      for (const c of g.catches) bar.appendChild(button(c, t("Catch {name}", { name: seatName(c.target) }), "", "warn"));
    }
    area.appendChild(bar);

    const handInfo = el("div", { class: "my-info" }, el("span", { class: "name", text: seatName(you) }), el("span", { class: "count", text: tn("{n} card", "{n} cards", v.hand.length) }));
    if (v.uno_declared[you] && v.hand.length === 1) handInfo.appendChild(el("span", { class: "uno-flag", text: "UNO!" }));
    area.appendChild(handInfo);

    const hand = el("div", { class: "hand", id: "hand", role: "list" });
    const giving = g.gives.length > 0;
    v.hand.forEach((code, i) => {
      const c = cardEl(code, { tag: "button" });
      c.setAttribute("role", "listitem");
      c.dataset.index = String(i);
      const options = g.byCard.get(code) || [];
      if (options.length) c.classList.add(options.some((a) => a.verb === "jump_in") && v.turn !== you ? "jump" : "playable");
      if (giving && g.gives.some((a) => a.cards[0] === code)) c.classList.add("playable");
      if (v.drawn && v.drawn.includes(code) && v.phase === "drawn") c.classList.add("drawn");
      if (!options.length && !giving) c.classList.add("dim");
      c.addEventListener("click", () => onCard(code, c));
      hand.appendChild(c);
    });
    area.appendChild(hand);
    return area;
  }

  async function onCard(code, node) {
    const v = S.state.view;
    const g = groupLegal(v.legal);
    if (g.gives.length) {
      const give = g.gives.find((a) => a.cards[0] === code);
      if (give) act(give.text);
      return;
    }
    let opts = g.byCard.get(code) || [];
    if (!opts.length) {
      node.classList.remove("shake");
      void node.offsetWidth;
      node.classList.add("shake");
      showError({ message: v.turn === mySeat() ? t("That card cannot be played now.") : t("It is not your turn.") });
      return;
    }
    opts = applyUno(opts, S.unoArmed);
    const combos = distinct(opts.map((a) => a.cards.join("+")));
    if (combos.length > 1) {
      const pick = await choose(t("Which cards?"), combos.map((cs) => {
        const row = el("span", { class: "mini-cards" });
        for (const c of cs.split("+")) row.appendChild(cardEl(c, { small: true }));
        return { label: cardsText(cs.split("+")), value: cs, node: row };
      }));
      if (pick === null) return;
      opts = opts.filter((a) => a.cards.join("+") === pick);
    }
    const powers = distinct(opts.map((a) => a.power || "color"));
    if (powers.length > 1) {
      const labels = { color: t("Name a colour"), look: t("Look at a player's hand"), swap: t("Swap 3 cards with a player") };
      const pick = await choose(t("Wild card power"), powers.map((p, i) => ({ label: labels[p] || p, value: p, key: String(i + 1) })));
      if (pick === null) return;
      opts = opts.filter((a) => (a.power || "color") === pick);
    }
    const colors = distinct(opts.filter((a) => a.color).map((a) => a.color));
    if (colors.length > 1) {
      const pick = await chooseColor(colors);
      if (pick === null) return;
      opts = opts.filter((a) => a.color === pick);
    }
    const targets = distinct(opts.filter((a) => a.target !== null).map((a) => a.target));
    if (targets.length > 1) {
      const pick = await choose(t("Choose a player"), targets.map((s, i) => ({ label: `${seatName(s)} · ${tn("{n} card", "{n} cards", v.hand_sizes[s])}`, value: s, key: String(i + 1) })));
      if (pick === null) return;
      opts = opts.filter((a) => a.target === pick);
    }
    if (opts.length) act(opts[0].text);
  }

  function chooseColor(colors) {
    return choose(t("Choose a colour"), colors.map((c) => ({ label: colorText(c), value: c, key: c.toLowerCase(), className: `swatch-btn c-${c}` })), { className: "colors" });
  }

  function resultBanner() {
    const r = S.result;
    const box = el("div", { class: "result", id: "round-result", onclick: () => { S.result = null; render(); } });
    const title = r.winner === null ? t("The round ends void.") : t("{name} wins round {n}!", { name: playerName(r.winner_player), n: r.round });
    box.appendChild(el("h2", { text: title }));
    const list = el("ul");
    r.points.forEach((p, s) => list.appendChild(el("li", { text: t("{name}: {points} points left in hand", { name: playerName(r.players[s]), points: p }) })));
    box.appendChild(list);
    return box;
  }

  function matchOverPanel() {
    const m = S.matchOver;
    const teams = m.teams > 0;
    const names = (i) => (teams ? t("team {n}", { n: i + 1 }) : playerName(i));
    const box = el("div", { class: "match-over panel", id: "match-over" });
    box.appendChild(el("h2", { text: tn("Winner: {names}", "Winners: {names}", m.winners.length, { names: m.winners.map(names).join(", ") }) }));
    const list = el("ol");
    m.scores.map((s, i) => [s, i]).sort((a, b) => (m.scoring === "penalty" ? a[0] - b[0] : b[0] - a[0])).forEach(([s, i]) => list.appendChild(el("li", { text: `${names(i)}: ${s}` })));
    box.appendChild(list);
    const row = el("div", { class: "buttons" });
    if (isHost()) row.appendChild(el("button", { type: "button", class: "primary", id: "play-again", text: t("Play again"), onclick: () => hostSend("again") }));
    else row.appendChild(el("span", { class: "hint", text: t("The host can start another match.") }));
    row.appendChild(el("a", { class: "button", href: `/replay/${roomId}/${m.match}`, "data-link": true, text: t("Watch the replay") }));
    row.appendChild(el("a", { class: "button", href: "/", "data-link": true, text: t("New game") }));
    box.appendChild(row);
    return box;
  }

  function scoresPanel() {
    const st = S.state;
    const box = el("section", { class: "panel scores" }, el("h2", { text: t("Scores") }));
    const rules = S.info.rules;
    const goal = rules.rounds ? tn("{n} round", "{n} rounds", rules.rounds) : t("to {n} points", { n: rules.target_score });
    const shown = S.info.status === "finished" ? Math.max(1, st.round) : st.round + 1;
    box.appendChild(el("p", { class: "hint", text: `${rules.preset} · ${goal} · ${t("round {n}", { n: shown })}` }));
    const list = el("ul");
    const teams = rules.teams ? rules.players / rules.teams : 0;
    st.match_scores.forEach((s, i) => list.appendChild(el("li", {}, el("span", { text: teams ? t("team {n}", { n: i + 1 }) : playerName(i) }), el("strong", { text: String(s) }))));
    box.appendChild(list);
    return box;
  }

  function renderLog() {
    const box = document.getElementById("log");
    if (!box) return;
    box.innerHTML = "";
    for (const line of S.log.slice(-120)) box.appendChild(el("li", { text: line }));
    box.scrollTop = box.scrollHeight;
  }

  function updateClock() {
    if (S.deadline === null || !S.state || !S.state.timer) return;
    const left = Math.max(0, S.deadline - performance.now());
    for (const c of document.querySelectorAll("[data-timer]")) c.textContent = `${Math.ceil(left / 1000)} s`;
    const frac = Math.max(0, Math.min(1, left / (S.state.timer.total * 1000)));
    for (const b of document.querySelectorAll("[data-timer-bar]")) b.style.width = `${frac * 100}%`;
  }

  // -- keyboard ----------------------------------------------------------------------------
  function onKey(e) {
    if (isOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const cards = [...document.querySelectorAll("#hand .card")];
    const idx = cards.indexOf(document.activeElement);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!cards.length) return;
      e.preventDefault();
      const next = idx < 0 ? 0 : (idx + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
      cards[next].focus();
      return;
    }
    if (/^[0-9]$/.test(e.key) && cards.length) {
      const i = e.key === "0" ? 9 : Number(e.key) - 1;
      if (cards[i]) {
        e.preventDefault();
        cards[i].focus();
        cards[i].click();
      }
      return;
    }
    const k = e.key.toLowerCase();
    if (k === "?") {
      showHelp();
      return;
    }
    const btn = document.querySelector(`#action-bar [data-key="${k}"]`);
    if (btn) {
      e.preventDefault();
      btn.click();
    } else if (k === "c") {
      const c = document.querySelector(".seat-box .catch");
      if (c) c.click();
    }
  }

  function showHelp() {
    const body = el("dl", { class: "keys" });
    const rows = [["← →", t("move between your cards")], ["Enter", t("play the card in focus")], ["1–9, 0", t("play a card by its place in your hand")], ["D", t("draw")], ["K", t("keep the drawn card")], ["U", t("say UNO")], ["C", t("challenge, or catch a player without UNO")], ["A", t("accept")], ["Esc", t("close a dialog")]];
    for (const [k, d] of rows) body.append(el("dt", {}, el("kbd", { text: k })), el("dd", { text: d }));
    choose(t("Keyboard"), [], { body });
  }

  // -- start ---------------------------------------------------------------------------------
  app.appendChild(el("p", { class: "loading", text: t("Loading…") }));
  getJSON(`/api/rooms/${roomId}`)
    .then((info) => {
      S.info = info;
      render();
      connect();
    })
    .catch((ex) => {
      app.innerHTML = "";
      app.appendChild(el("div", { class: "panel" }, el("h1", { text: t("Room not found") }), el("p", { text: ex.message }), el("a", { href: "/", "data-link": true, class: "button", text: t("New game") })));
    });
  document.addEventListener("keydown", onKey);
  tick = setInterval(updateClock, 250);
  const unlisten = onLangChange(() => {
    send({ type: "lang", lang: currentLang() });
    render();
  });

  return () => {
    S.closing = true;
    clearTimeout(retryTimer);
    clearTimeout(resultTimer);
    clearInterval(tick);
    unlisten();
    closeDialog(null);
    document.removeEventListener("keydown", onKey);
    if (S.ws) S.ws.close();
  };
}

export { COLOR_NAMES, cardText };
