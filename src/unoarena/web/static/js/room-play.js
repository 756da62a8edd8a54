// A clicked card becomes one of the legal actions: the questions that still differ (which
// cards, the Wild's power, the colour, the target) are asked, then the action is sent.
import { t, tn } from "./i18n.js";
import { cardEl, cardsText, colorText } from "./cards.js";
import { groupLegal, applyUno, distinct } from "./actions.js";
import { choose } from "./dialog.js";
import { el } from "./util.js";

/** The play part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomPlay(R) {
  const { S } = R;
  async function onCard(code, node) {
    const v = S.state.view;
    const g = groupLegal(v.legal);
    if (g.gives.length) {
      const give = g.gives.find((a) => a.cards[0] === code);
      if (give) R.act(give.text);
      return;
    }
    let opts = g.byCard.get(code) || [];
    if (!opts.length) {
      node.classList.remove("shake");
      void node.offsetWidth;
      node.classList.add("shake");
      R.showError({ message: v.turn === R.mySeat() ? t("That card cannot be played now.") : t("It is not your turn.") });
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
      const pick = await choose(t("Choose a player"), targets.map((s, i) => ({ label: `${R.seatName(s)} · ${tn("{n} card", "{n} cards", v.hand_sizes[s])}`, value: s, key: String(i + 1) })));
      if (pick === null) return;
      opts = opts.filter((a) => a.target === pick);
    }
    if (opts.length) R.act(opts[0].text);
  }

  function chooseColor(colors) {
    return choose(t("Choose a colour"), colors.map((c) => ({ label: colorText(c), value: c, key: c.toLowerCase(), className: `swatch-btn c-${c}` })), { className: "colors" });
  }

  return { onCard };
}
