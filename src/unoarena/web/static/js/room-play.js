// A clicked card becomes one of the legal actions. The server sends, with each state, the
// questions that still tell its plays apart (`choices`: which cards, the Wild's power, the
// colour, the target, then the action without and with UNO armed), built by the same code as
// the terminal's (unoarena.play_choice); this page only asks them in its own dialogs.
import { t, tn } from "./i18n.js";
import { cardEl, cardsText, colorText } from "./cards.js";
import { groupLegal } from "./actions.js";
import { choose } from "./dialog.js";
import { el } from "./util.js";

/** The first action under a node of a card's choices (whether the card jumps in, say). */
function firstAction(node) {
  while (node.ask) node = node.options[0].then;
  return node.plain;
}

/** The play part of a room page; `R` is the page (its state `S`, its other parts). */
export function roomPlay(R) {
  const { S } = R;

  /** How the hand shows a card: "jump" (it can jump in now), "playable", or "" (no play). */
  function cardClass(code) {
    const node = (S.state.choices || {})[code];
    if (!node) return "";
    const v = S.state.view;
    return firstAction(node).startsWith("jump_in ") && v.turn !== R.mySeat() ? "jump" : "playable";
  }

  async function onCard(code, node) {
    const v = S.state.view;
    const g = groupLegal(v.legal);
    if (g.gives.length) {
      const give = g.gives.find((a) => a.cards[0] === code);
      if (give) R.act(give.text);
      return;
    }
    let choice = (S.state.choices || {})[code];
    if (!choice) {
      node.classList.remove("shake");
      void node.offsetWidth;
      node.classList.add("shake");
      R.showError({ message: v.turn === R.mySeat() ? t("That card cannot be played now.") : t("It is not your turn.") });
      return;
    }
    while (choice.ask) {
      const pick = await ask(choice.ask, choice.options.map((o) => o.value), v);
      if (pick === null) return;
      choice = choice.options.find((o) => o.value === pick).then;
    }
    R.act(S.unoArmed ? choice.uno : choice.plain);
  }

  /** One question, in this page's words; null when the player closes the dialog. */
  function ask(step, values, v) {
    if (step === "cards") {
      return choose(t("Which cards?"), values.map((value) => {
        const cs = value.split(" ")[1].split("+");
        const row = el("span", { class: "mini-cards" });
        for (const c of cs) row.appendChild(cardEl(c, { small: true }));
        return { label: cardsText(cs), value, node: row };
      }));
    }
    if (step === "power") {
      const labels = { "": t("Name a colour"), color: t("Name a colour"), look: t("Look at a player's hand"), swap: t("Swap 3 cards with a player") };
      return choose(t("Wild card power"), values.map((p, i) => ({ label: labels[p] || p, value: p, key: String(i + 1) })));
    }
    if (step === "color") return chooseColor(values);
    return choose(t("Choose a player"), values.map((s, i) => ({ label: `${R.seatName(s)} · ${tn("{n} card", "{n} cards", v.hand_sizes[s])}`, value: s, key: String(i + 1) })));
  }

  function chooseColor(colors) {
    return choose(t("Choose a colour"), colors.map((c) => ({ label: colorText(c), value: c, key: c.toLowerCase(), className: `swatch-btn c-${c}` })), { className: "colors" });
  }

  return { onCard, cardClass };
}
