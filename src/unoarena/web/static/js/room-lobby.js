// The lobby of a room page: the players, joining, the host's seat tools, links and rules.
import { html } from "./vendor/preact-htm.js";
import { t, tn, currentLang } from "./i18n.js";
import { postJSON, saveSeat } from "./api.js";
import { choose, toast } from "./dialog.js";
import { el, initial, plainRules } from "./util.js";

/** The lobby part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomLobby(R) {
  const { S, roomId } = R;
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
      const name = R.playerName(player);
      showLink(t("A new link for {name}", { name }), location.origin + res.url,
        t("Send it to {name}: it opens their seat on their new device. Their old link no longer works.", { name }));
    } catch (ex) {
      toast(ex.message, "error");
    }
  }

  /** The host made a remote bot seat: its token, shown this once (the server keeps only its
   * hash), with the command that plays it from any machine. */
  function showBotToken(msg) {
    const name = R.playerName(msg.player);
    const command = `unoarena bot run ${location.origin}/r/${roomId} --token ${msg.token} --bot heuristic`;
    const field = (value, label) => {
      const input = el("input", { readonly: true, value, class: "link-field", "aria-label": label });
      input.addEventListener("focus", () => input.select());
      return input;
    };
    const body = el("div", { class: "link-box bot-token" },
      el("p", { text: t("The bot token of {name}, shown only this once: a program that connects with it plays this seat. When it is late or away, its stand-in bot moves for it.", { name }) }),
      field(msg.token, t("Bot token")),
      el("p", { text: t("Play it with:") }),
      field(command, t("Command")));
    choose(t("Remote bot seat: {name}", { name }), [
      { label: t("Copy token"), value: "token", key: "t" },
      { label: t("Copy command"), value: "command", key: "c" },
    ], { body }).then((v) => {
      if (v === "token") copy(msg.token, t("Token copied"));
      if (v === "command") copy(command, t("Command copied"));
    });
  }

  /** Why nothing moves: the connection is lost, or the server says the room cannot go on now
   * (it lost its database). At the table they sit on the felt, above the hand, so that the
   * hand stays on screen. */
  function banners() {
    return html`<div id="conn-banner" class="banner warn" hidden=${!S.lost}>${t("Connection lost; reconnecting…")}</div>
      <div id="notice-banner" class="banner warn" role="status" hidden=${S.lost || !S.notice}>${S.notice || ""}</div>`;
  }

  function shareBox() {
    const link = R.roomLink();
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
        onClick=${() => copy(R.rejoinLink(), t("Your rejoin link is copied: open it on your other device."))}>
        ${t("Copy my rejoin link")}</button>
      <span class="hint">${t("Opens your seat on another device. Keep it to yourself: whoever has it plays for you.")}</span>
    </div>`;
  }

  function lobbyView() {
    const info = S.info;
    const open = info.players.filter((p) => p.kind === "open").length;
    return html`<div class="lobby" key="lobby">
      <h1>${t("Room {room}", { room: roomId })} ${info.rated ? html`<span class="badge rated" id="rated-badge">${t("Rated game")}</span>` : null}</h1>
      <p class="hint" id="room-visibility">${info.public
        ? html`<span class="badge you">${t("public")}</span> ${t("Listed in the lobby: anyone may join or watch.")}`
        : html`<span class="badge">${t("private")}</span> ${t("Only people with the link find this room.")}`}</p>
      ${quickBanner()}
      ${shareBox()}
      <section class="panel">
        <h2>${t("Players")}</h2>
        <ul class="players" id="lobby-players">${info.players.map(lobbyPlayer)}</ul>
      </section>
      ${!S.seat && open ? joinForm() : null}
      ${!S.seat && !open ? html`<p class="hint">${t("Every seat is taken; you are watching.")}</p>` : null}
      ${R.isHost()
        ? html`<div class="start-row">
            <button type="button" class="primary big" id="start-game" onClick=${() => R.hostSend("start")}>${t("Start the game")}</button>
            ${open ? html`<span class="hint">${tn("{n} open seat will be played by a bot.", "{n} open seats will be played by bots.", open)}</span>` : null}
          </div>`
        : S.seat ? html`<p class="hint waiting">${t("Waiting for the host to start…")}</p>` : null}
      ${R.chatPanel()}
      ${rejoinBox()}
      ${rulesPanel()}
    </div>`;
  }

  /** A quick-play table waiting for people: when bots of its level take the empty seats. */
  function quickBanner() {
    const info = S.info;
    if (!info.quick || info.fill_in_ms === null || info.fill_in_ms === undefined) return null;
    if (!S.fillAt || S.fillFor !== info.fill_in_ms) {
      S.fillFor = info.fill_in_ms;
      S.fillAt = performance.now() + info.fill_in_ms;
    }
    const left = Math.max(0, Math.ceil((S.fillAt - performance.now()) / 1000));
    return html`<div class="banner info" id="quick-banner" role="status">
      ${t("Quick play: waiting for people. In {n} s bots take the empty seats and the game starts.", { n: left })}</div>`;
  }

  function lobbyPlayer(p) {
    const info = S.info;
    const you = S.me && S.me.player === p.player;
    const avatar = p.kind === "bot" ? "⚙" : p.kind === "remote" ? "⇄" : p.kind === "open" ? "·" : initial(p.name);
    const tools = R.isHost() && p.player !== info.host;
    return html`<li key=${p.player} class=${`player ${p.kind}`} data-player=${String(p.player)}>
      <span class=${"avatar" + (p.kind === "bot" || p.kind === "remote" ? " bot" : "")}>${avatar}</span>
      <span class="name">${p.name}</span>
      ${p.next ? html`<span class="badge warn">${t("{name} takes this seat next round", { name: p.next })}</span>` : null}
      ${p.player === info.host ? html`<span class="badge">${t("host")}</span>` : null}
      ${you ? html`<span class="badge you">${t("you")}</span>` : null}
      ${p.kind === "remote" ? html`<span class="badge remote">${t("remote bot; stand-in: {bot}", { bot: p.bot })}</span>` : null}
      ${p.kind === "human" || p.kind === "remote" ? html`<span class=${"dot " + (p.connected ? "on" : "off")} title=${p.connected ? t("online") : t("offline")}></span>` : null}
      ${tools ? html`<span class="tools">
        ${p.kind === "open" ? html`<button type="button" class="small" onClick=${() => R.hostSend("seat", { player: p.player, kind: "bot", bot: "basic" })}>${t("Give to a bot")}</button>` : null}
        ${p.kind === "bot" ? html`<button type="button" class="small" onClick=${() => R.hostSend("seat", { player: p.player, kind: "open" })}>${t("Open for a friend")}</button>` : null}
        ${p.kind === "open" || p.kind === "bot" ? html`<button type="button" class="small make-remote" onClick=${() => R.hostSend("seat", { player: p.player, kind: "remote", bot: p.kind === "bot" ? p.bot : "basic" })}>${t("Remote bot")}</button>` : null}
        ${p.kind === "remote" ? html`<button type="button" class="small new-token" onClick=${() => R.hostSend("seat", { player: p.player, kind: "remote", bot: p.bot })}>${t("New token")}</button>` : null}
        ${p.kind === "remote" ? html`<button type="button" class="small danger revoke" onClick=${() => R.hostSend("seat", { player: p.player, kind: "open" })}>${t("Revoke token")}</button>` : null}
        ${p.kind === "human" ? html`<button type="button" class="small hand-over" onClick=${() => handOver(p.player)}>${t("New link")}</button>` : null}
        ${p.kind === "human" ? html`<button type="button" class="small danger" onClick=${() => R.hostSend("remove", { player: p.player })}>${t("Remove")}</button>` : null}
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
    R.update();
    try {
      const res = await postJSON(`/api/rooms/${roomId}/join`, { name: S.joinName });
      saveSeat(roomId, res.player, res.token);
      S.seat = { player: res.player, token: res.token };
      // the seat is ours now: show it so at once, not only when the room's next message
      // comes (the page would say "waiting" beside a seat that still looks open)
      const mine = S.info && S.info.players.find((p) => p.player === res.player);
      if (mine && mine.kind === "open") Object.assign(mine, { kind: "human", name: res.name, connected: true });
      R.reconnect();
    } catch (ex) {
      S.joinError = ex.message;
    }
    S.joining = false;
    R.update();
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
        R.update();
      }).catch(() => {});
    }
    return S.rulesText && S.rulesText.data ? S.rulesText.data : null;
  }

  return { copy, handOver, showBotToken, banners, shareBox, rejoinBox, lobbyView, rulesPanel };
}
