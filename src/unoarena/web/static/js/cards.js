// Cards as elements: colour, a big symbol, corner labels, and words for screen readers.
// `cardNode` describes one for the incremental renderer; `cardEl` builds one directly (dialogs,
// replays, cards in flight).
import { t } from "./i18n.js";
import { html } from "./vendor/preact-htm.js";

export const COLOR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", P: "purple" };
const RANK_NAMES = { S: "Skip", R: "Reverse", D2: "Draw Two", H2: "Hit 2", DA: "Discard All" };
const WILD_NAMES = {
  W: "Wild",
  W4: "Wild Draw Four",
  WH: "Wild Hyperspeed",
  WN: "Wild Forces of Nature",
  WA: "Wild Attack-Attack",
};
const SYMBOLS = {
  S: "⊘", R: "⇄", D2: "+2", H2: "✦2", DA: "≡",
  W: "★", W4: "+4", WH: "⚡", WN: "❄", WA: "✹",
};

export function isWild(code) {
  return code in WILD_NAMES;
}

export function colorOf(code) {
  return isWild(code) ? null : code[0];
}

export function rankOf(code) {
  return isWild(code) ? code : code.slice(1);
}

export function colorText(c) {
  return t(COLOR_NAMES[c] || c);
}

/** "red Skip", "Wild Draw Four": the shared catalogue's words. */
export function cardText(code) {
  if (isWild(code)) return t(WILD_NAMES[code]);
  const rank = rankOf(code);
  return t("{color} {rank}", {
    color: colorText(code[0]),
    rank: rank in RANK_NAMES ? t(RANK_NAMES[rank]) : rank,
  });
}

export function cardsText(codes) {
  return codes.map(cardText).join(" + ");
}

/** A card element; `opts.tag` "button" for a clickable one, `opts.small` for a mini card. */
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  const wild = isWild(code);
  el.classList.add(wild ? "wild" : `c-${code[0]}`);
  if (wild && opts.named) el.classList.add(`named-${opts.named}`);
  const rank = rankOf(code);
  const sym = SYMBOLS[rank] || rank;
  el.dataset.card = code;
  el.setAttribute("aria-label", cardText(code));
  el.title = cardText(code);
  if (opts.tag === "button") el.type = "button";
  el.innerHTML = `<span class="corner tl">${sym}</span><span class="oval"><span class="sym">${sym}</span></span><span class="corner br">${sym}</span>`;
  return el;
}

/** The classes of a card: its colour (or wild), the colour a wild was given, its size. */
function cardClass(code, opts) {
  const wild = isWild(code);
  let cls = "card " + (wild ? "wild" : `c-${code[0]}`);
  if (opts.small) cls += " small";
  if (wild && opts.named) cls += ` named-${opts.named}`;
  if (opts.cls) cls += " " + opts.cls;
  return cls;
}

/**
 * A card for the renderer. opts: `button` (clickable), `small`, `named` (a wild's colour),
 * `cls` (extra classes), `key`, `onClick`, `attrs` (more attributes).
 */
export function cardNode(code, opts = {}) {
  const sym = SYMBOLS[rankOf(code)] || rankOf(code);
  const label = cardText(code);
  const tag = opts.button ? "button" : "div";
  return html`<${tag} key=${opts.key} class=${cardClass(code, opts)} data-card=${code}
      aria-label=${label} title=${label} type=${opts.button ? "button" : undefined}
      onClick=${opts.onClick} ...${opts.attrs || {}}>
    <span class="corner tl" aria-hidden="true">${sym}</span>
    <span class="oval" aria-hidden="true"><span class="sym">${sym}</span></span>
    <span class="corner br" aria-hidden="true">${sym}</span>
  </${tag}>`;
}

/** The back of a card, for the renderer. */
export function backNode(key, small = true) {
  return html`<div key=${key} class=${"card back" + (small ? " small" : "")} aria-hidden="true">
    <span class="oval"><span class="sym">UNO</span></span></div>`;
}

export function backEl(small = true) {
  const el = document.createElement("div");
  el.className = "card back" + (small ? " small" : "");
  el.innerHTML = '<span class="oval"><span class="sym">UNO</span></span>';
  el.setAttribute("aria-hidden", "true");
  return el;
}
