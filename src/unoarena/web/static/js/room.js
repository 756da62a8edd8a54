// A room: the lobby before the game, then the table, live over a WebSocket.
// The server is the authority: this page shows the view it is sent and offers exactly the
// legal actions listed in it; every click sends one of those strings back.
//
// Rendering is incremental (Preact through htm, vendored, no build step): every message
// describes the whole page again, and only what changed is touched in the document. A name
// being typed, the card in keyboard focus and the live region a screen reader listens to are
// the same elements before and after an opponent's move.
//
// The page is made of parts with one job each, every one a function of the page `R` (its state
// `S`, its root element, its timers and the other parts' functions): the connection
// (room-net.js), the lobby (room-lobby.js), the table (room-table.js), a clicked card made an
// action (room-play.js), layout and motion (room-motion.js) and the keyboard (room-keys.js).
import { html, render as draw } from "./vendor/preact-htm.js";
import { t, currentLang, onLangChange } from "./i18n.js";
import { getJSON, savedSeat, saveSeat } from "./api.js";
import { cardText, COLOR_NAMES } from "./cards.js";
import { closeDialog } from "./dialog.js";
import { el } from "./util.js";
import { roomConnection } from "./room-net.js";
import { roomLobby } from "./room-lobby.js";
import { roomTable } from "./room-table.js";
import { roomPlay } from "./room-play.js";
import { roomMotion } from "./room-motion.js";
import { roomKeys } from "./room-keys.js";

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
  const R = { S, root, roomId, navigate, timers: { retry: null, result: null, error: null, tick: null } };

  // -- helpers every part uses ------------------------------------------------------------
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

  // -- rendering ---------------------------------------------------------------------------
  function update() {
    const atTable = !!(S.info && S.info.status !== "lobby" && S.state);
    const log = root.querySelector("#log");
    const stick = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    document.body.classList.toggle("at-table", atTable);
    if (S.info) document.body.dataset.edition = S.info.rules.edition;
    draw(view(atTable), root);
    // the table opens at the top of the page (opponents and piles in sight), however far
    // down the room's lobby was scrolled
    if (atTable && !S.wasAtTable) window.scrollTo(0, 0);
    S.wasAtTable = atTable;
    const after = root.querySelector("#log");
    if (after && stick) after.scrollTop = after.scrollHeight;
    if (atTable) showTurn();
    R.fitHand();
    R.updateClock();
  }

  /** With more opponents than the row shows (10 players on a phone), bring the one whose
   * turn it is into view when the turn moves; between turns the row stays where it was
   * scrolled. */
  function showTurn() {
    const turn = S.state.view.round_over ? null : S.state.view.turn;
    if (turn === S.turnShown) return;
    S.turnShown = turn;
    const row = root.querySelector("#opponents");
    const chip = row && row.querySelector(".seat-box.turn");
    if (!chip || row.scrollWidth <= row.clientWidth) return;
    const a = row.getBoundingClientRect();
    const b = chip.getBoundingClientRect();
    if (b.left >= a.left && b.right <= a.right) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    row.scrollBy({ left: b.left - a.left - (a.width - b.width) / 2, behavior: still ? "auto" : "smooth" });
  }

  function view(atTable) {
    if (S.missing) {
      return html`<div class="panel"><h1>${t("Room not found")}</h1><p>${S.missing}</p>
        <a href="/" data-link class="button">${t("New game")}</a></div>`;
    }
    if (!S.info) return html`<p class="loading">${t("Loading…")}</p>`;
    return html`<div class="room">
      ${atTable ? null : R.banners()}
      ${atTable ? R.tableView() : R.lobbyView()}
    </div>`;
  }


  Object.assign(R, { mySeat, isHost, seatName, playerName, roomLink, rejoinLink, update },
    roomConnection(R), roomLobby(R), roomTable(R), roomPlay(R), roomMotion(R), roomKeys(R));

  // -- start ---------------------------------------------------------------------------------
  update();
  getJSON(`/api/rooms/${roomId}`)
    .then((info) => {
      S.info = info;
      update();
      R.connect();
    })
    .catch((ex) => {
      S.missing = ex.message;
      update();
    });
  document.addEventListener("keydown", R.onKey);
  R.timers.tick = setInterval(() => {
    R.updateClock();
    if (S.info && S.info.quick && S.info.status === "lobby") update(); // quick play's countdown
  }, 250);
  const onResize = () => R.fitHand();
  window.addEventListener("resize", onResize);
  const unlisten = onLangChange(() => {
    R.send({ type: "lang", lang: currentLang() });
    update();
  });

  return () => {
    S.closing = true;
    clearTimeout(R.timers.retry);
    clearTimeout(R.timers.result);
    clearTimeout(R.timers.error);
    clearInterval(R.timers.tick);
    unlisten();
    closeDialog(null);
    document.removeEventListener("keydown", R.onKey);
    window.removeEventListener("resize", onResize);
    document.body.classList.remove("at-table");
    delete document.body.dataset.edition;
    draw(null, root);
    if (S.ws) S.ws.close();
  };
}

export { COLOR_NAMES, cardText };
