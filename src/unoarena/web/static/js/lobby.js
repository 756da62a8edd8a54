// The lobby page (/lobby): quick play, and this server's public rooms, live.
// The server sends the list once, then only what changed (rooms added, the fields of a room
// that changed, rooms gone); the page keeps the list and redraws only what differs, so that a
// name being typed or a button in focus stays as it is while the list moves.
import { html, render as draw } from "./vendor/preact-htm.js";
import { t, tn, currentLang, onLangChange } from "./i18n.js";
import { getJSON, postJSON, saveSeat } from "./api.js";
import { el } from "./util.js";

const LEVELS = ["easy", "medium", "hard", "expert"];

export function showLobby(app, navigate) {
  const root = el("div", { class: "lobby-root" });
  app.appendChild(root);
  const S = {
    meta: null,
    rooms: new Map(), // id -> room as listed
    loaded: false,
    name: localStorage.getItem("unoarena.name") || "",
    preset: localStorage.getItem("unoarena.quick.preset") || "classic",
    level: localStorage.getItem("unoarena.quick.level") || "easy",
    only: "", // show the rooms of this rule set only ("": every one)
    busy: false,
    error: "",
    ws: null,
    lost: false,
    closing: false,
    retry: 0,
    timer: null,
  };

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/lobby?lang=${currentLang()}`);
    S.ws = ws;
    ws.onopen = () => {
      S.retry = 0;
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "lobby") {
        S.rooms = new Map(msg.rooms.map((r) => [r.id, r]));
        S.loaded = true;
        S.lost = false;
      } else if (msg.type === "lobby_diff") {
        for (const r of msg.add) S.rooms.set(r.id, r);
        for (const c of msg.change) {
          const r = S.rooms.get(c.id);
          if (r) S.rooms.set(c.id, Object.assign({}, r, c));
        }
        for (const id of msg.remove) S.rooms.delete(id);
      }
      update();
    };
    ws.onclose = () => {
      if (S.ws !== ws || S.closing) return;
      S.lost = true;
      update();
      S.timer = setTimeout(connect, Math.min(8000, 400 * 2 ** S.retry++));
    };
  }

  function rememberName() {
    localStorage.setItem("unoarena.name", S.name);
    if (!S.name.trim()) {
      S.error = t("Enter your name first.");
      update();
      const input = root.querySelector("#quick-name");
      if (input) input.focus();
      return false;
    }
    return true;
  }

  async function quickPlay(e) {
    e.preventDefault();
    if (S.busy || !rememberName()) return;
    localStorage.setItem("unoarena.quick.preset", S.preset);
    localStorage.setItem("unoarena.quick.level", S.level);
    S.busy = true;
    S.error = "";
    update();
    try {
      const res = await postJSON("/api/quick", { name: S.name, preset: S.preset, level: S.level });
      saveSeat(res.room, res.player, res.token);
      navigate(res.url);
    } catch (ex) {
      S.error = ex.message;
      S.busy = false;
      update();
    }
  }

  async function joinRoom(id) {
    if (S.busy || !rememberName()) return;
    S.busy = true;
    S.error = "";
    update();
    try {
      const res = await postJSON(`/api/rooms/${id}/join`, { name: S.name });
      saveSeat(id, res.player, res.token);
      navigate(res.url);
    } catch (ex) {
      S.error = ex.message;
      S.busy = false;
      update();
    }
  }

  const levelName = (id) => {
    const lv = S.meta && S.meta.levels.find((l) => l.id === id);
    return lv ? lv.name : id;
  };
  const ruleLabel = (key) => {
    const k = S.meta && S.meta.keys.find((x) => x.key === key);
    return k ? k.label : key;
  };

  function quickForm() {
    const meta = S.meta;
    const level = meta.levels.find((l) => l.id === S.level) || meta.levels[0];
    return html`<form class="panel quick-play" id="quick-form" onSubmit=${quickPlay}>
      <h1>${t("Quick play")}</h1>
      <p class="hint">${t("Pick a rule set: you sit at an open public table of it, or a new one opens, and bots of your level fill its empty seats if nobody comes within a short wait. People who come later take a bot's seat between rounds.")}</p>
      <div class="quick-fields">
        <label class="field"><span>${t("Your name")}</span>
          <input id="quick-name" maxlength="48" value=${S.name} autocomplete="nickname"
            placeholder=${t("Your name")} onInput=${(e) => (S.name = e.target.value)} /></label>
        <label class="field"><span>${t("Rules")}</span>
          <select id="quick-preset" onChange=${(e) => { S.preset = e.target.value; update(); }}>
            ${meta.presets.map((p) => html`<option value=${p.name} selected=${p.name === S.preset}>${p.name}</option>`)}
          </select></label>
        <label class="field"><span>${t("Bot level")}</span>
          <select id="quick-level" onChange=${(e) => { S.level = e.target.value; update(); }}>
            ${meta.levels.map((l) => html`<option value=${l.id} selected=${l.id === S.level}>${l.name}</option>`)}
          </select></label>
      </div>
      <p class="hint">${(meta.presets.find((p) => p.name === S.preset) || meta.presets[0]).summary}</p>
      <p class="hint">${level.name}: ${level.plays}</p>
      <p class="error" role="alert" id="lobby-error">${S.error}</p>
      <button type="submit" class="primary big" id="quick-play" disabled=${S.busy}>${t("Play now")}</button>
    </form>`;
  }

  /** A house rule as a chip: a switch by its name (struck through when off), a setting by
   * its name and value. */
  function houseRule(key, value) {
    if (typeof value === "boolean") {
      return html`<li key=${key} title=${key} class=${value ? "" : "off"}>${ruleLabel(key)}</li>`;
    }
    return html`<li key=${key} title=${key}>${ruleLabel(key)}: ${value === null ? t("none") : String(value)}</li>`;
  }

  function roomCard(r) {
    const house = Object.entries(r.house);
    return html`<li key=${r.id} class="lobby-room" data-room=${r.id}>
      <div class="lobby-room-head">
        <strong class="preset">${r.preset}</strong>
        <span class=${"badge" + (r.status === "lobby" ? " you" : "")}>${r.status === "lobby" ? t("waiting for players") : t("in play")}</span>
        ${r.quick ? html`<span class="badge">${t("quick play · {level} bots", { level: levelName(r.quick) })}</span>` : null}
      </div>
      ${house.length
        ? html`<ul class="house">${house.map(([k, v]) => houseRule(k, v))}</ul>`
        : html`<p class="hint house-none">${t("the rule set as printed")}</p>`}
      <p class="lobby-people">${r.people.join(", ")}${r.bots ? html` <span class="hint">${tn("+ {n} bot", "+ {n} bots", r.bots)}</span>` : null}</p>
      <p class="hint lobby-counts">
        <span class="seats-open">${r.open ? tn("{n} seat open", "{n} seats open", r.open) : t("table full")}</span>${" · "}<span class="table-size">${tn("{n} player", "{n} players", r.seats)}</span>${" · "}<span class="spectators">${tn("{n} watching", "{n} watching", r.spectators)}</span>
      </p>
      <div class="lobby-actions">
        ${r.joinable ? html`<button type="button" class="primary join-room" disabled=${S.busy} onClick=${() => joinRoom(r.id)}>${r.status === "lobby" ? t("Join") : t("Join next round")}</button>` : null}
        <a class="button watch-room" href=${`/r/${r.id}`} data-link>${t("Watch")}</a>
      </div>
    </li>`;
  }

  function view() {
    if (!S.meta) return html`<p class="loading">${t("Loading…")}</p>`;
    const all = [...S.rooms.values()];
    const rooms = S.only ? all.filter((r) => r.preset === S.only) : all;
    return html`<div class="lobby-page">
      ${quickForm()}
      <section class="panel public-rooms">
        <div class="public-rooms-head">
          <h2>${t("Public rooms")} <span class="badge" id="room-count">${rooms.length}</span></h2>
          <label class="rooms-filter"><span class="sr-only">${t("Rules")}</span>
            <select id="lobby-filter" aria-label=${t("Rules")} onChange=${(e) => { S.only = e.target.value; update(); }}>
              <option value="" selected=${!S.only}>${t("All rule sets")}</option>
              ${S.meta.presets.map((p) => html`<option value=${p.name} selected=${p.name === S.only}>${p.name}</option>`)}
            </select></label>
        </div>
        <div class="banner warn" hidden=${!S.lost}>${t("Connection lost; reconnecting…")}</div>
        ${!S.loaded ? html`<p class="loading">${t("Loading…")}</p>`
          : rooms.length ? html`<ul class="lobby-rooms" id="lobby-rooms">${rooms.map(roomCard)}</ul>`
          : all.length ? html`<p class="hint" id="no-rooms">${t("No public room of this rule set right now: quick play opens one.")}</p>`
          : html`<p class="hint" id="no-rooms">${t("No public rooms right now. Start one with quick play, or make a room public when you create it.")}</p>`}
      </section>
    </div>`;
  }

  function update() {
    draw(view(), root);
  }

  async function loadMeta() {
    S.meta = await getJSON("/api/meta");
    if (!S.meta.levels.some((l) => l.id === S.level)) S.level = LEVELS[0];
    update();
  }

  loadMeta().catch((ex) => {
    S.error = ex.message;
  });
  connect();
  update();
  const unlisten = onLangChange(() => loadMeta().catch(() => {}));
  return () => {
    S.closing = true;
    clearTimeout(S.timer);
    unlisten();
    draw(null, root);
    if (S.ws) S.ws.close();
  };
}
