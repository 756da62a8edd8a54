// Sounds of the table, made with the Web Audio API (no sound files): a play, a draw, your
// turn, UNO, a catch and the round's end. Browsers let a page make sound only after the
// person has touched it, so the audio starts at the first click or key; the switch in the top
// bar is remembered in this browser (localStorage).
import { t, onLangChange } from "./i18n.js";

const KEY = "unoarena.sound";
let ctx = null;
const played = []; // the last sounds played, shown on the page's body for whoever checks

// Each sound: [start s, frequency Hz, end frequency Hz, length s, wave]
const SOUNDS = {
  play: [[0, 520, 640, 0.08, "triangle"]],
  draw: [[0, 300, 200, 0.12, "sine"]],
  turn: [[0, 660, 660, 0.1, "sine"], [0.12, 880, 880, 0.14, "sine"]],
  uno: [[0, 523, 523, 0.1, "square"], [0.1, 659, 659, 0.1, "square"], [0.2, 784, 784, 0.18, "square"]],
  catch: [[0, 320, 140, 0.28, "sawtooth"]],
  round: [[0, 523, 523, 0.12, "triangle"], [0.12, 659, 659, 0.12, "triangle"],
    [0.24, 784, 784, 0.12, "triangle"], [0.36, 1047, 1047, 0.3, "triangle"]],
};

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

/** Play one of SOUNDS, if the switch is on and the person has touched the page. */
export function sound(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn() || !ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  for (const [at, f0, f1, len, wave] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(f0, now + at);
    osc.frequency.linearRampToValueAtTime(f1, now + at + len);
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(wave === "square" || wave === "sawtooth" ? 0.06 : 0.15, now + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + len + 0.02);
  }
  played.push(name);
  if (played.length > 40) played.shift();
  document.body.dataset.sounds = played.join(" ");
}

/** The sounds that a table's new state calls for, given the state before it. */
export function soundsFor(before, msg) {
  const out = [];
  const events = msg.events || [];
  const kinds = new Set(events.map((e) => e.t));
  if (kinds.has("round_over")) out.push("round");
  else if (kinds.has("catch")) out.push("catch");
  else if (kinds.has("uno")) out.push("uno");
  else if (kinds.has("play")) out.push("play");
  else if (kinds.has("draw")) out.push("draw");
  const v = msg.view;
  const mine = v && msg.you !== null && msg.you !== undefined && v.turn === msg.you && !v.round_over;
  const wasMine = before && before.view && before.view.turn === msg.you && !before.view.round_over;
  if (mine && !wasMine) out.push("turn");
  return out;
}

function wake() {
  if (!soundOn()) return;
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume();
}

/** The switch in the top bar, and the first-gesture start of the audio. */
export function initSound() {
  const btn = document.getElementById("sound-toggle");
  const draw = () => {
    const on = soundOn();
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.textContent = on ? "🔊" : "🔇";
    const label = on ? t("Sound on (click to mute)") : t("Sound off (click to turn on)");
    btn.title = label;
    btn.setAttribute("aria-label", label);
  };
  btn.addEventListener("click", () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    wake();
    draw();
  });
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wake, { capture: true });
  onLangChange(draw);
  draw();
}
