// A room: the lobby before the game, then the table, live over a WebSocket.
// The server is the authority: this page shows the view it is sent and offers exactly the
// legal actions listed in it; every click sends one of those strings back.
//
// Rendering is incremental (Preact through htm, vendored, no build step): every message
// describes the whole page again, and only what changed is touched in the document. A name
// being typed, the card in keyboard focus and the live region a screen reader listens to are
// the same elements before and after an opponent's move.
import { html, render as draw } from "./vendor/preact-htm.js";
import { t, tn, currentLang, onLangChange } from "./i18n.js";
import { getJSON, postJSON, savedSeat, saveSeat, forgetSeat } from "./api.js";
import { cardEl, backEl, cardNode, backNode, cardText, cardsText, colorText, COLOR_NAMES } from "./cards.js";
import { groupLegal, applyUno, distinct } from "./actions.js";
import { choose, closeDialog, isOpen, toast } from "./dialog.js";
import { el, initial, plainRules } from "./util.js";
import { coachButtons, showRule } from "./coach.js";

const LOG_KEEP = 300;
const LOG_SHOWN = 150;
const RESULT_MS = 7000;

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A seat token from a personal rejoin link (`/r/<room>#seat=<token>`), kept for the room and
 * taken out of the address bar so that it is not shared by accident. */
function takeSeatLink(roomId) {
  const m = location.hash.match(/^#seat=([A-Za-z0-9_-]{8,64})$/);
  if (!m) return;
  saveSeat(roomId, null, m[1]);
  history.replaceState(history.state, "", location.pathname + location.search);
}

export function showRoom(app, roomId, navigate) {
  takeSeatLink(roomId);
  const root = el("div", { class: "room-root" });
  app.appendChild(root);
  const S = {
    seat: savedSeat(roomId), // {player, token} of this browser, if it sits here
    me: null, // the welcome: {player, host, seat}
    info: null, // the room (players, rules, status)
    missing: null, // why the room could not be loaded
    state: null, // the last table state
    log: [], // [{id, text}]
    logId: 0,
    unoArmed: false,
    result: null,
    matchOver: null,
    ws: null,
    lost: false,
    closing: false,
    retry: 0,
    busy: false,
    deadline: null,
    roundEnd: null, // HR-BLITZ: when the round's time runs out (performance.now() clock)
    rulesText: null,
    joinName: localStorage.getItem("unoarena.name") || "",
    joinError: "",
    joining: false,
    error: "",
    notice: null, // why the room cannot go on now (the server lost its database), from the server
  };
  let retryTimer = null;
  let tick = null;
  let resultTimer = null;
  let errorTimer = null;
  let motions = 0;

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
      S.lost = false;
      S.notice = null; // the server says it again if it still holds
      update();
    };
    ws.onmessage = (ev) => handle(JSON.parse(ev.data));
    ws.onclose = () => {
      if (S.ws !== ws) return;
      S.lost = true;
      update();
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
    S.lastRefusal = null;
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

  function addLog(lines, replace = false) {
    const items = lines.map((text) => ({ id: ++S.logId, text }));
    S.log = replace ? items : S.log.concat(items);
    if (S.log.length > LOG_KEEP) S.log = S.log.slice(-LOG_KEEP);
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        S.me = msg;
        if (msg.player === null && S.seat) {
          forgetSeat(roomId);
          S.seat = null;
        } else if (msg.player !== null && S.seat && S.seat.player !== msg.player) {
          S.seat = { player: msg.player, token: S.seat.token }; // arrived by a rejoin link
          saveSeat(roomId, msg.player, S.seat.token);
        }
        update();
        break;
      case "room":
        S.info = msg;
        if (msg.status === "playing") S.matchOver = null;
        update();
        break;
      case "state": {
        const before = snapshot();
        S.state = msg;
        S.busy = false;
        if (msg.log && msg.log.length) addLog(msg.log);
        S.deadline = msg.timer ? performance.now() + msg.timer.left_ms : null;
        S.roundEnd = msg.round_clock ? performance.now() + msg.round_clock.left_ms : null;
        if (msg.status === "playing") S.matchOver = null;
        update();
        animate(before, msg);
        break;
      }
      case "log":
        addLog(msg.lines, true);
        update();
        break;
      case "round_over":
        S.result = msg;
        clearTimeout(resultTimer);
        resultTimer = setTimeout(() => {
          S.result = null;
          update();
        }, RESULT_MS);
        update();
        break;
      case "match_over":
        S.matchOver = msg;
        S.result = null;
        update();
        break;
      case "removed":
        forgetSeat(roomId);
        S.seat = null;
        S.me = Object.assign({}, S.me, { player: null, host: false, seat: null });
        toast(msg.message, "error", 6000);
        update();
        break;
      case "notice":
        S.notice = msg.message || null;
        update();
        break;
      case "error":
        S.busy = false;
        if (msg.code === "no_database" || msg.code === "log_broken") {
          S.notice = msg.message; // the banner says it, for as long as it lasts
          update();
          break;
        }
        if (msg.code === "bad_token") {
          forgetSeat(roomId);
          S.seat = null;
        }
        S.lastRefusal = msg.code; // the Rule? button explains it
        showError(msg);
        break;
      default:
        break;
    }
  }

  function showError(msg) {
    const text = msg.detail ? `${msg.message} (${msg.detail})` : msg.message;
    if (!S.state || !S.info || S.info.status === "lobby") {
      toast(text, "error");
      return;
    }
    S.error = text;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => {
      S.error = "";
      update();
    }, 5000);
    update();
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
  const roomLink = () => `${location.origin}/r/${roomId}`;
  const rejoinLink = () => `${roomLink()}#seat=${S.seat.token}`;

  async function copy(text, done) {
    try {
      await navigator.clipboard.writeText(text);
      toast(done);
    } catch (e) {
      toast(text, "info", 12000); // no clipboard (an insecure page): show it to copy by hand
    }
  }

  function showLink(title, link, hint) {
    const input = el("input", { readonly: true, value: link, class: "link-field", "aria-label": title });
    input.addEventListener("focus", () => input.select());
    const body = el("div", { class: "link-box" }, el("p", { text: hint }), input);
    choose(title, [{ label: t("Copy link"), value: "copy", key: "c" }], { body }).then((v) => {
      if (v === "copy") copy(link, t("Link copied"));
    });
  }

  async function handOver(player) {
    try {
      const res = await postJSON(`/api/rooms/${roomId}/seat-link`, { token: S.seat.token, player });
      const name = playerName(player);
      showLink(t("A new link for {name}", { name }), location.origin + res.url,
        t("Send it to {name}: it opens their seat on their new device. Their old link no longer works.", { name }));
    } catch (ex) {
      toast(ex.message, "error");
    }
  }

  // -- rendering ---------------------------------------------------------------------------
  function update() {
    const atTable = !!(S.info && S.info.status !== "lobby" && S.state);
    const log = root.querySelector("#log");
    const stick = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    document.body.classList.toggle("at-table", atTable);
    if (S.info) document.body.dataset.edition = S.info.rules.edition;
    draw(view(atTable), root);
    const after = root.querySelector("#log");
    if (after && stick) after.scrollTop = after.scrollHeight;
    fitHand();
    updateClock();
  }

  function view(atTable) {
    if (S.missing) {
      return html`<div class="panel"><h1>${t("Room not found")}</h1><p>${S.missing}</p>
        <a href="/" data-link class="button">${t("New game")}</a></div>`;
    }
    if (!S.info) return html`<p class="loading">${t("Loading…")}</p>`;
    return html`<div class="room">
      ${atTable ? null : banners()}
      ${atTable ? tableView() : lobbyView()}
    </div>`;
  }

  /** Why nothing moves: the connection is lost, or the server says the room cannot go on now
   * (it lost its database). At the table they sit on the felt, above the hand, so that the
   * hand stays on screen. */
  function banners() {
    return html`<div id="conn-banner" class="banner warn" hidden=${!S.lost}>${t("Connection lost; reconnecting…")}</div>
      <div id="notice-banner" class="banner warn" role="status" hidden=${S.lost || !S.notice}>${S.notice || ""}</div>`;
  }

  function shareBox() {
    const link = roomLink();
    return html`<div class="share">
      <span>${t("Invite friends with this link:")}</span>
      <input readonly value=${link} id="share-link" aria-label=${t("Room link")}
        onFocus=${(e) => e.target.select()} />
      <button type="button" class="button" onClick=${() => copy(link, t("Link copied"))}>${t("Copy link")}</button>
    </div>`;
  }

  /** Your seat on another device: the personal rejoin link. */
  function rejoinBox() {
    if (!S.seat || !S.seat.token) return null;
    return html`<div class="rejoin">
      <button type="button" class="button" id="copy-rejoin"
        onClick=${() => copy(rejoinLink(), t("Your rejoin link is copied: open it on your other device."))}>
        ${t("Copy my rejoin link")}</button>
      <span class="hint">${t("Opens your seat on another device. Keep it to yourself: whoever has it plays for you.")}</span>
    </div>`;
  }

  function lobbyView() {
    const info = S.info;
    const open = info.players.filter((p) => p.kind === "open").length;
    return html`<div class="lobby" key="lobby">
      <h1>${t("Room {room}", { room: roomId })}</h1>
      ${shareBox()}
      <section class="panel">
        <h2>${t("Players")}</h2>
        <ul class="players" id="lobby-players">${info.players.map(lobbyPlayer)}</ul>
      </section>
      ${!S.seat && open ? joinForm() : null}
      ${!S.seat && !open ? html`<p class="hint">${t("Every seat is taken; you are watching.")}</p>` : null}
      ${isHost()
        ? html`<div class="start-row">
            <button type="button" class="primary big" id="start-game" onClick=${() => hostSend("start")}>${t("Start the game")}</button>
            ${open ? html`<span class="hint">${tn("{n} open seat will be played by a bot.", "{n} open seats will be played by bots.", open)}</span>` : null}
          </div>`
        : S.seat ? html`<p class="hint waiting">${t("Waiting for the host to start…")}</p>` : null}
      ${rejoinBox()}
      ${rulesPanel()}
    </div>`;
  }

  function lobbyPlayer(p) {
    const info = S.info;
    const you = S.me && S.me.player === p.player;
    const avatar = p.kind === "bot" ? "⚙" : p.kind === "open" ? "·" : initial(p.name);
    const tools = isHost() && p.player !== info.host;
    return html`<li key=${p.player} class=${`player ${p.kind}`} data-player=${String(p.player)}>
      <span class=${"avatar" + (p.kind === "bot" ? " bot" : "")}>${avatar}</span>
      <span class="name">${p.name}</span>
      ${p.player === info.host ? html`<span class="badge">${t("host")}</span>` : null}
      ${you ? html`<span class="badge you">${t("you")}</span>` : null}
      ${p.kind === "human" ? html`<span class=${"dot " + (p.connected ? "on" : "off")} title=${p.connected ? t("online") : t("offline")}></span>` : null}
      ${tools ? html`<span class="tools">
        ${p.kind === "open" ? html`<button type="button" class="small" onClick=${() => hostSend("seat", { player: p.player, kind: "bot", bot: "basic" })}>${t("Give to a bot")}</button>` : null}
        ${p.kind === "bot" ? html`<button type="button" class="small" onClick=${() => hostSend("seat", { player: p.player, kind: "open" })}>${t("Open for a friend")}</button>` : null}
        ${p.kind === "human" ? html`<button type="button" class="small hand-over" onClick=${() => handOver(p.player)}>${t("New link")}</button>` : null}
        ${p.kind === "human" ? html`<button type="button" class="small danger" onClick=${() => hostSend("remove", { player: p.player })}>${t("Remove")}</button>` : null}
      </span>` : null}
    </li>`;
  }

  function joinForm() {
    return html`<form class="panel join" id="join-form" onSubmit=${join}>
      <h2>${t("Join this game")}</h2>
      <label class="field"><span>${t("Your name")}</span>
        <input id="join-name" maxlength="48" required value=${S.joinName}
          placeholder=${t("Your name")} autocomplete="nickname"
          onInput=${(e) => (S.joinName = e.target.value)} />
      </label>
      <p class="error" role="alert">${S.joinError}</p>
      <button type="submit" class="primary" id="join-button" disabled=${S.joining}>${t("Join")}</button>
    </form>`;
  }

  async function join(e) {
    e.preventDefault();
    if (S.joining) return;
    localStorage.setItem("unoarena.name", S.joinName);
    S.joining = true;
    S.joinError = "";
    update();
    try {
      const res = await postJSON(`/api/rooms/${roomId}/join`, { name: S.joinName });
      saveSeat(roomId, res.player, res.token);
      S.seat = { player: res.player, token: res.token };
      // the seat is ours now: show it so at once, not only when the room's next message
      // comes (the page would say "waiting" beside a seat that still looks open)
      const mine = S.info && S.info.players.find((p) => p.player === res.player);
      if (mine && mine.kind === "open") Object.assign(mine, { kind: "human", name: res.name, connected: true });
      reconnect();
    } catch (ex) {
      S.joinError = ex.message;
    }
    S.joining = false;
    update();
  }

  /** The room's rules in words, without rule-book identifiers (those stay on the rules
   * page of the documentation). */
  function rulesPanel() {
    const data = rulesData();
    return html`<section class="panel rules-summary">
      <h2>${t("Rules")}</h2>
      ${data ? html`<p>${plainRules(data.summary)}</p>
        <ul>
          ${data.cards.map((line, i) => html`<li key=${"c" + i}>${plainRules(line)}</li>`)}
          ${data.explain.filter((r) => r.key in data.overrides && r.key !== "players")
            .map((r) => html`<li key=${r.key}>${plainRules(r.text)}</li>`)}
        </ul>` : html`<p class="loading">${t("Loading…")}</p>`}
    </section>`;
  }

  function rulesData() {
    const info = S.info;
    const key = `${currentLang()}:${info.rules.preset}:${JSON.stringify(info.overrides)}`;
    if (S.rulesText && S.rulesText.key === key) return S.rulesText.data;
    if (!S.rulesText || S.rulesText.pending !== key) {
      S.rulesText = Object.assign({}, S.rulesText, { pending: key });
      postJSON("/api/rules", { preset: info.rules.preset, rules: info.overrides }).then((data) => {
        S.rulesText = { key, data };
        update();
      }).catch(() => {});
    }
    return S.rulesText && S.rulesText.data ? S.rulesText.data : null;
  }

  // -- the table -----------------------------------------------------------------------------
  function tableView() {
    const st = S.state;
    const v = st.view;
    const g = groupLegal(v.legal);
    const you = mySeat();
    const n = v.players;
    const order = [];
    for (let i = 1; i <= n; i++) {
      const s = you === null ? i - 1 : (you + i) % n;
      if (s !== you) order.push(s);
    }
    const drawable = !!g.draw;
    return html`<div class="table-wrap" key="table">
      <div class="table-main" id="table-main">
        ${banners()}
        ${you === null ? html`<div class="banner info" id="spectator-banner">${t("You are watching this game.")}</div>` : null}
        <div class="opponents" id="opponents">${order.map((s) => seatBox(s, g))}</div>
        <p class="last-line" id="last-line" aria-hidden="true">${S.log.length ? S.log[S.log.length - 1].text : ""}</p>
        <div class="center">
          <button type="button" class=${"pile draw-pile" + (drawable ? " active" : "")} id="draw-pile"
            disabled=${!drawable} title=${t("Draw pile")} aria-label=${drawLabel(g, v)}
            onClick=${() => drawable && act(g.draw.text)}>
            ${backNode("back", false)}
            <span class="count">${v.draw_pile_size}</span>
          </button>
          <div class="pile discard" id="discard">
            ${v.top ? cardNode(v.top, { named: v.color, cls: "top" }) : null}
          </div>
          ${S.result ? resultBox() : tableInfo(v)}
        </div>
        <div class="status" id="status" role="status" aria-live="polite">
          <span id="status-text">${statusText(v, g)}</span>
          ${st.timer ? html`<span class="clock" data-timer="1"></span>` : null}
          ${st.round_clock ? html`<span class="clock round" data-round-clock="1"></span>` : null}
        </div>
        <div class=${"table-error" + (S.error ? " show" : "")} id="table-error" role="alert">${S.error}</div>
        ${you !== null ? myArea(v, g) : null}
        ${S.matchOver ? matchOverPanel() : null}
      </div>
      <aside class="side-panel">
        ${scoresPanel()}
        <section class="panel log-panel">
          <h2>${t("What happened")}</h2>
          <ol class="log" id="log" aria-label=${t("Game log")} tabindex="0">
            ${S.log.slice(-LOG_SHOWN).map((l) => html`<li key=${l.id}>${l.text}</li>`)}
          </ol>
        </section>
        <details class="panel room-panel">
          <summary>${t("Invite, rejoin and rules")}</summary>
          ${shareBox()}
          ${rejoinBox()}
          ${isHost() ? handOverList() : null}
          ${rulesPanel()}
        </details>
      </aside>
    </div>`;
  }

  function handOverList() {
    const people = S.info.players.filter((p) => p.kind === "human" && p.player !== S.info.host);
    if (!people.length) return null;
    return html`<div class="hand-overs">
      <p class="hint">${t("Someone changed device? Give them a new link to their seat:")}</p>
      ${people.map((p) => html`<button key=${p.player} type="button" class="small hand-over"
        data-player=${String(p.player)} onClick=${() => handOver(p.player)}>${t("New link for {name}", { name: p.name })}</button>`)}
    </div>`;
  }

  function tableInfo(v) {
    let pending = null;
    if (v.pending) {
      const word = v.pending.kind === "press" ? tn("{n} press", "{n} presses", v.pending.amount) : tn("{n} card", "{n} cards", v.pending.amount);
      pending = html`<div class="pending" id="pending">${t("Pending: {what} for {name}", { what: word, name: seatName(v.pending.target) })}</div>`;
    }
    let effect = null;
    if (v.effect) {
      const text = v.effect.kind === "hyperspeed" ? t("Hyperspeed on {color}", { color: colorText(v.effect.color) }) : t("Only {color} until {name} plays again", { color: colorText(v.effect.color), name: seatName(v.effect.owner) });
      effect = html`<div class=${`effect c-${v.effect.color}`}>${text}</div>`;
    }
    return html`<div class="table-info" key="info">
      ${v.color ? html`<div class=${`active-color c-${v.color}`} id="active-color"><span class="swatch"></span><span>${t("Colour: {color}", { color: colorText(v.color) })}</span></div>` : null}
      <div class="direction" title=${t("Direction of play")}>
        <span class=${"arrow " + v.direction}>${v.direction === "cw" ? "↻" : "↺"}</span>
        <span>${v.direction === "cw" ? t("clockwise") : t("counter-clockwise")}</span>
      </div>
      ${pending}
      ${effect}
    </div>`;
  }

  function drawLabel(g, v) {
    if (v.pending && g.draw) return t("Take the penalty");
    return t("Draw a card");
  }

  function statusText(v, g) {
    const you = mySeat();
    if (S.info.status === "finished") return t("The match is over.");
    if (v.round_over) return t("The round is over.");
    if (v.turn === you) {
      if (v.phase === "color") return t("Your turn: name the colour.");
      if (v.phase === "give") return tn("Your turn: choose {n} card to give.", "Your turn: choose {n} cards to give.", v.give_left || 1);
      if (v.phase === "drawn") return t("Your turn: play the drawn card or keep it.");
      if (v.pending) return g.challenge ? t("Your turn: challenge the Wild Draw Four or accept it.") : t("Your turn: answer the penalty or take it.");
      return t("Your turn: play a card or draw.");
    }
    if (g.plays.some((a) => a.verb === "jump_in")) return t("You can jump in now!");
    if (g.catches.length) return t("{name} forgot to call UNO: catch them!", { name: seatName(g.catches[0].target) });
    return t("{name}'s turn", { name: seatName(v.turn) });
  }

  function seatBox(s, g) {
    const st = S.state;
    const v = st.view;
    const info = st.seats.find((x) => x.seat === s) || { name: `#${s + 1}`, kind: "human" };
    const turn = v.turn === s && !v.round_over;
    const cls = ["seat-box"];
    if (turn) cls.push("turn");
    if (info.away) cls.push("away");
    if (info.kind === "human" && !info.connected) cls.push("offline");
    const count = v.hand_sizes[s];
    const exposed = g.catches.some((a) => a.target === s);
    const backs = [];
    // HR-OPEN: a hand small enough lies face up for everyone
    const open = v.open_hands && s !== v.seat ? v.open_hands[s] : null;
    if (open) open.forEach((code, i) => backs.push(cardNode(code, { small: true, key: `open-${i}` })));
    else for (let i = 0; i < Math.min(count, 12); i++) backs.push(backNode(i));
    return html`<div key=${s} class=${cls.join(" ")} data-seat=${String(s)}
        aria-label=${`${info.name}: ${tn("{n} card", "{n} cards", count)}`}>
      <div class=${"avatar" + (info.kind === "bot" ? " bot" : "")} aria-hidden="true">${info.kind === "bot" ? "⚙" : initial(info.name)}</div>
      <div class="who">
        <span class="name">${info.name}</span>
        ${info.host ? html`<span class="badge">${t("host")}</span>` : null}
        ${info.away ? html`<span class="badge warn">${t("away: a bot plays")}</span>` : info.kind === "human" && !info.connected ? html`<span class="badge muted">${t("offline")}</span>` : null}
        ${v.teams ? html`<span class="badge">${t("team {n}", { n: v.teams[s] + 1 })}</span>` : null}
      </div>
      <div class=${"fan" + (open ? " open" : "")} aria-hidden=${open ? undefined : "true"}>${backs}</div>
      <div class="count"><span class="n">${count}</span><span class="word">${tn("{n} card", "{n} cards", count)}</span></div>
      ${count === 1 && v.uno_declared[s] ? html`<div class="uno-flag">UNO!</div>` : null}
      ${exposed ? html`<div class="uno-flag missed">${t("No UNO!")}</div>` : null}
      ${st.timer && st.timer.seat === s ? html`<div class="timer-bar"><span data-timer-bar="1"></span></div>` : null}
    </div>`;
  }

  function myArea(v, g) {
    const you = mySeat();
    const button = (action, label, key, extra = "") => html`<button key=${action.text} type="button"
        class=${"act " + extra} data-action=${action.text} data-key=${key || undefined}
        onClick=${() => act(action.text)}>${label}${key ? html`<kbd>${key.toUpperCase()}</kbd>` : null}</button>`;
    const bar = [];
    if (g.draw) {
      const label = v.pending ? (v.pending.kind === "press" ? tn("Press {n} time", "Press {n} times", v.pending.amount) : tn("Take {n} card", "Take {n} cards", v.pending.amount)) : S.info.rules.edition === "attack" ? t("Press the launcher") : t("Draw");
      bar.push(button(g.draw, label, "d"));
    }
    if (g.pass) bar.push(button(g.pass, t("Keep it"), "k"));
    if (g.challenge) bar.push(button(g.challenge, t("Challenge"), "c", "warn"));
    if (g.accept) bar.push(button(g.accept, t("Accept"), "a"));
    if (g.uno) bar.push(button(g.uno, t("Call UNO!"), "u", "uno"));
    else if (g.hasUnoVariant) {
      bar.push(html`<button key="uno-toggle" type="button" class=${"act uno toggle" + (S.unoArmed ? " armed" : "")}
        id="uno-toggle" aria-pressed=${S.unoArmed ? "true" : "false"} data-key="u"
        onClick=${() => { S.unoArmed = !S.unoArmed; update(); }}>
        ${S.unoArmed ? t("UNO! (armed)") : t("Say UNO with this card")}<kbd>U</kbd></button>`);
    }
    for (const c of g.colors) {
      bar.push(html`<button key=${c.text} type="button" class=${`act color-choice c-${c.color}`}
        data-action=${c.text} onClick=${() => act(c.text)}>${colorText(c.color)}</button>`);
    }
    g.catches.forEach((c, i) => {
      bar.push(button(c, t("Catch {name}", { name: seatName(c.target) }), !g.challenge && i === 0 ? "c" : "", "warn catch"));
    });
    bar.push(...coachButtons(roomId, S));

    const giving = g.gives.length > 0;
    const seen = new Map();
    const cards = v.hand.map((code, i) => {
      const k = seen.get(code) || 0;
      seen.set(code, k + 1);
      const options = g.byCard.get(code) || [];
      let cls = "";
      if (options.length) cls = options.some((a) => a.verb === "jump_in") && v.turn !== you ? "jump" : "playable";
      if (giving && g.gives.some((a) => a.cards[0] === code)) cls = "playable";
      if (v.drawn && v.drawn.includes(code) && v.phase === "drawn") cls += " drawn";
      if (!options.length && !giving) cls += " dim";
      return cardNode(code, {
        button: true, key: `${code}:${k}`, cls,
        attrs: { role: "listitem", "data-index": String(i), "data-key": `${code}:${k}`,
          onContextMenu: (e) => { e.preventDefault(); showRule(S.info, { card: code }); } },
        onClick: (e) => onCard(code, e.currentTarget),
      });
    });
    const myTurn = v.turn === you && !v.round_over;
    return html`<div class=${"me" + (myTurn ? " turn" : "")} id="my-area">
      <div class="action-bar" id="action-bar">${bar}</div>
      <div class="my-info">
        <span class="name">${seatName(you)}</span>
        <span class="count">${tn("{n} card", "{n} cards", v.hand.length)}</span>
        ${v.uno_declared[you] && v.hand.length === 1 ? html`<span class="uno-flag">UNO!</span>` : null}
      </div>
      <div class="hand" id="hand" role="list" aria-label=${t("Your hand")}>${cards}</div>
    </div>`;
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

  /** The round's result, beside the piles: the next round's deal stays in sight. */
  function resultBox() {
    const r = S.result;
    const title = r.winner === null ? t("The round ends void.")
      : r.reason === "time" ? t("Time is up: {name} holds the fewest points and wins round {n}!", { name: playerName(r.winner_player), n: r.round })
      : t("{name} wins round {n}!", { name: playerName(r.winner_player), n: r.round });
    const dismiss = () => {
      S.result = null;
      update();
    };
    return html`<div class="result" id="round-result" key="result" role="status">
      <button type="button" class="close" aria-label=${t("Close")} title=${t("Close")} onClick=${dismiss}>×</button>
      <h2>${title}</h2>
      <p class="hint">${t("Points left in hand")}</p>
      <ul>${r.points.map((p, s) => html`<li key=${s}><span>${playerName(r.players[s])}</span><strong>${p}</strong></li>`)}</ul>
      ${(r.out || []).map((p) => html`<p class="out" key=${`out-${p}`}>${t("{name} is out of the match.", { name: playerName(p) })}</p>`)}
    </div>`;
  }

  function matchOverPanel() {
    const m = S.matchOver;
    const teams = m.teams > 0;
    const names = (i) => (teams ? t("team {n}", { n: i + 1 }) : playerName(i));
    const ranked = m.scores.map((s, i) => [s, i]).sort((a, b) => (m.scoring === "penalty" ? a[0] - b[0] : b[0] - a[0]));
    return html`<div class="match-over panel" id="match-over" role="dialog" aria-label=${t("The match is over.")}>
      <h2>${tn("Winner: {names}", "Winners: {names}", m.winners.length, { names: m.winners.map(names).join(", ") })}</h2>
      <ol>${ranked.map(([s, i]) => html`<li key=${i}>${`${names(i)}: ${s}`}</li>`)}</ol>
      <div class="buttons">
        ${isHost()
          ? html`<button type="button" class="primary" id="play-again" onClick=${() => hostSend("again")}>${t("Play again")}</button>`
          : html`<span class="hint">${t("The host can start another match.")}</span>`}
        <a class="button" href=${`/replay/${roomId}/${m.match}`} data-link>${t("Watch the replay")}</a>
        <a class="button" href="/" data-link>${t("New game")}</a>
      </div>
    </div>`;
  }

  function scoresPanel() {
    const st = S.state;
    const rules = S.info.rules;
    const goal = rules.rounds ? tn("{n} round", "{n} rounds", rules.rounds) : t("to {n} points", { n: rules.target_score });
    const shown = S.info.status === "finished" ? Math.max(1, st.round) : st.round + 1;
    const data = S.rulesText && S.rulesText.data;
    const title = data ? plainRules(data.summary).split(/[:：(（]/)[0].trim() : rules.preset;
    const teams = rules.teams ? rules.players / rules.teams : 0;
    return html`<section class="panel scores" id="scores">
      <h2>${t("Scores")}</h2>
      <p class="hint">${`${title} · ${goal} · ${t("round {n}", { n: shown })}`}</p>
      <ul>${st.match_scores.map((s, i) => html`<li key=${i} data-player=${String(i)}>
        <span>${teams ? t("team {n}", { n: i + 1 }) : playerName(i)}</span><strong>${String(s)}</strong></li>`)}</ul>
    </section>`;
  }

  // -- layout and motion --------------------------------------------------------------------
  /** Overlap the cards of a long hand so that it stays one row inside its panel. */
  function fitHand() {
    const hand = root.querySelector("#hand");
    if (!hand) return;
    const cards = hand.children;
    const n = cards.length;
    if (!n) return;
    const w = cards[0].offsetWidth;
    const room = hand.clientWidth - 12;
    let gap = 6;
    if (n > 1 && n * w + (n - 1) * gap > room) gap = Math.max(-w * 0.62, (room - w) / (n - 1) - w);
    hand.style.setProperty("--gap", `${Math.floor(gap)}px`);
  }

  function rectOf(node) {
    return node ? node.getBoundingClientRect() : null;
  }

  /** Where things are before an update, so that what changed can move from there. */
  function snapshot() {
    const hand = new Map();
    for (const c of root.querySelectorAll("#hand .card")) hand.set(c.dataset.key, rectOf(c));
    const seats = new Map();
    for (const b of root.querySelectorAll(".seat-box")) seats.set(Number(b.dataset.seat), rectOf(b));
    return { hand, seats, pile: rectOf(root.querySelector("#draw-pile")), me: rectOf(root.querySelector("#my-area")) };
  }

  function moved() {
    root.dataset.motions = String(++motions);
  }

  function fromTo(from, to, scale) {
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    return `translate(${Math.round(dx)}px, ${Math.round(dy)}px) scale(${scale})`;
  }

  /** A played card travels to the pile, drawn cards arrive in a hand (reduced motion: none). */
  function animate(before, msg) {
    if (reducedMotion() || !before.pile) return;
    const pile = rectOf(root.querySelector("#draw-pile"));
    const you = msg.you;
    const events = msg.events || [];
    const handNow = [...root.querySelectorAll("#hand .card")];
    const arrived = handNow.filter((c) => !before.hand.has(c.dataset.key));
    const play = events.find((e) => e.t === "play" && e.cards && e.cards.length);
    const top = root.querySelector("#discard .card");
    if (play && top) {
      let from = null;
      if (play.seat === you) {
        const key = [...before.hand.keys()].reverse().find((k) => k.startsWith(play.cards[play.cards.length - 1] + ":")
          && !handNow.some((c) => c.dataset.key === k));
        from = (key && before.hand.get(key)) || before.me;
      } else {
        from = before.seats.get(play.seat);
      }
      if (from) {
        const to = rectOf(top);
        const scale = play.seat === you ? Math.min(1, from.width / to.width) : 0.45;
        top.animate([{ transform: fromTo(from, to, scale), opacity: 0.7 }, { transform: "none", opacity: 1 }],
          { duration: 420, easing: "cubic-bezier(.2,.8,.2,1)", id: "card-play" });
        moved();
      }
    }
    if (arrived.length && pile) {
      arrived.forEach((c, i) => {
        c.animate([{ transform: fromTo(pile, rectOf(c), 0.8), opacity: 0 }, { transform: "none", opacity: 1 }],
          { duration: 380, delay: Math.min(i, 10) * 60, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards", id: "card-draw" });
      });
      moved();
    }
    for (const e of events) {
      if (!["draw", "press"].includes(e.t) || !(e.count > 0) || e.seat === you || !pile) continue;
      const seat = rectOf(root.querySelector(`.seat-box[data-seat="${e.seat}"]`));
      if (!seat) continue;
      for (let i = 0; i < Math.min(e.count, 4); i++) {
        const b = backEl(true);
        b.classList.add("flying");
        Object.assign(b.style, { left: `${pile.left + pile.width / 2 - 17}px`, top: `${pile.top + pile.height / 2 - 25}px` });
        document.body.appendChild(b);
        const to = rectOf(b);
        const a = b.animate([{ transform: "none", opacity: 1 }, { transform: fromTo(seat, to, 0.8), opacity: 0.2 }],
          { duration: 420, delay: i * 70, easing: "ease-in", fill: "both", id: "card-draw-other" });
        a.onfinish = a.oncancel = () => b.remove();
      }
      moved();
    }
  }

  function updateClock() {
    if (S.roundEnd && S.state && S.state.round_clock) { // HR-BLITZ: the round's countdown
      const n = Math.ceil(Math.max(0, S.roundEnd - performance.now()) / 1000);
      for (const c of root.querySelectorAll("[data-round-clock]")) c.textContent = t("round ends in {n} s", { n });
    }
    if (S.deadline === null || !S.state || !S.state.timer) return;
    const left = Math.max(0, S.deadline - performance.now());
    for (const c of root.querySelectorAll("[data-timer]")) c.textContent = `${Math.ceil(left / 1000)} s`;
    const frac = Math.max(0, Math.min(1, left / (S.state.timer.total * 1000)));
    for (const b of root.querySelectorAll("[data-timer-bar]")) b.style.width = `${frac * 100}%`;
  }

  // -- keyboard ----------------------------------------------------------------------------
  function onKey(e) {
    if (isOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const cards = [...root.querySelectorAll("#hand .card")];
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
    const btn = root.querySelector(`#action-bar [data-key="${k}"]`);
    if (btn) {
      e.preventDefault();
      btn.click();
    }
  }

  function showHelp() {
    const body = el("dl", { class: "keys" });
    const rows = [["← →", t("move between your cards")], ["Enter", t("play the card in focus")], ["1–9, 0", t("play a card by its place in your hand")], ["D", t("draw")], ["K", t("keep the drawn card")], ["U", t("say UNO")], ["C", t("challenge, or catch a player without UNO")], ["A", t("accept")], ["Esc", t("close a dialog")]];
    for (const [k, d] of rows) body.append(el("dt", {}, el("kbd", { text: k })), el("dd", { text: d }));
    choose(t("Keyboard"), [], { body });
  }

  // -- start ---------------------------------------------------------------------------------
  update();
  getJSON(`/api/rooms/${roomId}`)
    .then((info) => {
      S.info = info;
      update();
      connect();
    })
    .catch((ex) => {
      S.missing = ex.message;
      update();
    });
  document.addEventListener("keydown", onKey);
  tick = setInterval(updateClock, 250);
  const onResize = () => fitHand();
  window.addEventListener("resize", onResize);
  const unlisten = onLangChange(() => {
    send({ type: "lang", lang: currentLang() });
    update();
  });

  return () => {
    S.closing = true;
    clearTimeout(retryTimer);
    clearTimeout(resultTimer);
    clearTimeout(errorTimer);
    clearInterval(tick);
    unlisten();
    closeDialog(null);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    document.body.classList.remove("at-table");
    delete document.body.dataset.edition;
    draw(null, root);
    if (S.ws) S.ws.close();
  };
}

export { COLOR_NAMES, cardText };
