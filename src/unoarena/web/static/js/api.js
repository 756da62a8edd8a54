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
}

export function forgetSeat(room) {
  localStorage.removeItem(`unoarena.seat.${room}`);
}
