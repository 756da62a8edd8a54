// The connection of a room page: the WebSocket, its messages and what the page sends.
// Every message from the server updates the page state `S` and redraws; every click sends one
// of the legal action strings back, exactly.
import { t, currentLang } from "./i18n.js";
import { saveSeat, forgetSeat, watcherKey } from "./api.js";
import { toast } from "./dialog.js";
import { sound, soundsFor } from "./sound.js";

const LOG_KEEP = 300;
const RESULT_MS = 7000;
const RESEND_MS = 30000; // a move still unanswered this long after it was made is not sent again

/** A name for one move: sent again after a reconnect, the server applies it once. */
function moveId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The net part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomConnection(R) {
  const { S, roomId } = R;
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${roomId}?lang=${currentLang()}`);
    S.ws = ws;
    ws.onopen = () => {
      S.retry = 0;
      const hello = { type: "hello", lang: currentLang() };
      if (S.seat && S.seat.token) hello.token = S.seat.token;
      else if (watcherKey(roomId)) hello.watcher = watcherKey(roomId);
      ws.send(JSON.stringify(hello));
      S.lost = false;
      S.notice = null; // the server says it again if it still holds
      R.update();
    };
    ws.onmessage = (ev) => handle(JSON.parse(ev.data));
    ws.onclose = () => {
      if (S.ws !== ws) return;
      S.lost = true;
      R.update();
      if (!S.closing) {
        const wait = Math.min(8000, 400 * 2 ** S.retry++);
        R.timers.retry = setTimeout(connect, wait);
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

  /** Send a move. It is kept until the table moves or the server refuses it: a socket that
   * drops just after (or before) it left sends it again once connected, with the same id, and
   * the server, which applies a move of one id once, never plays it twice. */
  function act(action) {
    S.lastRefusal = null;
    if (S.busy || !S.seat) return;
    const msg = { type: "act", action, token: S.seat.token, seq: S.state ? S.state.seq : undefined, id: moveId() };
    S.pending = { msg, at: Date.now() };
    S.busy = true;
    S.unoArmed = false;
    setTimeout(() => (S.busy = false), 1500);
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
    else toast(t("Not connected; your move goes when the connection is back."), "error");
  }

  /** After a reconnect: the move the page made before the drop, if no answer came. */
  function resendPending() {
    const p = S.pending;
    if (!p || !S.seat || Date.now() - p.at > RESEND_MS) {
      S.pending = null;
      return;
    }
    p.msg.token = S.seat.token;
    send(p.msg);
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
        S.waiting = !!msg.waiting; // quick play: a bot's seat is ours from the next round
        if (msg.player === null && S.seat && !msg.waiting) {
          forgetSeat(roomId);
          S.seat = null;
        } else if (msg.player !== null && S.seat && S.seat.player !== msg.player) {
          S.seat = { player: msg.player, token: S.seat.token }; // arrived by a rejoin link
          saveSeat(roomId, msg.player, S.seat.token);
        }
        if (msg.player !== null) resendPending();
        R.update();
        break;
      case "room":
        S.info = msg;
        if (msg.status === "playing") S.matchOver = null;
        R.update();
        break;
      case "state": {
        const before = R.snapshot();
        const previous = S.state;
        S.state = msg;
        if (S.pending && S.pending.msg.seq !== msg.seq) S.pending = null; // the table moved
        if (previous) soundsFor(previous, msg).forEach(sound); // not for the state on arrival
        S.busy = false;
        if (msg.log && msg.log.length) addLog(msg.log);
        R.noteShown(msg);
        S.deadline = msg.timer ? performance.now() + msg.timer.left_ms : null;
        S.roundEnd = msg.round_clock ? performance.now() + msg.round_clock.left_ms : null;
        if (msg.status === "playing") S.matchOver = null;
        R.update();
        R.animate(before, msg);
        break;
      }
      case "log":
        addLog(msg.lines, true);
        R.update();
        break;
      case "round_over":
        S.result = msg;
        clearTimeout(R.timers.result);
        R.timers.result = setTimeout(() => {
          S.result = null;
          R.update();
        }, RESULT_MS);
        R.update();
        break;
      case "match_over":
        S.matchOver = msg;
        S.result = null;
        R.update();
        break;
      case "removed":
        forgetSeat(roomId);
        S.seat = null;
        S.me = Object.assign({}, S.me, { player: null, host: false, seat: null });
        toast(msg.message, "error", 6000);
        R.update();
        break;
      case "chat":
        R.onChat(msg);
        break;
      case "reaction":
        R.onReaction(msg);
        break;
      case "vote":
        R.onVote(msg);
        break;
      case "bot_token":
        R.showBotToken(msg);
        break;
      case "notice":
        S.notice = msg.message || null;
        R.update();
        break;
      case "error":
        S.busy = false;
        S.pending = null;
        if (msg.code === "no_database" || msg.code === "log_broken") {
          S.notice = msg.message; // the banner says it, for as long as it lasts
          R.update();
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
    clearTimeout(R.timers.error);
    R.timers.error = setTimeout(() => {
      S.error = "";
      R.update();
    }, 5000);
    R.update();
  }

  return { connect, reconnect, send, act, hostSend, showError };
}
