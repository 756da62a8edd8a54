// The keyboard at a room page: arrows and digits for the hand, letters for the buttons.
import { t } from "./i18n.js";
import { choose, isOpen } from "./dialog.js";
import { el } from "./util.js";

/** The keys part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomKeys(R) {
  const { root } = R;
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

  return { onKey };
}
