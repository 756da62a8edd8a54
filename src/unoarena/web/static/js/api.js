// The server's JSON API. Errors carry the server's code and translated message.
import { currentLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function handle(res) {
  let body = null;
  try {
    body = await res.json();
  } catch (e) {
    throw new ApiError("bad_response", `HTTP ${res.status}`);
  }
  if (!res.ok) throw new ApiError(body.code || "error", body.message || `HTTP ${res.status}`);
  return body;
}

export async function getJSON(path) {
  const sep = path.includes("?") ? "&" : "?";
  return handle(await fetch(`${path}${sep}lang=${currentLang()}`));
}

export async function postJSON(path, data) {
  return handle(
    await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({ lang: currentLang() }, data)),
    }),
  );
}

/** The seat token of this browser for a room (kept across reloads). */
export function savedSeat(room) {
  try {
    return JSON.parse(localStorage.getItem(`unoarena.seat.${room}`) || "null");
  } catch (e) {
    return null;
  }
}

export function saveSeat(room, player, token) {
  localStorage.setItem(`unoarena.seat.${room}`, JSON.stringify({ player, token }));
  window.dispatchEvent(new CustomEvent("unoarena:seat", { detail: { room, token } }));
}

/** Every seat this browser holds, newest last: [{room, token}] (at most 20). */
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("unoarena.seat.")) continue;
    const seat = savedSeat(key.slice("unoarena.seat.".length));
    if (seat && seat.token) out.push({ room: key.slice("unoarena.seat.".length), token: seat.token });
  }
  return out.slice(-20);
}

/** This browser's own key for watching a room: a random string kept for the room, so that a
 * spectator keeps their number (and the host's mute) when the page reloads. One per room:
 * the server cannot tell that two rooms were watched from one browser. */
export function watcherKey(room) {
  const name = `unoarena.watcher.${room}`;
  try {
    let key = localStorage.getItem(name);
    if (!key) {
      const bytes = crypto.getRandomValues(new Uint8Array(18));
      key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(name, key);
    }
    return key;
  } catch (e) {
    return null; // storage refused (a private window's quota): a new spectator each visit
  }
}

export function forgetSeat(room) {
  localStorage.removeItem(`unoarena.seat.${room}`);
}
